package mcpservers

// Annotations are a tool's behaviour hints. A hint the server did not give
// is nil; the methods apply the MCP specification's defaults. Hints come
// from the server and are not to be trusted for a server you do not trust.
type Annotations struct {
	// Title is annotations.title (the tool's own title is Tool.Title).
	Title           string
	ReadOnlyHint    *bool // default false
	DestructiveHint *bool // default true; meaningful when not read-only
	IdempotentHint  *bool // default false; meaningful when not read-only
	OpenWorldHint   *bool // default true
}

// ReadOnly reports readOnlyHint, false if not given.
func (a Annotations) ReadOnly() bool { return hint(a.ReadOnlyHint, false) }

// Destructive reports destructiveHint, true if not given.
func (a Annotations) Destructive() bool { return hint(a.DestructiveHint, true) }

// Idempotent reports idempotentHint, false if not given.
func (a Annotations) Idempotent() bool { return hint(a.IdempotentHint, false) }

// OpenWorld reports openWorldHint, true if not given.
func (a Annotations) OpenWorld() bool { return hint(a.OpenWorldHint, true) }

// MayBeDestructive reports whether a call may destroy or overwrite
// something. It is false only when the server said so: the tool is
// read-only, or its destructiveHint is false. Anything not given counts as
// destructive.
func (a Annotations) MayBeDestructive() bool {
	return !a.ReadOnly() && a.Destructive()
}

func hint(p *bool, def bool) bool {
	if p == nil {
		return def
	}
	return *p
}
