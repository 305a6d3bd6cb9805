package mcpservers

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/guardian-agent/guardian-go/internal/weborigin"
	"github.com/guardian-agent/guardian-go/refusals"
)

// The parsers read what servers send, which may be anything; the fuzz
// targets check they never panic and keep their promises.

func FuzzParseCallResult(f *testing.F) {
	for _, s := range []string{
		`{"content":[{"type":"text","text":"a"},{"type":"hologram"},{"type":"image","data":1}],"structuredContent":{"n":1},"isError":true}`,
		`{"content":[{"type":"resource","resource":{"uri":"file:///x","blob":"AA=="}},{"type":"resource_link","uri":"u","name":"n","size":12}]}`,
		`{"resultType":"input_required","inputRequests":{"k":{"method":"elicitation/create","params":{"message":"m"}}},"requestState":"s"}`,
		`{"content":null}`, `[]`, `{"content":[null,5,"x",{}]}`, `{"isError":"yes"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		cr, err := parseCallResult(data)
		if err != nil {
			return
		}
		if cr.inputRequired {
			return
		}
		for i, c := range cr.result.Content {
			if c == nil {
				t.Fatalf("block %d is nil", i)
			}
			b, err := encodeContent(c)
			if err != nil {
				t.Fatalf("block %d (%T) cannot be encoded again: %v", i, c, err)
			}
			if !json.Valid(b) {
				t.Fatalf("block %d encodes as invalid JSON %q", i, b)
			}
		}
		if sc := cr.result.StructuredContent; sc != nil && !json.Valid(sc) {
			t.Fatalf("structured content %q is not JSON", sc)
		}
	})
}

func FuzzParseTool(f *testing.F) {
	f.Add([]byte(`{"name":"t","inputSchema":{"type":"object","anyOf":[]},"annotations":{"readOnlyHint":true,"title":"x"},"_meta":{}}`))
	f.Add([]byte(`{"name":"","inputSchema":{}}`))
	f.Add([]byte(`{"name":"t","inputSchema":[]}`))
	f.Add([]byte(`{"name":"t","inputSchema":{},"annotations":{"readOnlyHint":"yes"}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		wt, err := parseTool(data)
		if err != nil {
			return
		}
		if wt.name == "" {
			t.Fatal("a tool with no name was accepted")
		}
		if !json.Valid(wt.input) || wt.input[0] != '{' {
			t.Fatalf("input schema %q is not an object", wt.input)
		}
		if !bytes.Equal(wt.raw, bytes.TrimSpace(data)) {
			t.Fatalf("raw %q is not what was sent", wt.raw)
		}
	})
}

func FuzzParseListPage(f *testing.F) {
	f.Add([]byte(`{"tools":[{"name":"a","inputSchema":{}}],"nextCursor":"c","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"s"}}}`))
	f.Add([]byte(`{"tools":{},"nextCursor":1}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := parseListPage(data)
		if err != nil {
			return
		}
		for _, raw := range p.tools {
			_, _ = parseTool(raw)
		}
		if p.meta != nil {
			_ = serverInfoFromMeta(p.meta)
		}
	})
}

// FuzzCheckDiscover: whatever a server answers server/discover with, the
// check never panics, and accepts the answer only if it lists the version
// asked for among its supportedVersions.
func FuzzCheckDiscover(f *testing.F) {
	f.Add([]byte(`{"supportedVersions":["2026-07-28","2025-11-25"],"capabilities":{}}`), "2026-07-28")
	f.Add([]byte(`{}`), "2026-07-28")
	f.Add([]byte(`{"supportedVersions":[1,null,""]}`), "")
	f.Add([]byte(`null`), "2026-07-28")
	f.Fuzz(func(t *testing.T, result []byte, asked string) {
		// The version asked goes out as JSON, which carries invalid UTF-8
		// as U+FFFD: compare with what the server was asked.
		asked = strings.ToValidUTF8(asked, "\uFFFD")
		req := transport.JSONRPCRequest{Method: string(mcp.MethodServerDiscover), Params: map[string]any{"_meta": map[string]any{mcp.MetaKeyProtocolVersion: asked}}}
		err := checkDiscover(req, &transport.JSONRPCResponse{Result: result})
		if err != nil {
			var unsupported mcp.UnsupportedProtocolVersionError
			if !errors.Is(err, errNoVersion) && (!errors.As(err, &unsupported) || len(unsupported.Supported) == 0) {
				t.Fatalf("checkDiscover(%q) = %v, want errNoVersion or the versions listed", result, err)
			}
			return
		}
		var r map[string]json.RawMessage // keys match exactly
		var list []json.RawMessage
		if json.Unmarshal(result, &r) != nil || json.Unmarshal(r["supportedVersions"], &list) != nil {
			t.Fatalf("checkDiscover accepted %q, which has no supportedVersions list", result)
		}
		want := asked
		if want == "" {
			want = mcp.LATEST_PROTOCOL_VERSION
		}
		if !slices.ContainsFunc(list, func(v json.RawMessage) bool {
			var s string
			return json.Unmarshal(v, &s) == nil && s == want
		}) {
			t.Fatalf("checkDiscover accepted %q, which does not list %q", result, want)
		}
	})
}

func FuzzServerRequests(f *testing.F) {
	f.Add([]byte(`{"mode":"form","message":"m","requestedSchema":{"type":"object"}}`))
	f.Add([]byte(`{"messages":[{"role":"user","content":[{"type":"text","text":"x"}]}],"maxTokens":5,"temperature":0.5,"stopSequences":["a"]}`))
	f.Add([]byte(`{"messages":[{"role":"user","content":{"type":"image","data":"AA==","mimeType":"image/png"}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if er, err := parseElicitation(data); err == nil {
			if er.Mode == "" {
				t.Fatal("no mode")
			}
			if er.RequestedSchema != nil && !json.Valid(er.RequestedSchema) {
				t.Fatal("schema is not JSON")
			}
		}
		if sr, err := parseSampling(data); err == nil {
			for _, m := range sr.Messages {
				for _, c := range m.Content {
					if c == nil {
						t.Fatal("nil content")
					}
				}
			}
			if len(sr.Messages) > 0 && len(sr.Messages[0].Content) > 0 {
				if _, err := encodeSampling(&SamplingResult{Content: sr.Messages[0].Content}); err != nil {
					t.Fatalf("content read from a server cannot be sent back: %v", err)
				}
			}
		}
	})
}

func FuzzPrefixedName(f *testing.F) {
	f.Add("docs", "search")
	f.Add("", "")
	f.Add("a/b c", strings.Repeat("é", 40))
	valid := regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)
	f.Fuzz(func(t *testing.T, server, tool string) {
		got := prefixedName(server, tool)
		if !valid.MatchString(got) {
			t.Fatalf("prefixedName(%q, %q) = %q", server, tool, got)
		}
		if again := prefixedName(server, tool); again != got {
			t.Fatalf("not deterministic: %q, %q", got, again)
		}
	})
}

func FuzzValidateNeverQuotes(f *testing.F) {
	f.Add("http://", "/mcp", "v", "Bearer ", "TOKEN=")
	f.Add("ftp://h/", "", "a\r\nb", "", "")
	f.Add("http://[", ":x", "", "X:", "\x00")
	const marker = "SEKRET-VALUE-9f2c"
	f.Fuzz(func(t *testing.T, prefix, suffix, header, headerKey, envKey string) {
		conns := map[string]Connection{
			// The keys hold the marker too: a malformed one (the marker
			// has '-', which is valid, so the fuzzer must break it) may
			// be a pasted credential.
			"http": StreamableHTTP{URL: prefix + marker + suffix, Headers: map[string]string{
				"X-K": header + marker + "\n", headerKey + marker + "\n": "v", headerKey + marker: "v",
			}},
			"ws": WebSocket{URL: prefix + marker + suffix, Headers: map[string]string{headerKey + marker + " ": "v"}},
			"stdio": Stdio{Command: prefix + marker, Args: []string{marker + "\x00"}, Dir: suffix + marker, Env: map[string]string{
				"K": marker + "\x00", envKey + marker + "=": "v", envKey + marker: "v",
			}},
		}
		_, err := NewClient(conns, nil)
		if err == nil {
			t.Fatal("the header with a newline was accepted")
		}
		if strings.Contains(err.Error(), marker) {
			t.Fatalf("a refusal quotes a value: %v", err)
		}
		for _, r := range refusals.All(err) {
			if !slices.Contains([]string{"http", "ws", "stdio"}, r.Subject) {
				t.Fatalf("refusal names %q", r.Subject)
			}
		}
	})
}

func FuzzSSETap(f *testing.F) {
	f.Add([]byte("event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n\n"), uint8(5))
	f.Add([]byte("data: {\"id\":\"a\",\n data: \"method\":\"x\"}\r\n\r\nevent: endpoint\ndata: /m\n\n"), uint8(1))
	f.Fuzz(func(t *testing.T, stream []byte, chunk uint8) {
		whole, wholeEnds := tapAll(stream, len(stream)+1)
		split, splitEnds := tapAll(stream, int(chunk)+1)
		if len(whole) != len(split) {
			t.Fatalf("fed whole: %d requests; in chunks of %d: %d", len(whole), int(chunk)+1, len(split))
		}
		for i := range whole {
			if !bytes.Equal(whole[i], split[i]) || !isRequest(whole[i]) {
				t.Fatalf("request %d: %q vs %q", i, whole[i], split[i])
			}
		}
		if !slices.Equal(wholeEnds, splitEnds) {
			t.Fatalf("endpoints fed whole %q, in chunks of %d %q", wholeEnds, int(chunk)+1, splitEnds)
		}
	})
}

func tapAll(stream []byte, chunk int) ([][]byte, []string) {
	var got [][]byte
	var endpoints []string
	tap := &sseTap{onRequest: func(b []byte) { got = append(got, b) }, onEndpoint: func(s string) { endpoints = append(endpoints, s) }}
	for len(stream) > 0 {
		n := min(chunk, len(stream))
		tap.feed(stream[:n])
		stream = stream[n:]
	}
	return got, endpoints
}

// FuzzOrigin resolves a Location or endpoint against a connection's URL:
// the policy never panics, calls the connection's own origin its own, never
// calls a URL of another scheme, host or port its own, and its refusal
// names at most the origin, printable, never a userinfo, path or query.
func FuzzOrigin(f *testing.F) {
	f.Add("https://mcp.example/mcp", "http://mcp.example/mcp")
	f.Add("http://127.0.0.1:8080/mcp", "//localhost:8080/x?token=abcdef")
	f.Add("http://h/mcp", "/mcp/")
	f.Add("HTTP://H:80/", "http://h/")
	f.Add("http://[::1]:1/", "ftp://user:secretpw@[::1]:1/")
	f.Add("https://h/", "https://h:443/a#frag")
	f.Fuzz(func(t *testing.T, base, loc string) {
		b, err := url.Parse(base)
		if err != nil {
			return
		}
		home, ok := weborigin.Of(b)
		if !ok {
			if home.Same(b) {
				t.Fatalf("a URL of a non-HTTP scheme, %q, is an origin", base)
			}
			return
		}
		if !home.Same(b) {
			t.Fatalf("%q is not on its own origin", base)
		}
		u, err := b.Parse(loc)
		if err != nil {
			return
		}
		same := home.Same(u)
		if same && (!strings.EqualFold(u.Scheme, b.Scheme) || !strings.EqualFold(u.Hostname(), b.Hostname())) {
			t.Fatalf("%q is taken for the origin of %q", u, base)
		}
		if same && u.Port() != b.Port() && u.Port() != "" && b.Port() != "" {
			t.Fatalf("%q is taken for the origin of %q: another port", u, base)
		}
		msg := elsewhere(307, "redirected to", u).Error()
		if p := weborigin.Printable(u); p != "" {
			for i := 0; i < len(p); i++ {
				if p[i] <= ' ' || p[i] >= 0x7f {
					t.Fatalf("origin %q is not printable", p)
				}
			}
		}
		// The refusal says nothing the bare origin does not: a URL with
		// userinfo, a path, a query or a fragment is refused in the words
		// of its scheme and host alone. (Looking for each part in the text
		// took a fragment "ttp:" for quoted, from "http://".)
		bare := &url.URL{Scheme: u.Scheme, Host: u.Host}
		if want := elsewhere(307, "redirected to", bare).Error(); msg != want {
			t.Fatalf("the refusal of %q is %q, of its bare origin %q", loc, msg, want)
		}
	})
}
