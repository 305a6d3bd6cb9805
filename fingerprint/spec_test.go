package fingerprint_test

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/guardian-agent/guardian-go/fingerprint"
	"github.com/zeebo/blake3"
)

// specVector is one worked example of docs/fingerprint.md, as the
// document writes it.
type specVector struct {
	title     string
	materials [][]byte // each hex block, in order
	derives   []specDerive
}

// specDerive is one "`derive(ctx, material)` is `blake3:…`" statement, of
// the hex block before it.
type specDerive struct {
	context  string // the context string, from the document's table
	material []byte
	digest   fingerprint.Digest
}

var (
	deriveRE  = regexp.MustCompile("`derive\\((\\w+), material\\)` is\\s+`(blake3:[0-9a-f]{64})`")
	contextRE = regexp.MustCompile("(?m)^\\| (\\w+) \\| `(github\\.com/guardian-agent/guardian-go/fingerprint v1 \\w+)` \\|$")
)

// specVectors reads the worked examples from docs/fingerprint.md. Token
// texts (a ```tokens block, one token per space) are checked against the
// hex block that follows them; each derive statement is computed here,
// with BLAKE3 called directly, from the hex block before it.
func specVectors(t *testing.T) []specVector {
	t.Helper()
	doc, err := os.ReadFile(filepath.Join("..", "docs", "fingerprint.md"))
	if err != nil {
		t.Fatal(err)
	}
	contexts := map[string]string{}
	for _, m := range contextRE.FindAllStringSubmatch(string(doc), -1) {
		contexts[m[1]] = m[2]
	}
	if len(contexts) != 7 {
		t.Fatalf("the document's table of contexts has %d rows, want 7: %v", len(contexts), contexts)
	}
	_, section, ok := strings.Cut(string(doc), "\n### Worked examples\n")
	if !ok {
		t.Fatal("no Worked examples section in docs/fingerprint.md")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	var out []specVector
	for _, sub := range strings.Split(section, "\n#### ")[1:] {
		title, body, _ := strings.Cut(sub, "\n")
		v := specVector{title: title}
		var tokens []string
		var last []byte
		// Walk the text in order: fenced blocks and derive statements.
		for body != "" {
			fence := strings.Index(body, "\n```")
			prose := body
			if fence >= 0 {
				prose = body[:fence]
			}
			for _, m := range deriveRE.FindAllStringSubmatch(prose, -1) {
				ctx, ok := contexts[m[1]]
				if !ok || last == nil {
					t.Fatalf("%s: derive(%s) of no context or no material", title, m[1])
				}
				d, err := fingerprint.ParseDigest(m[2])
				if err != nil {
					t.Fatal(err)
				}
				v.derives = append(v.derives, specDerive{ctx, last, d})
			}
			if fence < 0 {
				break
			}
			info, rest, _ := strings.Cut(body[fence+4:], "\n")
			block, after, ok := strings.Cut(rest, "```")
			if !ok {
				t.Fatalf("%s: unclosed code block", title)
			}
			body = after
			switch info {
			case "tokens":
				tokens = strings.Fields(block)
			case "hex":
				m, err := hex.DecodeString(strings.Join(strings.Fields(block), ""))
				if err != nil {
					t.Fatalf("%s: %v", title, err)
				}
				if tokens != nil {
					var enc []byte
					for _, tok := range tokens {
						enc = binary.AppendUvarint(enc, uint64(len(tok)))
						enc = append(enc, tok...)
					}
					if !bytes.Equal(enc, m) {
						t.Errorf("%s: the token texts %q encode to %x, the document's material is %x", title, tokens, enc, m)
					}
					tokens = nil
				}
				last = m
				v.materials = append(v.materials, m)
			}
		}
		if tokens != nil {
			t.Errorf("%s: token texts with no material after them", title)
		}
		for _, d := range v.derives {
			var got fingerprint.Digest
			blake3.DeriveKey(d.context, d.material, got[:])
			if got != d.digest {
				t.Errorf("%s: derive(%q, %x) = %v, the document says %v", title, d.context, d.material, got, d.digest)
			}
		}
		out = append(out, v)
	}
	return out
}

// TestSpecWorkedExamples checks the worked examples of docs/fingerprint.md
// against the code: the document's digests are what Func, Value and
// Combine give, and its materials are what the specification's rules make.
// The document and the code say the same thing.
func TestSpecWorkedExamples(t *testing.T) {
	vs := specVectors(t)
	byTitle := map[string]specVector{}
	for _, v := range vs {
		byTitle[v.title] = v
	}
	fp := fingerprint.New(nil)
	lastDigest := func(title string, derives, materials int) specVector {
		t.Helper()
		v, ok := byTitle[title]
		if !ok {
			t.Fatalf("no worked example %q", title)
		}
		if len(v.derives) != derives || len(v.materials) != materials {
			t.Fatalf("%s: %d digests and %d materials, want %d and %d", title, len(v.derives), len(v.materials), derives, materials)
		}
		return v
	}

	v := lastDigest("A func", 1, 1)
	if got, err := fp.Func("/", shout); err != nil || got != v.derives[0].digest {
		t.Errorf("Func(shout) = %v, %v; the document gives %v", got, err, v.derives[0].digest)
	}

	v = lastDigest("A type record", 3, 3)
	spec, method, record := v.derives[0], v.derives[1], v.derives[2]
	var want []byte
	want = append(want, spec.digest[:]...)
	want = binary.AppendUvarint(want, uint64(len("Greet")))
	want = append(want, "Greet"...)
	want = append(want, method.digest[:]...)
	if !bytes.Equal(record.material, want) {
		t.Errorf("type record material %x, want declaration ‖ str(Greet) ‖ method = %x", record.material, want)
	}
	if got, err := fp.Value("/", greeter{}); err != nil || got != record.digest {
		t.Errorf("Value(greeter{}) = %v, %v; the document gives %v", got, err, record.digest)
	}

	v = lastDigest("Combine", 1, 1)
	var a, b fingerprint.Digest
	for i := range a {
		a[i], b[i] = 0xaa, 0xbb
	}
	got := fingerprint.Combine(fingerprint.Part{Role: "interceptor", Digest: a}, fingerprint.Part{Role: "auth", Digest: b})
	if got != v.derives[0].digest {
		t.Errorf("Combine = %v; the document gives %v", got, v.derives[0].digest)
	}
}
