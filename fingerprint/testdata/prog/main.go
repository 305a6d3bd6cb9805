// Command prog prints the fingerprints of the code in package shapes and
// of its own closures, one "name<TAB>result" line each, for the build
// tests of package fingerprint.
package main

import (
	"embed"
	"errors"
	"flag"
	"fmt"
	"net/http"

	"example.com/fpprog/shapes"
	"example.com/locallib"
	"github.com/guardian-agent/guardian-go/fingerprint"
	"github.com/guardian-agent/guardian-go/refusals"
	"github.com/mark3labs/mcp-go/server"
	"github.com/zeebo/blake3"
)

//go:embed *.go shapes
var source embed.FS

func main() {
	embedded := flag.Bool("embed", false, "supply the embedded source")
	flag.Parse()
	var opts fingerprint.Options
	if *embedded {
		opts.Sources = []fingerprint.Source{fingerprint.EmbeddedSource(source)}
	}
	fp := fingerprint.New(&opts)

	outer, inner := shapes.Nested()
	c := &shapes.Counter{}
	local := 3
	var getter shapes.Getter = shapes.Counter{}
	srv := server.NewMCPServer("prog", "1")
	cases := []struct {
		name  string
		value bool
		v     any
	}{
		{"top-level", false, shapes.TopLevel},
		{"leaf", false, shapes.Leaf},
		{"closure", false, shapes.Closure(1)},
		{"nested-outer", false, outer},
		{"nested-inner", false, inner},
		{"method-value", false, c.Inc},
		{"method-expr", false, (*shapes.Counter).Inc},
		{"value-method-wrapper", false, (*shapes.Counter).Get},
		{"generic", false, shapes.Map[int, string]},
		{"package-var", false, shapes.Var},
		{"main-closure", false, func() int { return local * 2 }},
		{"impl-value", true, c},
		{"local-replace", false, locallib.Twice},
		{"main-type", true, &mainAuth{}},
		{"stdlib", false, fmt.Sprintf},
		{"stdlib-method-value", false, http.DefaultClient.Do},
		{"mcp-method-value", false, srv.HandleMessage},
		{"dep-func", false, blake3.New},
		{"dep-method-value", false, blake3.New().Sum},
		{"interface-method", false, getter.Get},
	}
	for _, tc := range cases {
		var d fingerprint.Digest
		var err error
		if tc.value {
			d, err = fp.Value("/"+tc.name, tc.v)
		} else {
			d, err = fp.Func("/"+tc.name, tc.v)
		}
		switch {
		case err != nil:
			fmt.Printf("%s\trefused %s\n", tc.name, describe(err))
		case d.IsZero():
			fmt.Printf("%s\tskipped\n", tc.name)
		default:
			fmt.Printf("%s\t%s\n", tc.name, d)
		}
	}
}

// mainAuth is an implementation value declared in package main.
type mainAuth struct{ scope string }

// Header is what an auth type would add.
func (a *mainAuth) Header() string { return "Bearer " + a.token() }

func (a *mainAuth) token() string { return a.scope + "-token" }

func describe(err error) string {
	var r *refusals.Error
	if !errors.As(err, &r) {
		return "error " + err.Error()
	}
	kind := "other"
	switch {
	case errors.Is(err, refusals.ErrUnreadableSource):
		kind = "unreadable"
	case errors.Is(err, refusals.ErrStaleSource):
		kind = "stale"
	case errors.Is(err, refusals.ErrOpaqueCode):
		kind = "opaque"
	}
	return kind + " " + r.Rule
}
