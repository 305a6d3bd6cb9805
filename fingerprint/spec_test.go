package fingerprint_test

import (
	"encoding/binary"
	"encoding/hex"
	"testing"

	"github.com/guardian-agent/guardian-go/fingerprint"
	"github.com/zeebo/blake3"
)

// TestSpecWorkedExample recomputes the worked example of
// docs/fingerprint.md from the specification alone (token texts written
// out by hand, BLAKE3 called directly), and checks that Func agrees: the
// document and the code say the same thing.
func TestSpecWorkedExample(t *testing.T) {
	// func shout(s string) string { return strings.ToUpper(s) + "!" }
	tokens := []string{"func", "shout", "(", "s", "string", ")", "string", "{",
		"return", "import:strings", ".", "ToUpper", "(", "s", ")", "+", `"!"`, "}"}
	var material []byte
	for _, tok := range tokens {
		material = binary.AppendUvarint(material, uint64(len(tok)))
		material = append(material, tok...)
	}
	const wantMaterial = "0466756e630573686f75740128017306737472696e67012906737472696e67017b0672657475726e0e696d706f72743a737472696e6773012e07546f55707065720128017301290" +
		"12b03222122017d"
	if got := hex.EncodeToString(material); got != wantMaterial {
		t.Errorf("material = %s, want %s", got, wantMaterial)
	}
	var want fingerprint.Digest
	blake3.DeriveKey("github.com/guardian-agent/guardian-go/fingerprint v1 func", material, want[:])
	got, err := fingerprint.New(nil).Func("/", shout)
	if err != nil || got != want {
		t.Errorf("Func(shout) = %v, %v; the specification gives %v", got, err, want)
	}
	if want.String() != "blake3:81022c4e25f97888a1b3cd81d677972ab0fbc58333fd036bf7ed0c37fc5e6e5f" {
		t.Errorf("worked example digest = %v, docs/fingerprint.md says otherwise", want)
	}
}
