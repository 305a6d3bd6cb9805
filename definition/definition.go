package definition

import (
	"encoding/hex"
	"slices"
	"sync"

	"github.com/zeebo/blake3"

	"github.com/guardian-agent/guardian-go/fingerprint"
	"github.com/guardian-agent/guardian-go/internal/canonjson"
	"github.com/guardian-agent/guardian-go/refusals"
)

// Definition is a recorded agent: a complete, schema-valid definition
// document. Build and Parse make one; it does not change afterwards and is
// safe for concurrent use.
type Definition struct {
	root    canonjson.Value // the document, exclusions applied
	index   *agentIndex
	exclude exclusions // deepest and last first

	// The document is validated and encoded on first export: an agent
	// loop that only vets calls never pays for it.
	exportOnce sync.Once
	doc        []byte
	digest     string
	exportErr  error

	// record is decoded from root when first asked for: Build does not
	// need it, and decoding every tool's schemas again costs.
	recordOnce sync.Once
	record     *AgentRecord

	fpOnce sync.Once
	fp     *fingerprint.Fingerprinter
	cache  *Cache // Options.Cache, for Vet

	memo vetMemo // the tools that passed Vet, as they presented themselves
}

// agentIndex locates an agent's tools in the document, for Vet.
type agentIndex struct {
	pointer string
	tools   map[string]int // name → index in tools
	values  []toolValues   // parsed JSON parts, before exclusion
	sub     map[string]*agentIndex
	subList []*agentIndex
}

// Document returns the canonical JSON document: sorted keys, numbers in
// their shortest form, no HTML escaping, UTF-8, two-space indentation and a
// trailing newline. The same agent gives the same bytes on every machine.
//
// The document is validated against the JSON Schema (Schema) and encoded
// on the first export (Document or Digest), and given out only if valid;
// later exports return the same bytes. Build's documents are valid by
// construction, so the error, *refusals.Error values of kind
// refusals.ErrInvalid, would mean a bug in this package; the check runs
// all the same. A nil or zero Definition (one Build or Parse did not make)
// has no document: ErrInvalid, rule "definition-nil".
func (d *Definition) Document() ([]byte, error) {
	if d.zero() {
		return nil, errNilDefinition
	}
	d.export()
	if d.exportErr != nil {
		return nil, d.exportErr
	}
	return slices.Clone(d.doc), nil
}

// Digest returns "blake3:<64 hex>", the BLAKE3-256 hash of Document's bytes
// (so `b3sum` reproduces it). It changes if and only if the document does.
// It is "" when Document returns an error, and for a nil or zero
// Definition.
func (d *Definition) Digest() string {
	if d.zero() {
		return ""
	}
	d.export()
	return d.digest
}

// export validates and encodes the document, once.
func (d *Definition) export() {
	d.exportOnce.Do(func() {
		if d.doc != nil {
			return // Parse validated and encoded it
		}
		if err := validate(d.root); err != nil {
			d.exportErr = err
			return
		}
		d.doc = canonjson.Encode(d.root)
		d.digest = digestOf(d.doc)
	})
}

// Record returns the document as Go values, a copy the caller may change;
// an empty record for a nil or zero Definition.
func (d *Definition) Record() *AgentRecord { return d.rec().clone() }

// zero reports whether d is nil or a Definition that Build or Parse did
// not make (the zero value): it has no document to give.
func (d *Definition) zero() bool { return d == nil || d.index == nil }

// rec returns the decoded record. The document passed the schema and the
// strict decoder accepts every schema-valid document (Parse runs both on
// everything it reads, and FuzzParse holds them together), so decoding
// cannot fail; were it to, the record would be empty rather than wrong.
func (d *Definition) rec() *AgentRecord {
	if d.zero() {
		return &AgentRecord{}
	}
	d.recordOnce.Do(func() {
		if d.record != nil {
			return
		}
		r, err := decodeRecord(d.root)
		if err != nil {
			r = &AgentRecord{}
		}
		d.record = r
	})
	return d.record
}

// finish applies exclusions and makes the Definition; the document is
// validated and encoded when first exported. refused are the refusals
// found while recording: finish adds its own, so that every problem is
// reported at once.
func finish(rec *AgentRecord, idx *agentIndex, exclude []string, fp *fingerprint.Fingerprinter, refused []error) (*Definition, error) {
	ex, errs := parseExcludes(exclude)
	rec.Extensions.Guardian.Exclude = ex.pointers()
	var root canonjson.Value
	var notFound []error
	if len(refused) == 0 {
		// Only a sound record can say a pointer names nothing: a refused
		// schema, say, is not there to exclude from.
		root, notFound = ex.apply(recordValue(rec, idx))
	}
	if errs = slices.Concat(refused, errs, notFound); len(errs) > 0 {
		return nil, refusals.Join(errs...)
	}
	d := &Definition{root: root, index: idx, fp: fp, exclude: ex}
	d.fpOnce.Do(func() {})
	setPointers(idx, "")
	return d, nil
}

// errNilDefinition is what a nil *Definition's methods return.
var errNilDefinition = &refusals.Error{Kind: refusals.ErrInvalid, Rule: "definition-nil", Fix: "use the Definition that Build or Parse returned"}

func digestOf(doc []byte) string {
	sum := blake3.Sum256(doc)
	return "blake3:" + hex.EncodeToString(sum[:])
}

// recordValue is the document tree of rec, with the tools' parsed parts.
func recordValue(rec *AgentRecord, idx *agentIndex) canonjson.Value {
	sub := make([]canonjson.Value, len(rec.SubAgents))
	for i := range rec.SubAgents {
		sub[i] = recordValue(&rec.SubAgents[i], idx.subList[i])
	}
	return agentValue(rec, idx.values, sub)
}

func setPointers(idx *agentIndex, base string) {
	idx.pointer = base
	for i, s := range idx.subList {
		setPointers(s, refusals.Append(base, keySubAgents, itoa(i)))
	}
}

func (d *Definition) fingerprinter() *fingerprint.Fingerprinter {
	d.fpOnce.Do(func() { d.fp = fingerprint.New(nil) })
	return d.fp
}
