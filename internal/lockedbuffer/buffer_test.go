package lockedbuffer

import (
	"strings"
	"sync"
	"testing"
)

// Writers on their own goroutines and a reader at the same time: every
// byte arrives (and -race finds no race).
func TestConcurrentWritesAndReads(t *testing.T) {
	var b Buffer
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 100 {
				b.Write([]byte("ab"))
				_ = b.String()
			}
		})
	}
	wg.Wait()
	if got := b.String(); len(got) != 8*100*2 || strings.Count(got, "ab") != 800 {
		t.Fatalf("got %d bytes, want 1600 of \"ab\"", len(got))
	}
}
