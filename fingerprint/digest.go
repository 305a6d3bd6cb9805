package fingerprint

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"strings"
	"sync"

	"github.com/guardian-agent/guardian-go/refusals"
	"github.com/zeebo/blake3"
)

// Digest is a BLAKE3-256 fingerprint of code. The zero Digest means that
// nothing was fingerprinted: the code was all skipped (standard library,
// mcp-go) or there was none.
type Digest [32]byte

const digestPrefix = "blake3:"

// String returns the digest as "blake3:" followed by 64 lowercase hex
// digits, the form definition documents record.
func (d Digest) String() string {
	var b [len(digestPrefix) + 64]byte
	copy(b[:], digestPrefix)
	hex.Encode(b[len(digestPrefix):], d[:])
	return string(b[:])
}

// IsZero reports whether d is the zero Digest: nothing was fingerprinted.
func (d Digest) IsZero() bool { return d == Digest{} }

// ParseDigest parses the form String returns, exactly: "blake3:" and 64
// lowercase hex digits. A malformed digest is an error that wraps
// refusals.ErrInvalid and does not quote the input.
func ParseDigest(s string) (Digest, error) {
	var d Digest
	hexPart, ok := strings.CutPrefix(s, digestPrefix)
	if !ok || len(hexPart) != 64 {
		return Digest{}, errDigestSyntax
	}
	for i := 0; i < len(hexPart); i++ {
		if c := hexPart[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return Digest{}, errDigestSyntax
		}
	}
	if _, err := hex.Decode(d[:], []byte(hexPart)); err != nil {
		return Digest{}, errDigestSyntax
	}
	return d, nil
}

var errDigestSyntax = fmt.Errorf(`fingerprint: parse digest: %w: want "blake3:" and 64 lowercase hex digits`, refusals.ErrInvalid)

// The BLAKE3 key-derivation contexts, one per kind of digest. The version
// tag is part of each: a change to what is hashed, or how, bumps it.
const (
	contextPrefix = "github.com/guardian-agent/guardian-go/fingerprint v1 "

	ctxFunc       = contextPrefix + "func"       // a func declaration or literal
	ctxType       = contextPrefix + "type"       // a type declaration and its methods
	ctxTypeSpec   = contextPrefix + "typespec"   // a type declaration's own tokens
	ctxCandidates = contextPrefix + "candidates" // several nodes one position can name
	ctxModule     = contextPrefix + "module"     // code of a third-party module
	ctxValue      = contextPrefix + "value"      // the records of one value
	ctxCombine    = contextPrefix + "combine"    // a tool's parts, by role
)

// derive hashes material in BLAKE3's derive_key mode under context.
func derive(context string, material []byte) Digest {
	var d Digest
	blake3.DeriveKey(context, material, d[:])
	return d
}

// hashers pools the BLAKE3 hashers of one derive_key context: making one
// hashes the context string and allocates a large state, which would
// dominate fingerprinting a small func.
type hashers struct {
	context string
	pool    sync.Pool
}

func (h *hashers) derive(material []byte) Digest {
	x, _ := h.pool.Get().(*blake3.Hasher)
	if x == nil {
		x = blake3.NewDeriveKey(h.context)
	} else {
		x.Reset()
	}
	_, _ = x.Write(material)
	var d Digest
	x.Sum(d[:0])
	h.pool.Put(x)
	return d
}

// nodeHashers are a Fingerprinter's hashers for the contexts of source
// nodes, the ones hashed most.
type nodeHashers struct {
	fn, spec hashers
}

func newNodeHashers() *nodeHashers {
	return &nodeHashers{fn: hashers{context: ctxFunc}, spec: hashers{context: ctxTypeSpec}}
}

func (n *nodeHashers) derive(context string, material []byte) Digest {
	switch {
	case n != nil && context == ctxFunc:
		return n.fn.derive(material)
	case n != nil && context == ctxTypeSpec:
		return n.spec.derive(material)
	}
	return derive(context, material)
}

// appendString writes s as its length (unsigned LEB128) and its bytes.
func appendString(dst []byte, s string) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(s)))
	return append(dst, s...)
}

// combineDigests hashes a sequence of digests, concatenated, under context.
func combineDigests(context string, ds []Digest) Digest {
	material := make([]byte, 0, 32*len(ds))
	for _, d := range ds {
		material = append(material, d[:]...)
	}
	return derive(context, material)
}

// moduleDigest identifies code of a third-party module by where it is, not
// by its source: a module version is immutable, so path, version and
// location inside it name the code exactly.
func moduleDigest(modPath, version, what string) Digest {
	var m []byte
	m = appendString(m, modPath)
	m = appendString(m, version)
	m = appendString(m, what)
	return derive(ctxModule, m)
}
