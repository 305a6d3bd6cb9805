package fingerprint

import (
	"github.com/guardian-agent/guardian-go/refusals"
)

// The rule IDs of fingerprint's refusals. They are part of the API: callers
// may match on them, and docs/fingerprint.md lists them.
const (
	ruleUnreadable      = "fingerprint/unreadable-source"
	ruleStale           = "fingerprint/stale-source"
	ruleMakeFunc        = "fingerprint/makefunc"
	ruleReflectMethod   = "fingerprint/reflect-method-value"
	ruleInterfaceMethod = "fingerprint/interface-method-value"
	ruleNotGo           = "fingerprint/not-go-source"
	ruleUnknownCode     = "fingerprint/unknown-code"
	ruleNotFunc         = "fingerprint/not-a-func"
)

const (
	fixUnreadable = "run the program where its source tree is, or embed the source (//go:embed) and pass fingerprint.EmbeddedSource in Options.Sources"
	fixStale      = "rebuild the program from the source on disk, or embed the source (fingerprint.EmbeddedSource) so the binary carries what it was built from"
	fixMakeFunc   = "pass a func written in Go source instead of one made by reflect.MakeFunc"
	fixReflect    = "take the method value in Go source (x.M), not through reflect"
	fixInterface  = "take the method value on the concrete type (x.M where x is not an interface), or pass the value itself to Value"
	fixNotGo      = "pass a Go func that calls it"

	fixForeignSource = "put the package's source on this machine (the Go distribution's src directory, found by GOROOT, for the standard library; go mod download for a module), or pass a func of your own that calls the method"

	fixUnknownModule = "build the program in module mode, so that its build information lists its modules"
)

// refusal is a refusal without its pointer: outcomes are cached per code
// value and handed out at whatever pointer the caller names.
type refusal struct {
	kind    error
	rule    string
	subject string
	detail  string
	fix     string
}

func (r refusal) at(pointer string) *refusals.Error {
	return &refusals.Error{Kind: r.kind, Pointer: pointer, Rule: r.rule, Subject: r.subject, Detail: r.detail, Fix: r.fix}
}

func unreadable(subject, detail string) refusal {
	return refusal{refusals.ErrUnreadableSource, ruleUnreadable, subject, detail, fixUnreadable}
}

func stale(subject, detail string) refusal {
	return refusal{refusals.ErrStaleSource, ruleStale, subject, detail, fixStale}
}

func opaque(rule, subject, detail, fix string) refusal {
	return refusal{refusals.ErrOpaqueCode, rule, subject, detail, fix}
}

// outcome is a fingerprint or the refusals that stand in for one.
type outcome struct {
	d    Digest
	refs []refusal
}

func refused(r ...refusal) outcome { return outcome{refs: r} }

func (o outcome) result(pointer string) (Digest, error) {
	switch len(o.refs) {
	case 0:
		return o.d, nil
	case 1:
		return Digest{}, o.refs[0].at(pointer)
	}
	errs := make([]error, len(o.refs))
	for i, r := range o.refs {
		errs[i] = r.at(pointer)
	}
	return Digest{}, refusals.Join(errs...)
}
