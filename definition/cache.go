package definition

import (
	"sync"

	"github.com/guardian-agent/guardian-go/internal/canonjson"
)

// Cache keeps, from one Build to the next, the tools' JSON (input and
// output schemas, annotations) parsed and canonical, by content, and the
// text found free of credentials: building an agent again, or vetting its
// calls, then skips parsing and checking what it has seen.
// With a warm Fingerprinter too (Options.Fingerprinter), building an agent
// again costs a fraction of building it the first time.
//
// A Cache is safe for concurrent use. It holds every distinct schema it has
// seen, so it grows with them; start a new one to let old ones go.
type Cache struct {
	mu     sync.RWMutex
	values map[string]canonjson.Value
	clean  map[string]struct{} // text that holds no credential
}

// NewCache returns an empty Cache.
func NewCache() *Cache {
	return &Cache{values: map[string]canonjson.Value{}, clean: map[string]struct{}{}}
}

// isClean reports whether text passed the credential check before.
func (c *Cache) isClean(text string) bool {
	c.mu.RLock()
	_, ok := c.clean[text]
	c.mu.RUnlock()
	return ok
}

func (c *Cache) markClean(text string) {
	c.mu.Lock()
	c.clean[text] = struct{}{}
	c.mu.Unlock()
}

// get returns the parsed form of raw, if the cache has it. Values are never
// changed once parsed, so one may be shared by many documents.
func (c *Cache) get(raw []byte) (canonjson.Value, bool) {
	c.mu.RLock()
	v, ok := c.values[string(raw)]
	c.mu.RUnlock()
	return v, ok
}

func (c *Cache) put(raw []byte, v canonjson.Value) {
	c.mu.Lock()
	c.values[string(raw)] = v
	c.mu.Unlock()
}
