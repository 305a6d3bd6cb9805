package definition_test

import (
	"encoding/json"
	"testing"

	"github.com/guardian-agent/guardian-go/definition"
)

// An adapter of the kind an agent framework's module writes: it makes the
// framework's tool a definition.Tool. adapterA and adapterB are two such
// adapters; searchCode and fetchCode are the code two tools run.
type adapterA struct{ code any }

func (adapterA) Name() string                 { return "lookup" }
func (adapterA) Description() string          { return "Looks a word up." }
func (adapterA) InputSchema() json.RawMessage { return json.RawMessage(`{"type":"object"}`) }
func (a adapterA) Adapted() any               { return a.code }
func (a adapterA) Run(word string) string     { return a.code.(interface{ Run(string) string }).Run(word) }

type adapterB struct{ adapterA }

func (b adapterB) Run(word string) string { return "b: " + b.adapterA.Run(word) }

type searchCode struct{}

func (searchCode) Run(word string) string { return "search " + word }

type fetchCode struct{}

func (fetchCode) Run(word string) string { return "fetch " + word }

// plainAdapter adapts the same way but does not say what it adapts.
type plainAdapter struct{ code any }

func (plainAdapter) Name() string                 { return "lookup" }
func (plainAdapter) Description() string          { return "Looks a word up." }
func (plainAdapter) InputSchema() json.RawMessage { return json.RawMessage(`{"type":"object"}`) }

// TestAdapterFingerprintsTheAdaptedCode: a Tool that is an Adapter has the
// code it adapts in its sourceHash, not its own type: two tools adapted by
// one adapter from different code hash apart, and one code adapted by two
// adapters hashes alike (so a module upgrade of the adapter changes no
// user's sourceHash). A Tool that is not an Adapter is fingerprinted by its
// own type, as before.
func TestAdapterFingerprintsTheAdaptedCode(t *testing.T) {
	t.Parallel()
	hash := func(tool definition.Tool) string {
		t.Helper()
		d, err := definition.Build(&definition.Agent{Name: "a", Tools: []definition.Tool{tool}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		h := d.Record().Tools[0].SourceHash
		if h == "" {
			t.Fatalf("%T: no sourceHash", tool)
		}
		return h
	}
	search, fetch := hash(adapterA{searchCode{}}), hash(adapterA{fetchCode{}})
	if search == fetch {
		t.Errorf("one adapter of two codes: both %s, want the code's own hashes", search)
	}
	if b := hash(adapterB{adapterA{searchCode{}}}); b != search {
		t.Errorf("one code under two adapters: %s and %s, want the code's hash for both", search, b)
	}
	if p1, p2 := hash(plainAdapter{searchCode{}}), hash(plainAdapter{fetchCode{}}); p1 != p2 {
		t.Errorf("a tool that is no Adapter: %s and %s, want its own type's hash for both", p1, p2)
	}
}
