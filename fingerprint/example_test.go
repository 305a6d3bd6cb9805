package fingerprint_test

import (
	"embed"
	"fmt"
	"net/http"
	"strings"

	"github.com/guardian-agent/guardian-go/fingerprint"
)

// shout is the code the examples fingerprint. Its digest is printed below:
// it is the same on every machine and in every build mode, and changes
// only when shout's tokens do.
func shout(s string) string { return strings.ToUpper(s) + "!" }

// authTransport is an implementation value: its declaration and both
// methods, the unexported one too, make its digest.
type authTransport struct{ next http.RoundTripper }

func (t *authTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", t.header())
	return t.next.RoundTrip(r)
}

func (t *authTransport) header() string { return "Bearer " + "token-from-elsewhere" }

// greeter is the type of the specification's worked type record.
type greeter struct{ name string }

func (g greeter) Greet() string { return g.name + "!" }

//go:embed example_test.go
var exampleSource embed.FS

func ExampleNew() {
	fp := fingerprint.New(nil) // nil: the defaults
	d, err := fp.Func("/tools/0/interceptors/0", shout)
	fmt.Println(d.IsZero(), err)
	// Output:
	// false <nil>
}

func ExampleFingerprinter_Func() {
	fp := fingerprint.New(nil)
	d, err := fp.Func("/tools/0/func", shout)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(d)

	// Standard library (and mcp-go) code is skipped: the zero Digest.
	std, err := fp.Func("/tools/1/func", strings.ToUpper)
	fmt.Println(std.IsZero(), err)
	// Output:
	// blake3:81022c4e25f97888a1b3cd81d677972ab0fbc58333fd036bf7ed0c37fc5e6e5f
	// true <nil>
}

func ExampleFingerprinter_Value() {
	fp := fingerprint.New(nil)
	d, err := fp.Value("/tools/0/auth", &authTransport{next: http.DefaultTransport})
	fmt.Println(d.IsZero(), err)

	// A pointer or not, the type's code is the same.
	d2, _ := fp.Value("/tools/0/auth", authTransport{})
	fmt.Println(d == d2)

	// The standard library's types are skipped.
	std, err := fp.Value("/tools/0/httpClient", http.DefaultClient)
	fmt.Println(std.IsZero(), err)
	// Output:
	// false <nil>
	// true
	// true <nil>
}

func ExampleCombine() {
	a, _ := fingerprint.ParseDigest("blake3:" + strings.Repeat("a", 64))
	b, _ := fingerprint.ParseDigest("blake3:" + strings.Repeat("b", 64))
	h := fingerprint.Combine(
		fingerprint.Part{Role: "interceptor", Digest: a},
		fingerprint.Part{Role: "auth", Digest: b},
	)
	swapped := fingerprint.Combine(
		fingerprint.Part{Role: "auth", Digest: a},
		fingerprint.Part{Role: "interceptor", Digest: b},
	)
	fmt.Println(h)
	fmt.Println(h == swapped)
	fmt.Println(fingerprint.Combine().IsZero())
	// Output:
	// blake3:a03fd37e24b0618c8fdbf237b44ca3dd8f24f60241441c1b1eb66b64f7aaaf1e
	// false
	// true
}

func ExampleParseDigest() {
	d, err := fingerprint.ParseDigest("blake3:" + strings.Repeat("0f", 32))
	fmt.Println(d[0], err)
	_, err = fingerprint.ParseDigest("sha256:" + strings.Repeat("0f", 32))
	fmt.Println(err)
	// Output:
	// 15 <nil>
	// fingerprint: parse digest: invalid: want "blake3:" and 64 lowercase hex digits
}

func ExampleDigest_String() {
	var d fingerprint.Digest
	fmt.Println(d)
	fmt.Println(d.IsZero())
	// Output:
	// blake3:0000000000000000000000000000000000000000000000000000000000000000
	// true
}

func ExampleDigest_IsZero() {
	fp := fingerprint.New(nil)
	d, _ := fp.Value("/tools/0/httpClient", http.DefaultClient)
	fmt.Println(d.IsZero())
	// Output:
	// true
}

// A binary deployed without its source tree embeds the source and passes
// it in Options.Sources; the digests are those of a build run beside its
// source.
func ExampleEmbeddedSource() {
	onDisk, _ := fingerprint.New(nil).Func("/f", shout)
	fp := fingerprint.New(&fingerprint.Options{
		Sources: []fingerprint.Source{fingerprint.EmbeddedSource(exampleSource)},
	})
	embedded, err := fp.Func("/f", shout)
	fmt.Println(embedded == onDisk, err)
	// Output:
	// true <nil>
}
