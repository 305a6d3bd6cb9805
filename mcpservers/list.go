package mcpservers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// maxListPages bounds a listing against a server that hands out cursors
// forever; a repeated cursor is caught at once.
const maxListPages = 10000

// listTools reads every page of the server's tools/list, keeping each tool
// exactly as sent.
// It also returns the identity the first page's _meta gives, if any. An
// error with tools is a listing that was read, but left tools out (see
// withHeaderDefs): the tools are the rest.
func (sess *session) listTools(ctx context.Context) ([]*wireTool, Implementation, error) {
	srv := sess.srv
	var (
		tools  []*wireTool
		names  = map[string]bool{}
		seen   = map[string]bool{}
		cursor string
		stamp  Implementation
	)
	meta := sess.metaFor("")
	ctx, unbind := sess.bind(ctx)
	defer unbind()
	for page := 1; ; page++ {
		if page > maxListPages {
			return nil, stamp, srv.listError(ErrProtocol, fmt.Sprintf("the listing goes on past %d pages", maxListPages), nil)
		}
		params, _ := json.Marshal(struct {
			Cursor string          `json:"cursor,omitempty"`
			Meta   json.RawMessage `json:"_meta,omitempty"`
		}{cursor, meta})
		raw, err := sess.send(ctx, string(mcp.MethodToolsList), params)
		if err != nil {
			return nil, stamp, sess.listFailure(ctx, err)
		}
		p, err := parseListPage(raw)
		if err != nil {
			return nil, stamp, srv.listError(ErrProtocol, fmt.Sprintf("page %d cannot be read: %s", page, srv.red.Describe(err)), err)
		}
		for i, rt := range p.tools {
			wt, err := parseTool(rt)
			if err != nil {
				return nil, stamp, srv.listError(ErrProtocol, fmt.Sprintf("page %d, tool %d: %v", page, i, err), err)
			}
			if names[wt.name] {
				return nil, stamp, srv.listError(ErrProtocol, fmt.Sprintf("the server lists the tool %q twice", srv.red.Redact(wt.name)), nil)
			}
			names[wt.name] = true
			tools = append(tools, wt)
		}
		if page == 1 && p.meta != nil {
			stamp = serverInfoFromMeta(p.meta)
		}
		if p.nextCursor == "" {
			break
		}
		if seen[p.nextCursor] {
			return nil, stamp, srv.listError(ErrProtocol, fmt.Sprintf("the server repeated a list cursor on page %d", page), nil)
		}
		seen[p.nextCursor] = true
		cursor = p.nextCursor
	}
	tools, echoed := sess.withoutEchoes(tools)
	var invalid error
	if sess.http && sess.modern {
		tools, invalid = sess.withHeaderDefs(tools)
	}
	if err := errors.Join(echoed, invalid); err != nil {
		return tools, stamp, err
	}
	return tools, stamp, nil
}

// withoutEchoes leaves out the tools whose definitions hold a credential
// of the connection, which the server echoed back (a description quoting
// the Authorization header it received, a default holding an environment
// value): the definition reaches the model and is recorded. Each tool
// left out is an ErrEchoedCredential error naming it (joined), never the
// value, and never a silent omission.
func (sess *session) withoutEchoes(tools []*wireTool) ([]*wireTool, error) {
	red := sess.srv.red
	kept := make([]*wireTool, 0, len(tools))
	var errs []error
	for _, wt := range tools {
		if !red.EchoedIn(wt.raw) {
			kept = append(kept, wt)
			continue
		}
		name, detail := wt.name, "the tool is left out: its definition holds a credential of the connection"
		if red.HoldsCredential(name) {
			name, detail = red.Redact(name), detail+", in its name"
		}
		errs = append(errs, &Error{Server: sess.srv.cfg.name, Tool: name, Op: "list tools", Kind: ErrEchoedCredential, detail: detail})
	}
	return kept, errors.Join(errs...)
}

// withHeaderDefs keeps, for a 2026-07-28 HTTP connection, the decoded
// definitions that say which arguments to mirror into Mcp-Param-* headers,
// and leaves out the tools whose x-mcp-header annotations are invalid, as
// SEP-2243 requires of a client. Each tool left out is an ErrProtocol error
// naming it (joined), never a silent omission.
func (sess *session) withHeaderDefs(tools []*wireTool) ([]*wireTool, error) {
	defs := make(map[string]*mcp.Tool, len(tools))
	kept := make([]*wireTool, 0, len(tools))
	var errs []error
	for _, wt := range tools {
		var mt mcp.Tool
		if json.Unmarshal(wt.raw, &mt) == nil {
			if err := mcp.ValidateParamHeaderAnnotations(&mt); err != nil {
				errs = append(errs, &Error{Server: sess.srv.cfg.name, Tool: wt.name, Op: "list tools", Kind: ErrProtocol, Err: err,
					detail: "the tool is left out: its x-mcp-header annotations are invalid (SEP-2243): " + err.Error()})
				continue
			}
			defs[wt.name] = &mt
		}
		kept = append(kept, wt)
	}
	sess.toolDefs.Store(&defs)
	return kept, errors.Join(errs...)
}

// serverInfoFromMeta reads the identity a 2026-07-28 server stamps on its
// results' _meta.
func serverInfoFromMeta(meta json.RawMessage) Implementation {
	var m struct {
		Info *struct {
			Name    string `json:"name"`
			Version string `json:"version"`
			Title   string `json:"title"`
		} `json:"io.modelcontextprotocol/serverInfo"`
	}
	if json.Unmarshal(meta, &m) != nil || m.Info == nil {
		return Implementation{}
	}
	return Implementation{Name: m.Info.Name, Version: m.Info.Version, Title: m.Info.Title}
}

func (s *remote) listError(kind error, detail string, cause error) *Error {
	return &Error{Server: s.cfg.name, Op: "list tools", Kind: kind, Err: cause, detail: detail}
}

// listFailure explains why a tools/list request failed. A listing cut off
// by a dead session (ErrConnectionLost) is safe to repeat: the caller
// reconnects and lists again, once.
func (sess *session) listFailure(ctx context.Context, err error) error {
	srv := sess.srv
	if re, detail, ok := refusedRedirect(ctx, srv.red, err); ok && !srv.isClosed() {
		return srv.listError(ErrRedirect, detail, re)
	}
	if ctx.Err() != nil {
		if srv.isClosed() {
			return srv.listError(ErrClosed, "", nil)
		}
		if cause := context.Cause(ctx); errors.Is(cause, errStreamLost) {
			return srv.listError(ErrConnectionLost, cause.Error(), cause)
		}
		return srv.listError(ErrConnect, "the server did not answer in time", ctx.Err())
	}
	if errors.Is(err, errNoResponse) || errors.Is(err, errNoResult) {
		return srv.listError(ErrProtocol, err.Error(), err)
	}
	var refused *sessionRefused
	if errors.As(err, &refused) {
		// The server forgot the session: list again on a new one.
		sess.markLost(errSessionEnded, false)
		return srv.listError(ErrConnectionLost, refused.Error(), err)
	}
	if rpc, ok := err.(*RPCError); ok {
		return srv.listError(ErrServer, rpc.Error(), rpc)
	}
	if errors.Is(err, transport.ErrSessionTerminated) {
		if sess.modern {
			return srv.listError(ErrServer, "HTTP status 404", err)
		}
		// The server forgot the session: list again on a new one.
		sess.markLost(errSessionEnded, false)
		return srv.listError(ErrConnectionLost, errSessionEnded.Error(), err)
	}
	if srv.isClosed() {
		return srv.listError(ErrClosed, "", nil)
	}
	if sess.isLost() || sess.proc != nil {
		return srv.listError(ErrConnectionLost, sess.lostReason().Error(), err)
	}
	return srv.listError(ErrConnect, describeTransportError(srv.red, err), err)
}

func (s *remote) isClosed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}
