package secrets

import (
	"iter"
	"strings"
)

// indexes yields the index of each occurrence of sep in s, left to right,
// not overlapping. Most scans here start from the occurrences of a marker
// ("://", "=", "${", "</"); each reads s once however many there are.
func indexes(s, sep string) iter.Seq[int] {
	return func(yield func(int) bool) {
		for off := 0; off < len(s); {
			i := strings.Index(s[off:], sep)
			if i < 0 || !yield(off+i) {
				return
			}
			off += i + len(sep)
		}
	}
}
