package mcpservers

import (
	"context"
	"errors"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/guardian-agent/guardian-go/refusals"
)

// ClientOptions configure a Client. A nil *ClientOptions, and every zero
// field, means the documented default. NewClient copies the options: a later
// change to them, or to the connections, changes nothing the Client or its
// tools do.
type ClientOptions struct {
	// Interceptors wrap every tool call, the first outermost (see
	// [Interceptor]).
	Interceptors []Interceptor

	// Sampling, Elicitation and Roots answer the servers' requests for a
	// model completion, user input and the client's roots. With no
	// Elicitation handler, a call whose server asks for input returns an
	// *ElicitationRequired error to resume it with answers. With no
	// Sampling or Roots handler, the client does not offer them.
	Sampling    SamplingHandler
	Elicitation ElicitationHandler
	Roots       RootsHandler

	// OnLog receives the servers' log messages at LogLevel and above, and
	// OnProgress the progress of running calls. Both are called on one
	// goroutine per Client, in the order the messages arrived, never on a
	// connection's reader: a slow callback delays only other callbacks. When
	// 1024 messages are waiting, newer ones are dropped rather than block a
	// connection. Progress for a call can arrive after the call returned.
	OnLog      func(LogMessage)
	OnProgress func(Progress)
	// LogLevel is the least severe level OnLog receives: "debug", "info",
	// "notice", "warning", "error", "critical", "alert" or "emergency".
	// Empty means "info". Unused without OnLog.
	LogLevel string

	// PrefixToolNames names each tool "<server>_<tool>", sanitized to what
	// LLM providers accept (^[a-zA-Z0-9_-]{1,64}$, long names shortened
	// with a hash), so that servers with tools of one name can be used
	// together. Calls still use the tool's MCP name. Without it, two
	// servers offering one tool name is an ErrNameCollision error.
	PrefixToolNames bool

	// AllowPartial makes Tools return the tools of the servers that loaded,
	// together with an error for the ones that did not, instead of no tools;
	// and, of a server some of whose tools were left out (see Tools), the
	// rest.
	AllowPartial bool

	// ClientName and ClientVersion identify the client to servers. An
	// empty ClientName means "guardian-go", at this module's version.
	ClientName    string
	ClientVersion string

	// ProtocolVersion pins the MCP protocol version, such as "2025-11-25",
	// skipping negotiation. Empty means: the newest this client speaks,
	// falling back to the server's.
	ProtocolVersion string
	// DiscoverTimeout bounds how long connecting waits for a server to
	// answer the 2026-07-28 server/discover probe before taking it for an
	// older server; servers that ignore unknown requests would otherwise
	// stall every connection (mcp-go waits 5 seconds). A stdio server that
	// takes longer than this to start speaks the older protocol for that
	// connection, which works as well; raise it, or pin ProtocolVersion, to
	// avoid that. Zero means 1 second; negative means no bound.
	DiscoverTimeout time.Duration

	// Stderr, if set, receives what stdio servers write to their standard
	// error, each line prefixed with "[<server>] ". It must not block for
	// long: a server writing to a full pipe stops, and a session ends
	// only once the writer has taken its server's last lines. Nil
	// discards it.
	Stderr io.Writer

	// messageBound, if set, lowers maxMessageBytes for this client's
	// servers: tests set it to reach the bound quickly.
	messageBound int64
}

// Client is a set of MCP server connections, each named by its key in the
// map given to NewClient. It keeps one live connection per server, made on
// first use and reused by every tool loaded from it. Its methods are safe
// for concurrent use.
type Client struct {
	servers map[string]*remote
	names   []string // sorted
	opts    *options
	cb      *callbacks

	mu     sync.Mutex
	closed bool
}

// NewClient validates the connections and options and returns a Client
// that will connect to the servers when their tools are first loaded. It
// starts no process and opens no connection.
//
// Configuration that cannot work (an empty name or command, a relative
// Dir, a malformed URL, a bad option) is refused with *refusals.Error
// values of kind refusals.ErrInvalid, all of them at once, each naming the
// server and pointing at the field (/mcpServers/<name>/url). No message
// quotes a header, an environment value or a URL.
func NewClient(conns map[string]Connection, opts *ClientOptions) (*Client, error) {
	var errs []error
	for _, name := range sortedKeys(conns) {
		errs = append(errs, validate(name, conns[name])...)
	}
	errs = append(errs, validateOptions(opts)...)
	if err := refusals.Join(errs...); err != nil {
		return nil, err
	}
	c := &Client{servers: make(map[string]*remote, len(conns)), opts: copyOptions(opts)}
	c.cb = newCallbacks(c.opts)
	for _, name := range sortedKeys(conns) {
		cfg := copyConnection(name, conns[name])
		cfg.bound = c.opts.messageBound
		c.servers[name] = newRemote(&cfg, c.opts, c.cb)
		c.names = append(c.names, name)
	}
	return c, nil
}

// validateOptions refuses options that cannot work.
func validateOptions(o *ClientOptions) []error {
	if o == nil {
		return nil
	}
	refuse := func(pointer, rule, subject, detail, fix string) error {
		return &refusals.Error{Kind: refusals.ErrInvalid, Pointer: pointer, Rule: rule, Subject: subject, Detail: detail, Fix: fix}
	}
	var errs []error
	for i, ic := range o.Interceptors {
		if isNil(ic) {
			errs = append(errs, refuse(refusals.Pointer("interceptors", strconv.Itoa(i)), "interceptor-nil", "ClientOptions.Interceptors", "an interceptor is nil, or a nil func or pointer", "remove it"))
		}
	}
	// A nil handler is none; a typed nil one (a nil HandlerFunc, a nil
	// pointer) would panic when a server asks, on a goroutine of ours.
	for _, h := range []struct {
		name string
		v    any
	}{{"Sampling", o.Sampling}, {"Elicitation", o.Elicitation}, {"Roots", o.Roots}} {
		if h.v != nil && isNil(h.v) {
			errs = append(errs, refuse("", "handler-nil", "ClientOptions."+h.name, "the handler is a nil func or pointer", "set a handler, or leave the field nil for none"))
		}
	}
	if o.Stderr != nil && isNil(o.Stderr) {
		// A nil *bytes.Buffer panics on the goroutine draining a server's
		// stderr.
		errs = append(errs, refuse("", "stderr-nil", "ClientOptions.Stderr", "Stderr is a nil pointer", "set a writer, or leave the field nil to discard"))
	}
	if o.LogLevel != "" && !slices.Contains(logLevels, o.LogLevel) {
		errs = append(errs, refuse("", "log-level-invalid", "ClientOptions.LogLevel", "the log level is not one of MCP's", "use one of "+strings.Join(logLevels, ", ")))
	}
	if o.ProtocolVersion != "" && !mcp.IsValidProtocolVersion(o.ProtocolVersion) {
		errs = append(errs, refuse("", "protocol-version-invalid", "ClientOptions.ProtocolVersion", "this client does not speak that protocol version", "use one of "+strings.Join(mcp.ValidProtocolVersions, ", ")))
	}
	return errs
}

var logLevels = []string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}

// Tools connects to the named servers, or to all of them when none is
// named, concurrently, and returns their tools: ordered by server name,
// then in the order each server listed them, every page of the listing
// read.
//
// A server that cannot be loaded gives an *Error naming it; by default
// Tools then returns no tools, and the errors of every failing server.
// With ClientOptions.AllowPartial it returns the other servers' tools as
// well. Two tools of one name are an ErrNameCollision error unless
// ClientOptions.PrefixToolNames is set; a collision gives no tools even with
// AllowPartial, and its error is joined with the failing servers'.
//
// A tool is exactly what its server sent, or left out with an error: on a
// 2026-07-28 streamable HTTP connection, a tool whose x-mcp-header
// annotations are invalid cannot be called as SEP-2243 requires, and is an
// ErrProtocol *Error naming the server and the tool. A tool whose
// definition holds a credential of its connection, echoed back by the
// server (a header value, Auth's or a call's own included, an environment
// value, a URL password or query value; in any string or member name of
// its JSON, decoded, in the forms the redactor knows), is left out as an
// ErrEchoedCredential *Error naming the server and the tool, never the
// value: a definition reaches the model and may be recorded. Either way,
// by default Tools then returns no tools; with AllowPartial, the server's
// other tools are returned with the error.
//
// ctx bounds connecting and listing, not the connections, which live until
// Close. Calling Tools again lists the tools again, on the same connections.
func (c *Client) Tools(ctx context.Context, servers ...string) ([]*Tool, error) {
	if c == nil || c.opts == nil {
		return nil, invalidUse("", "", "list tools", errNilClient)
	}
	if ctx == nil {
		// It would panic on a goroutine of ours, killing the process.
		return nil, invalidUse("", "", "list tools", errNilContext)
	}
	c.mu.Lock()
	closed := c.closed
	c.mu.Unlock()
	if closed {
		return nil, &Error{Op: "list tools", Kind: ErrClosed}
	}
	names := c.names
	if len(servers) > 0 {
		names = slices.Compact(slices.Sorted(slices.Values(servers)))
		var unknown []error
		for _, n := range names {
			if c.servers[n] == nil {
				unknown = append(unknown, &Error{Server: n, Op: "list tools", Kind: ErrUnknownServer})
			}
		}
		if len(unknown) > 0 {
			return nil, errors.Join(unknown...)
		}
	}
	type loaded struct {
		tools []*Tool
		err   error
	}
	results := make([]loaded, len(names))
	var wg sync.WaitGroup
	for i, n := range names {
		wg.Go(func() {
			tools, err := c.servers[n].load(ctx)
			results[i] = loaded{tools, err}
		})
	}
	wg.Wait()

	var (
		tools []*Tool
		errs  []error
	)
	for _, r := range results {
		if r.err != nil {
			errs = append(errs, r.err)
		}
		// A server that failed has no tools; one that left tools out has
		// the rest, kept only with AllowPartial.
		tools = append(tools, r.tools...)
	}
	if len(errs) > 0 && !c.opts.allowPartial {
		return nil, errors.Join(errs...)
	}
	if err := collisions(tools); err != nil {
		// No tool set is safe to hand over; the servers that failed still
		// say so.
		return nil, errors.Join(append(errs, err)...)
	}
	return tools, errors.Join(errs...)
}

// load lists a server's tools, connecting first if need be. A listing cut
// off by the connection's death is safe to repeat, and is, once.
func (s *remote) load(ctx context.Context) ([]*Tool, error) {
	for attempt := 0; ; attempt++ {
		sess, err := s.session(ctx)
		if err != nil {
			return nil, s.asListError(err)
		}
		wts, stamp, err := sess.listTools(ctx)
		if err != nil && wts == nil {
			if attempt == 0 && errors.Is(err, ErrConnectionLost) {
				continue
			}
			return nil, err
		}
		info := sess.info
		if info.Implementation.Name == "" {
			info.Implementation = stamp
		}
		tools := make([]*Tool, len(wts))
		for i, wt := range wts {
			tools[i] = s.newTool(wt, info)
		}
		return tools, err
	}
}

func (s *remote) asListError(err error) error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	if errors.Is(err, errClosedClient) {
		return s.listError(ErrClosed, "", nil)
	}
	return s.listError(ErrConnect, s.red.Describe(err), err)
}

// Close closes every connection, stops every server process it started
// (and waits for it, so that none is left behind), and waits for the
// callback goroutine. Calls in flight fail with ErrClosed. Close is safe to
// call more than once; later calls return nil. A nil or zero *Client has
// nothing to close: an ErrInvalidUse error.
func (c *Client) Close() error {
	if c == nil || c.opts == nil {
		return invalidUse("", "", "close", errNilClient)
	}
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil
	}
	c.closed = true
	c.mu.Unlock()
	var wg sync.WaitGroup
	for _, s := range c.servers {
		wg.Go(s.close)
	}
	wg.Wait()
	c.cb.close()
	return nil
}
