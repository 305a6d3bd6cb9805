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
// seen, so it grows with them; start a new one to let old ones go. The
// zero Cache is empty and ready to use, as NewCache's is.
type Cache struct {
	mu     sync.RWMutex
	values map[string]canonjson.Value
	clean  map[string]struct{} // text that holds no credential
	names  map[string]struct{} // names that passed the rule for names
}

// NewCache returns an empty Cache.
func NewCache() *Cache {
	return &Cache{}
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
	if c.clean == nil {
		c.clean = map[string]struct{}{}
	}
	c.clean[text] = struct{}{}
	c.mu.Unlock()
}

// isCleanName reports whether name passed the rule for names before.
func (c *Cache) isCleanName(name string) bool {
	c.mu.RLock()
	_, ok := c.names[name]
	c.mu.RUnlock()
	return ok
}

func (c *Cache) markCleanName(name string) {
	c.mu.Lock()
	if c.names == nil {
		c.names = map[string]struct{}{}
	}
	c.names[name] = struct{}{}
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
	if c.values == nil {
		c.values = map[string]canonjson.Value{}
	}
	c.values[string(raw)] = v
	c.mu.Unlock()
}
