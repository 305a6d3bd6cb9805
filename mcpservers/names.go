package mcpservers

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
)

// maxToolName is the longest tool name LLM providers accept
// (^[a-zA-Z0-9_-]{1,64}$).
const maxToolName = 64

// prefixedName names a server's tool for the model: "<server>_<tool>", with
// every character LLM providers refuse replaced by "_", and a name longer
// than 64 characters cut to 55 and given "_" and 8 hex digits of a SHA-256
// of the server and tool names, so that cut names stay apart. The same names
// always give the same result.
func prefixedName(server, tool string) string {
	name := sanitize(server) + "_" + sanitize(tool)
	if len(name) <= maxToolName {
		return name
	}
	sum := sha256.Sum256([]byte(server + "\x00" + tool))
	return name[:maxToolName-9] + "_" + hex.EncodeToString(sum[:4])
}

func sanitize(s string) string {
	if s == "" {
		return "_"
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '_', c == '-':
			b.WriteByte(c)
		default:
			b.WriteByte('_')
		}
	}
	return b.String()
}

// collisions refuses two tools that would reach the model with one name.
func collisions(tools []*Tool) error {
	seen := make(map[string]*Tool, len(tools))
	var errs []error
	for _, t := range tools {
		if other, ok := seen[t.name]; ok {
			errs = append(errs, &Error{
				Server: t.srv.cfg.name, Tool: t.wt.name, Op: "list tools", Kind: ErrNameCollision,
				detail: fmt.Sprintf("server %q has a tool of that name too; set ClientOptions.PrefixToolNames", other.srv.cfg.name),
			})
			continue
		}
		seen[t.name] = t
	}
	return errors.Join(errs...)
}
