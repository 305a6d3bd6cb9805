package mcpservers

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/guardian-agent/guardian-go/definition"
)

// transports runs a test against newDocsServer over every transport, and,
// for stdio and streamable HTTP, in both protocol eras.
func transports(t *testing.T, test func(t *testing.T, conn Connection, opts *ClientOptions)) {
	hs := startHTTP(t)
	cases := []struct {
		name    string
		conn    Connection
		version string
	}{
		{"stdio", stdioServer("docs"), ""},
		{"stdio-2025-11-25", stdioServer("docs"), mcp.ProtocolVersion20251125},
		{"streamable", StreamableHTTP{URL: hs.streamable}, ""},
		{"streamable-2025-11-25", StreamableHTTP{URL: hs.streamable}, mcp.ProtocolVersion20251125},
		{"sse", SSE{URL: hs.sse}, ""},
		{"sse-2025-11-25", SSE{URL: hs.sse}, mcp.ProtocolVersion20251125},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// A slow start (a race-enabled child) must not look like an
			// old server that ignores the discovery probe.
			test(t, tc.conn, &ClientOptions{ProtocolVersion: tc.version, DiscoverTimeout: 20 * time.Second})
		})
	}
}

func TestToolsAreExactlyWhatTheServerSent(t *testing.T) {
	want := wireTools(t, newDocsServer())
	transports(t, func(t *testing.T, conn Connection, opts *ClientOptions) {
		tools, err := newClient(t, map[string]Connection{"docs": conn}, opts).Tools(testCtx(t))
		if err != nil {
			t.Fatal(err)
		}
		if got, wantNames := names(tools), slices.Sorted(maps.Keys(want)); !slices.Equal(got, wantNames) {
			t.Fatalf("tools = %v, want %v (the server's order)", got, wantNames)
		}
		for _, tool := range tools {
			raw := want[tool.Name()]
			if got := compact(t, tool.Raw()); got != compact(t, raw) {
				t.Errorf("%s: Raw() = %s, want %s", tool.Name(), got, raw)
			}
			o, _ := decodeObject(raw)
			if got, want := compact(t, tool.InputSchema()), compact(t, o["inputSchema"]); got != want {
				t.Errorf("%s: InputSchema() = %s, want %s", tool.Name(), got, want)
			}
			if o.present("outputSchema") != (tool.OutputSchema() != nil) {
				t.Errorf("%s: OutputSchema() = %s, server sent %s", tool.Name(), tool.OutputSchema(), o["outputSchema"])
			}
			if o.present("_meta") != (tool.Meta() != nil) {
				t.Errorf("%s: Meta() = %s, server sent %s", tool.Name(), tool.Meta(), o["_meta"])
			}
		}
		raw := byName(tools)["raw_schema_tool"]
		if got := string(raw.InputSchema()); got != rawSchema {
			t.Errorf("raw_schema_tool InputSchema() = %s, want the bytes sent, %s", got, rawSchema)
		}
		search := byName(tools)["search_docs"]
		if got := string(search.Meta()); got != `{"example.com/owner":"docs-team"}` {
			t.Errorf("search_docs Meta() = %s", got)
		}
		if search.Description() != "Search the docs; returns matching titles" {
			t.Errorf("search_docs Description() = %q", search.Description())
		}
		if !strings.Contains(string(search.OutputSchema()), `"results"`) {
			t.Errorf("search_docs OutputSchema() = %s", search.OutputSchema())
		}
	})
}

func TestToolsKnowTheirServer(t *testing.T) {
	transports(t, func(t *testing.T, conn Connection, opts *ClientOptions) {
		tools := loadTools(t, newClient(t, map[string]Connection{"docs": conn}, opts))
		got := tools["echo"].Server()
		want := ServerInfo{
			Name:            "docs",
			Transport:       conn.transport(),
			Implementation:  Implementation{Name: "probe-docs", Version: "0.3.1", Title: "Probe Docs Server"},
			ProtocolVersion: mcp.ProtocolVersion20260728,
			Instructions:    "probe server for mcpservers tests",
		}
		if opts.ProtocolVersion != "" {
			want.ProtocolVersion = opts.ProtocolVersion
		}
		if got != want {
			t.Errorf("Server() = %+v, want %+v", got, want)
		}
	})
}

func TestAnnotations(t *testing.T) {
	tools := loadTools(t, newClient(t, map[string]Connection{"docs": stdioServer("docs")}, nil))
	del := tools["delete_doc"].Annotations()
	if del.Title != "Delete document" || !del.Destructive() || del.ReadOnly() || !del.Idempotent() || del.OpenWorld() {
		t.Errorf("delete_doc annotations = %+v", del)
	}
	if del.DestructiveHint == nil || del.OpenWorldHint == nil {
		t.Errorf("delete_doc hints given by the server read as not given: %+v", del)
	}
	if !del.MayBeDestructive() {
		t.Errorf("delete_doc MayBeDestructive() = false")
	}
	if tools["search_docs"].Annotations().MayBeDestructive() {
		t.Errorf("search_docs (read-only) MayBeDestructive() = true")
	}
	// NewToolWithRawSchema sends "annotations": {}: every hint defaulted.
	raw := tools["raw_schema_tool"].Annotations()
	if raw.ReadOnlyHint != nil || raw.DestructiveHint != nil || raw.IdempotentHint != nil || raw.OpenWorldHint != nil {
		t.Errorf("raw_schema_tool hints = %+v, want none given", raw)
	}
	if raw.ReadOnly() || !raw.Destructive() || raw.Idempotent() || !raw.OpenWorld() || !raw.MayBeDestructive() {
		t.Errorf("raw_schema_tool defaults = %+v, want the spec's", raw)
	}
	// A copy: changing it changes nothing.
	*del.DestructiveHint = false
	if !tools["delete_doc"].Annotations().Destructive() {
		t.Errorf("Annotations() returned the tool's own hints")
	}
}

func TestAnnotationDefaults(t *testing.T) {
	yes, no := true, false
	tests := []struct {
		name string
		a    Annotations
		want bool
	}{
		{"none given", Annotations{}, true},
		{"read-only", Annotations{ReadOnlyHint: &yes}, false},
		{"read-only wins over destructive", Annotations{ReadOnlyHint: &yes, DestructiveHint: &yes}, false},
		{"not destructive", Annotations{DestructiveHint: &no}, false},
		{"not read-only", Annotations{ReadOnlyHint: &no}, true},
		{"destructive", Annotations{ReadOnlyHint: &no, DestructiveHint: &yes}, true},
	}
	for _, tt := range tests {
		if got := tt.a.MayBeDestructive(); got != tt.want {
			t.Errorf("%s: MayBeDestructive() = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestMalformedHintsCountAsNotGiven(t *testing.T) {
	tools := loadTools(t, newClient(t, map[string]Connection{"raw": stdioServer("raw-odd")}, nil))
	a := tools["odd"].Annotations()
	if a.ReadOnlyHint != nil {
		t.Errorf(`readOnlyHint "yes" read as %v, want not given`, *a.ReadOnlyHint)
	}
	if a.DestructiveHint == nil || *a.DestructiveHint {
		t.Errorf("destructiveHint false read as %v", a.DestructiveHint)
	}
	if got := string(tools["odd"].Raw()); !strings.Contains(got, `"readOnlyHint":"yes"`) {
		t.Errorf("Raw() = %s, lost what the server sent", got)
	}
}

func TestPaginationWithThousandsOfTools(t *testing.T) {
	const n, page = 3000, 25
	c := newClient(t, map[string]Connection{"many": stdioServer("many", "MCPSERVERS_TOOLS", fmt.Sprint(n), "MCPSERVERS_PAGE", fmt.Sprint(page))}, nil)
	tools, err := c.Tools(testCtx(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(tools) != n {
		t.Fatalf("got %d tools, want %d", len(tools), n)
	}
	for i, tool := range tools {
		if want := fmt.Sprintf("tool_%05d", i); tool.Name() != want {
			t.Fatalf("tool %d = %q, want %q", i, tool.Name(), want)
		}
	}
	if r := call(t, tools[2999], nil); r.Text() != "tool_02999" {
		t.Errorf("calling the last tool: %q", r.Text())
	}
}

func TestToolsOrderAndSubsets(t *testing.T) {
	conns := map[string]Connection{
		"b": stdioServer("many", "MCPSERVERS_TOOLS", "2"),
		"a": stdioServer("raw-odd"),
	}
	c := newClient(t, conns, &ClientOptions{PrefixToolNames: true})
	tools, err := c.Tools(testCtx(t))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := names(tools), []string{"a_odd", "b_tool_00000", "b_tool_00001"}; !slices.Equal(got, want) {
		t.Errorf("Tools() = %v, want %v", got, want)
	}
	only, err := c.Tools(testCtx(t), "b", "b")
	if err != nil {
		t.Fatal(err)
	}
	if got := names(only); !slices.Equal(got, []string{"b_tool_00000", "b_tool_00001"}) {
		t.Errorf(`Tools("b", "b") = %v`, got)
	}
	_, err = c.Tools(testCtx(t), "b", "nope", "zip")
	if !errors.Is(err, ErrUnknownServer) || !strings.Contains(err.Error(), `"nope"`) || !strings.Contains(err.Error(), `"zip"`) {
		t.Errorf("Tools with unknown servers: %v", err)
	}
}

func TestNameCollisions(t *testing.T) {
	conns := map[string]Connection{
		"one": stdioServer("many", "MCPSERVERS_TOOLS", "2"),
		"two": stdioServer("many", "MCPSERVERS_TOOLS", "1"),
	}
	_, err := newClient(t, conns, nil).Tools(testCtx(t))
	e := wantKind(t, err, ErrNameCollision, "two")
	if e.Tool != "tool_00000" || !strings.Contains(err.Error(), `"one"`) {
		t.Errorf("collision error = %v", err)
	}

	tools, err := newClient(t, conns, &ClientOptions{PrefixToolNames: true}).Tools(testCtx(t))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := names(tools), []string{"one_tool_00000", "one_tool_00001", "two_tool_00000"}; !slices.Equal(got, want) {
		t.Fatalf("prefixed names = %v, want %v", got, want)
	}
	if tools[2].MCPName() != "tool_00000" {
		t.Errorf("MCPName() = %q", tools[2].MCPName())
	}
	// The call uses the raw MCP name.
	if r := call(t, tools[2], nil); r.Text() != "tool_00000" {
		t.Errorf("prefixed tool called %q", r.Text())
	}
}

func TestPrefixedNames(t *testing.T) {
	valid := regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)
	long := strings.Repeat("x", 80)
	tests := []struct{ server, tool, want string }{
		{"docs", "search", "docs_search"},
		{"my server", "tool.v2/é", "my_server_tool_v2___"},
		{"", "", "___"},
		{"s", long, ""},
	}
	for _, tt := range tests {
		got := prefixedName(tt.server, tt.tool)
		if !valid.MatchString(got) {
			t.Errorf("prefixedName(%q, %q) = %q, not a valid tool name", tt.server, tt.tool, got)
		}
		if tt.want != "" && got != tt.want {
			t.Errorf("prefixedName(%q, %q) = %q, want %q", tt.server, tt.tool, got, tt.want)
		}
	}
	if a, b := prefixedName("s", long+"a"), prefixedName("s", long+"b"); a == b || len(a) != 64 {
		t.Errorf("long names %q and %q: cut names must differ and be 64 long", a, b)
	}
}

func TestAllowPartial(t *testing.T) {
	conns := map[string]Connection{
		"good": stdioServer("many", "MCPSERVERS_TOOLS", "1"),
		"bad":  stdioServer("exit-init"),
	}
	tools, err := newClient(t, conns, nil).Tools(testCtx(t))
	if tools != nil {
		t.Errorf("by default a failing server gives no tools, got %v", names(tools))
	}
	wantKind(t, err, ErrConnect, "bad")

	tools, err = newClient(t, conns, &ClientOptions{AllowPartial: true}).Tools(testCtx(t))
	if got := names(tools); !slices.Equal(got, []string{"tool_00000"}) {
		t.Errorf("AllowPartial tools = %v", got)
	}
	wantKind(t, err, ErrConnect, "bad")
}

// TestAllowPartialWithCollision: a collision among the servers that
// loaded gives no tools, and the error of the server that failed is not
// dropped for it.
func TestAllowPartialWithCollision(t *testing.T) {
	conns := map[string]Connection{
		"one": stdioServer("many", "MCPSERVERS_TOOLS", "1"),
		"two": stdioServer("many", "MCPSERVERS_TOOLS", "1"),
		"bad": stdioServer("exit-init"),
	}
	tools, err := newClient(t, conns, &ClientOptions{AllowPartial: true}).Tools(testCtx(t))
	if tools != nil {
		t.Errorf("a collision gave tools %v", names(tools))
	}
	if !errors.Is(err, ErrNameCollision) || !strings.Contains(err.Error(), `server "two": list tools "tool_00000": tool name collision`) {
		t.Errorf("err = %v, want the collision", err)
	}
	if !errors.Is(err, ErrConnect) || !strings.Contains(err.Error(), `server "bad": connect`) {
		t.Errorf("err = %v, want the failing server's error too", err)
	}
}

func TestWebSocketIsUnsupported(t *testing.T) {
	c := newClient(t, map[string]Connection{"ws": WebSocket{URL: "wss://example.com/mcp"}}, nil)
	_, err := c.Tools(testCtx(t))
	wantKind(t, err, errors.ErrUnsupported, "ws")
}

// recorder is a struct interceptor, as the definition prefers them.
type recorder struct{ label string }

func (r *recorder) Intercept(ctx contextT, req *CallRequest, next CallFunc) (*Result, error) {
	return next(ctx, req)
}

func TestMCPRecord(t *testing.T) {
	hs := startHTTP(t)
	factory := func() *http.Client { return &http.Client{} }
	auth := AuthFunc(func(req *http.Request, next http.RoundTripper) (*http.Response, error) { return next.RoundTrip(req) })
	first, second := &recorder{"first"}, InterceptorFunc(func(ctx contextT, req *CallRequest, next CallFunc) (*Result, error) {
		return next(ctx, req)
	})
	elicit := ElicitationHandlerFunc(func(ctx contextT, r *ElicitationRequest) (*ElicitationResponse, error) { return nil, nil })
	sample := SamplingHandlerFunc(func(ctx contextT, r *SamplingRequest) (*SamplingResult, error) { return nil, nil })
	roots := RootsHandlerFunc(func(ctx contextT, r *RootsRequest) ([]Root, error) { return nil, nil })
	opts := &ClientOptions{
		Interceptors: []Interceptor{first, second},
		Elicitation:  elicit, Sampling: sample, Roots: roots,
		OnLog:      func(LogMessage) {},
		OnProgress: func(Progress) {},
	}
	stdio := stdioServer("many", "MCPSERVERS_TOOLS", "1")
	stdio.Args = []string{"-test.run=^$", "--flag"}
	stdio.Dir = t.TempDir()
	conns := map[string]Connection{
		"http": StreamableHTTP{URL: hs.streamable, Headers: map[string]string{"X-Static": "h"}, HTTPClient: factory, Auth: auth},
		"cmd":  stdio,
	}
	tools := loadTools(t, newClient(t, conns, opts), "http", "cmd")

	got := tools["tool_00000"].MCPRecord()
	want := definition.Server{Name: "cmd", Transport: definition.TransportStdio, Command: stdio.Command, Args: []string{"-test.run=^$", "--flag"}}
	if !reflect.DeepEqual(got.Server, want) {
		t.Errorf("stdio record server = %+v, want %+v", got.Server, want)
	}
	roles := func(r definition.MCPRecord) []definition.Role {
		var out []definition.Role
		for _, c := range r.Code {
			out = append(out, c.Role)
		}
		return out
	}
	wantRoles := []definition.Role{definition.RoleInterceptor, definition.RoleInterceptor, definition.RoleSampling, definition.RoleElicitation, definition.RoleRoots}
	if !slices.Equal(roles(got), wantRoles) {
		t.Errorf("stdio record roles = %v, want %v (no logging or progress)", roles(got), wantRoles)
	}
	if got.Code[0].Value != Interceptor(first) || got.SessionBound {
		t.Errorf("stdio record = %+v", got)
	}

	rec := tools["echo"].MCPRecord()
	if !reflect.DeepEqual(rec.Server, definition.Server{Name: "http", Transport: definition.TransportStreamableHTTP, URL: hs.streamable}) {
		t.Errorf("http record server = %+v", rec.Server)
	}
	wantRoles = []definition.Role{definition.RoleInterceptor, definition.RoleInterceptor, definition.RoleHTTPClient, definition.RoleAuth, definition.RoleSampling, definition.RoleElicitation, definition.RoleRoots}
	if !slices.Equal(roles(rec), wantRoles) {
		t.Errorf("http record roles = %v, want %v", roles(rec), wantRoles)
	}
	del := tools["delete_doc"].MCPRecord()
	if del.Title != "" || !strings.Contains(string(del.Annotations), `"title":"Delete document"`) {
		t.Errorf("delete_doc record = title %q annotations %s", del.Title, del.Annotations)
	}
	if s := tools["search_docs"].MCPRecord(); !strings.Contains(string(s.OutputSchema), "results") {
		t.Errorf("search_docs record output schema = %s", s.OutputSchema)
	}
	// Appending to the record's slices cannot write into it.
	_ = append(got.Server.Args, "appended")
	_ = append(got.Code, definition.Code{Role: definition.RoleAuth})
	if again := tools["tool_00000"].MCPRecord(); len(again.Server.Args) != 2 || len(again.Code) != 5 {
		t.Errorf("an append changed the record: %+v", again)
	}
}

// TestRecordIsNotCallState changes what MCPRecord returned (a caller that
// ignores "read-only") and asserts the tool still calls what it was loaded
// with, through a reconnect that re-reads its command line.
func TestRecordIsNotCallState(t *testing.T) {
	var seen []string
	ic := InterceptorFunc(func(ctx contextT, req *CallRequest, next CallFunc) (*Result, error) {
		seen = append(seen, "loaded")
		return next(ctx, req)
	})
	conn := stdioServer("docs")
	conn.Args = []string{"-test.run=^$"}
	tools := loadTools(t, newClient(t, map[string]Connection{"docs": conn}, &ClientOptions{Interceptors: []Interceptor{ic}}))
	whoami := tools["whoami"]
	rec := whoami.MCPRecord()
	rec.Server.Args[0] = "-test.run=^TestNothing$"
	rec.Code[0].Value = InterceptorFunc(func(ctx contextT, req *CallRequest, next CallFunc) (*Result, error) {
		seen = append(seen, "changed")
		return next(ctx, req)
	})

	before := pidOf(t, whoami)
	if err := syscall.Kill(before, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool { return processGone(before) })
	got := call(t, whoami, nil).Text()
	if strings.Contains(got, fmt.Sprintf("pid=%d ", before)) {
		t.Errorf("not reconnected: %s", got)
	}
	if !strings.Contains(got, `args=["-test.run=^$"]`) {
		t.Errorf("the reconnected server was started with %s, want the args it was loaded with", got)
	}
	if len(seen) == 0 || slices.Contains(seen, "changed") {
		t.Errorf("interceptors run = %v, want only the one loaded", seen)
	}
}

func TestToolsKeepTheirOwnCopies(t *testing.T) {
	var seen []string
	ic := InterceptorFunc(func(ctx contextT, req *CallRequest, next CallFunc) (*Result, error) {
		seen = append(seen, "original")
		return next(ctx, req)
	})
	conn := stdioServer("docs")
	conn.Args = []string{"-test.run=^$"}
	conns := map[string]Connection{"docs": &conn}
	opts := &ClientOptions{Interceptors: []Interceptor{ic}}
	c := newClient(t, conns, opts)

	// Changes after NewClient, to everything the caller gave it.
	conn.Args[0] = "-changed"
	conn.Env[serverEnv] = "silent"
	conns["docs"] = Stdio{Command: "/nonexistent"}
	opts.Interceptors[0] = InterceptorFunc(func(ctx contextT, req *CallRequest, next CallFunc) (*Result, error) {
		seen = append(seen, "replacement")
		return next(ctx, req)
	})
	opts.PrefixToolNames = true

	tools := loadTools(t, c)
	echo := tools["echo"]
	if echo == nil {
		t.Fatalf("tools = %v", slices.Collect(maps.Keys(tools)))
	}
	if r := call(t, echo, map[string]any{"text": "hi"}); !strings.Contains(r.Text(), `"text":"hi"`) {
		t.Errorf("echo = %q", r.Text())
	}
	if !slices.Equal(seen, []string{"original"}) {
		t.Errorf("interceptors run = %v, want the one given to NewClient", seen)
	}
	if got := echo.MCPRecord().Server.Args; !slices.Equal(got, []string{"-test.run=^$"}) {
		t.Errorf("record args = %v, want the ones given to NewClient", got)
	}
}

// TestToolsLoadsServersConcurrently loads servers that each wait, before
// answering anything, until all of them have started: loaded one after the
// other, the first would wait for the others forever (30 s, then exit).
// That is the condition itself, where timing the load was one the
// machine's load could break.
func TestToolsLoadsServersConcurrently(t *testing.T) {
	const servers = 5
	barrier := t.TempDir()
	conns := map[string]Connection{}
	for i := range servers {
		conns[fmt.Sprintf("s%d", i)] = stdioServer("many", "MCPSERVERS_TOOLS", "3",
			"MCPSERVERS_BARRIER", barrier, "MCPSERVERS_BARRIER_N", strconv.Itoa(servers))
	}
	c := newCheckedClient(t, conns, &ClientOptions{PrefixToolNames: true})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	tools, err := c.Tools(ctx)
	if err != nil {
		t.Fatalf("Tools: %v", err)
	}
	if len(tools) != 3*servers {
		t.Fatalf("%d tools, want %d", len(tools), 3*servers)
	}
}

// TestConcurrentToolsStartOneProcess calls Tools from several goroutines at
// once on a fresh client of one slow-starting stdio server: they share one
// connect, so exactly one process is started.
func TestConcurrentToolsStartOneProcess(t *testing.T) {
	c := newCheckedClient(t, map[string]Connection{"docs": stdioServer("docs", "MCPSERVERS_DELAY", "300ms")}, nil)
	const callers = 8
	results := make([][]*Tool, callers)
	errs := make([]error, callers)
	var wg sync.WaitGroup
	for i := range callers {
		wg.Go(func() { results[i], errs[i] = c.Tools(testCtx(t)) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("Tools (caller %d): %v", i, err)
		}
	}
	if kids := childProcesses(); len(kids) != 1 {
		t.Fatalf("child processes %v, want exactly one", kids)
	}
	pid := pidOf(t, byName(results[0])["whoami"])
	for i, tools := range results {
		if got := pidOf(t, byName(tools)["whoami"]); got != pid {
			t.Errorf("caller %d's whoami runs in process %d, want %d", i, got, pid)
		}
	}
	if kids := childProcesses(); len(kids) != 1 || kids[0] != pid {
		t.Errorf("child processes %v, want only %d", kids, pid)
	}
}
