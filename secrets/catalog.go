package secrets

// This file matches the token formats of gitleaks' maintained catalogue
// (catalog_gen.go, generated from its pinned rule file by
// secrets/internal/gitleaksgen): each format is a literal prefix and sets
// of bytes taken a bounded number of times, matched greedily from a
// word's start, with no regular-expression engine, so that a scan stays
// linear.

//go:generate go -C internal/gitleaksgen run . -out ../../catalog_gen.go

// catalogSet is a set of bytes, one bit each.
type catalogSet [4]uint64

func (s *catalogSet) has(c byte) bool { return s[c>>6]&(1<<(c&63)) != 0 }

// catalogStep is a set of bytes (an index into catalogSets) taken min to
// max times.
type catalogStep struct{ set, min, max uint16 }

// catalogFormat is one format: gitleaks' rule ID, the least Shannon
// entropy gitleaks asks of a match (0 for none), and its steps.
type catalogFormat struct {
	id      string
	entropy float64
	steps   []catalogStep
}

// catalogIndex lists, for each byte, the formats whose first step takes
// it, in table order. It is computed once and never changed.
var catalogIndex = func() (idx [256][]uint16) {
	for k := range catalog {
		first := &catalogSets[catalog[k].steps[0].set]
		for c := 0; c < 256; c++ {
			if first.has(byte(c)) {
				idx[c] = append(idx[c], uint16(k))
			}
		}
	}
	return idx
}()

// catalogSecond holds, for each byte, the bytes that follow it in the
// formats it starts: a word whose second byte is not there starts none.
var catalogSecond = func() (sec [256]catalogSet) {
	for c := range catalogIndex {
		for _, k := range catalogIndex[c] {
			for w, bits := range catalogSets[catalog[k].steps[1].set] {
				sec[c][w] |= bits
			}
		}
	}
	return sec
}()

// catalogLen returns the length of the catalogue token s starts with, or
// 0: the first format whose steps s meets, that ends where a word does,
// has gitleaks' entropy, and whose body (what follows the literal prefix)
// is no placeholder or filler.
func catalogLen(s string) int {
	if len(s) < 3 || !catalogSecond[s[0]].has(s[1]) {
		return 0
	}
	for _, k := range catalogIndex[s[0]] {
		f := &catalog[k]
		// Every format starts with three single bytes (the generator's
		// minPrefix): most words are turned away by the next two.
		if !catalogSets[f.steps[1].set].has(s[1]) || !catalogSets[f.steps[2].set].has(s[2]) {
			continue
		}
		n, prefix := 0, 0
		ok := true
		for _, st := range f.steps {
			set := &catalogSets[st.set]
			m := 0
			for m < int(st.max) && n+m < len(s) && set.has(s[n+m]) {
				m++
			}
			if m < int(st.min) {
				ok = false
				break
			}
			if st.min == 1 && st.max == 1 && prefix == n {
				prefix++
			}
			n += m
		}
		if !ok || (n < len(s) && isAlnum(s[n])) {
			continue
		}
		body := s[prefix:n]
		if f.entropy > 0 && entropy(s[:n]) < f.entropy {
			continue
		}
		if maskLike(body) || fillerBody(body) || vendorExample(body) || wordy(body) {
			continue
		}
		return n
	}
	return 0
}
