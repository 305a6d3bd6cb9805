package mcpservers

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// The test server "echo-fields" (runEchoFields) and the tests of issue 14's
// leaks 2 and 5 against it: a credential inside a value under a plain name,
// a short one, an encoded copy.

// Variables of the echo-fields server.
const (
	echoVarEnv   = "MCPSERVERS_ECHO_VAR"   // the variable whose value is echoed
	echoFieldEnv = "MCPSERVERS_ECHO_FIELD" // where: title, description, default, examples, or error
	echoFormEnv  = "MCPSERVERS_ECHO_FORM"  // what: whole (default), or of a URL's userinfo decoded: pw-only, userinfo, basic, query
)

// runEchoFields serves, over stdio with mcp-go, a tool "fine" and a tool
// "leaky" whose title, description, schema default or examples holds the
// value of the variable $MCPSERVERS_ECHO_VAR it was given, as a careless
// server quotes its configuration; with field "error", it answers
// tools/list with a JSON-RPC error quoting it, as a server failing to log
// in does.
func runEchoFields() int {
	v := os.Getenv(os.Getenv(echoVarEnv))
	if form := os.Getenv(echoFormEnv); form != "" {
		// A URL's userinfo as the server's URL parser gives it:
		// percent-decoded.
		u, err := url.Parse(v)
		if err != nil || u.User == nil {
			return 2
		}
		user := u.User.Username()
		pw, _ := u.User.Password()
		switch form {
		case "pw-only":
			v = pw
		case "userinfo":
			v = user + ":" + pw
		case "basic":
			v = "Basic " + base64.StdEncoding.EncodeToString([]byte(user+":"+pw))
		case "query":
			v = "?password=" + url.QueryEscape(pw)
		default:
			return 2
		}
	}
	s := server.NewMCPServer("echo", "1.0.0", server.WithToolCapabilities(false))
	noop := func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("ok"), nil
	}
	s.AddTool(mcp.NewTool("fine", mcp.WithDescription("says nothing of its configuration")), noop)
	leaky := mcp.NewTool("leaky", mcp.WithDescription("queries the database"))
	switch f := os.Getenv(echoFieldEnv); f {
	case "title":
		leaky.Title = "DB " + v
	case "description":
		leaky.Description = "Queries the database at " + v + "."
	case "default", "examples":
		prop := map[string]any{"type": "string"}
		if f == "default" {
			prop["default"] = v
		} else {
			prop["examples"] = []string{v}
		}
		schema, _ := json.Marshal(map[string]any{"type": "object", "properties": map[string]any{"dsn": prop}})
		leaky = mcp.NewToolWithRawSchema("leaky", "queries the database", schema)
	case "error":
		return rawListError("password authentication failed for user app with " + v)
	case "call-error":
		s.AddTool(leaky, func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return nil, errors.New("login failed with " + v)
		})
		if err := server.ServeStdio(s); err != nil {
			return 1
		}
		return 0
	default:
		return 2
	}
	s.AddTool(leaky, noop)
	if err := server.ServeStdio(s); err != nil {
		return 1
	}
	return 0
}

// rawListError serves JSON-RPC over stdio by hand: initialize as a
// 2025-06-18 server, tools/list with an error whose message is msg, any
// other request with "method not found".
func rawListError(msg string) int {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(nil, 1<<20)
	enc := json.NewEncoder(os.Stdout)
	for in.Scan() {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(in.Bytes(), &req) != nil || req.ID == nil {
			continue // a notification
		}
		answer := map[string]any{"jsonrpc": "2.0", "id": req.ID}
		switch req.Method {
		case "initialize":
			answer["result"] = json.RawMessage(`{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"raw","version":"1"}}`)
		case "tools/list":
			answer["error"] = map[string]any{"code": -32000, "message": msg}
		default:
			answer["error"] = map[string]any{"code": -32601, "message": "Method not found"}
		}
		if enc.Encode(answer) != nil {
			return 1
		}
	}
	return 0
}

// TestEchoedCredentialUnderAPlainName: a stdio server given a credential
// inside a value under a plain name (a DSN's password, a connection
// string's, MY_PW's, a token inside Notion-style JSON headers) and echoing
// the value into a tool's title, description, schema default or examples:
// the tool is left out with an ErrEchoedCredential error, never recorded
// (issue 14, leak 2). Before, only a credential-like name or a
// random-looking value made a value a credential.
func TestEchoedCredentialUnderAPlainName(t *testing.T) {
	pw := "Q7" + fakeSecret(t, "")[:8]
	tok := fakeSecret(t, "tok")
	for _, v := range []struct{ name, value, secret string }{
		{"DB_URL", "mysql://root:" + pw + "@db/app", pw},
		{"DATABASE_URL", "postgres://app:" + pw + "@db.internal:5432/app", pw},
		{"MONGODB_URI", "mongodb+srv://svc:" + pw + "@cluster0.example.net/app?retryWrites=true", pw},
		{"CONNECTION_STRING", "Server=db;Database=app;User Id=sa;Password=" + pw + ";", pw},
		{"MY_PW", pw, pw},
		{"OPENAPI_MCP_HEADERS", `{"Authorization": "Bearer ` + tok + `"}`, tok},
	} {
		for _, field := range []string{"title", "description", "default", "examples"} {
			t.Run(v.name+"/"+field, func(t *testing.T) {
				conns := map[string]Connection{"local": stdioServer("echo-fields", echoVarEnv, v.name, echoFieldEnv, field, v.name, v.value)}
				checkEchoed(t, conns, "local", "fine", v.secret)
			})
		}
	}
}

// TestEchoedHeaderCredentialUnderAPlainName: over loopback streamable
// HTTP, a header whose name says nothing (X-Upstream) holding a DSN, and a
// tool whose description quotes the header the server received: left out.
func TestEchoedHeaderCredentialUnderAPlainName(t *testing.T) {
	pw := "Q7" + fakeSecret(t, "")[:8]
	s := inProcessDocs(t, server.WithToolFilter(func(ctx context.Context, tools []mcp.Tool) []mcp.Tool {
		if h, _ := ctx.Value(authKey{}).(string); h != "" {
			tools = append(tools, mcp.NewTool("leaky", mcp.WithDescription("upstream "+h)))
		}
		return tools
	}))
	ts := httptest.NewServer(server.NewStreamableHTTPServer(s, server.WithHTTPContextFunc(func(ctx context.Context, r *http.Request) context.Context {
		return context.WithValue(ctx, authKey{}, r.Header.Get("X-Upstream"))
	})))
	t.Cleanup(ts.Close)
	conn := StreamableHTTP{URL: ts.URL + "/mcp", Headers: map[string]string{"X-Upstream": "postgres://app:" + pw + "@db/app"}}
	checkEchoed(t, map[string]Connection{"api": conn}, "api", "search_docs", pw)
}

// TestEncodedEchoIsLeftOut: over loopback streamable HTTP, a tool whose
// description holds "Authorization: Basic <base64 of user:key>" for the
// X-Api-Key header the server received, or the key with every byte
// percent-encoded: each is a copy of the key, and the tool is left out
// (issue 14, leak 5). Before, only the forms Go's escapers write were
// known.
func TestEncodedEchoIsLeftOut(t *testing.T) {
	for name, form := range map[string]func(string) string{
		"basic": func(k string) string {
			return "Authorization: Basic " + base64.StdEncoding.EncodeToString([]byte("svc:"+k))
		},
		"base64":  func(k string) string { return "key " + base64.RawURLEncoding.EncodeToString([]byte(k)) },
		"percent": func(k string) string { return "https://api.example/?key=" + percentEveryByte(k) },
	} {
		t.Run(name, func(t *testing.T) {
			key := fakeSecret(t, "key")
			if strings.Contains(form(key), key[:12]) {
				t.Fatal("the form holds the key as it is: the test proves nothing")
			}
			s := inProcessDocs(t, server.WithToolFilter(func(ctx context.Context, tools []mcp.Tool) []mcp.Tool {
				if h, _ := ctx.Value(authKey{}).(string); h != "" {
					tools = append(tools, mcp.NewTool("leaky", mcp.WithDescription("call with "+form(h))))
				}
				return tools
			}))
			ts := httptest.NewServer(server.NewStreamableHTTPServer(s, server.WithHTTPContextFunc(func(ctx context.Context, r *http.Request) context.Context {
				return context.WithValue(ctx, authKey{}, r.Header.Get("X-Api-Key"))
			})))
			t.Cleanup(ts.Close)
			conn := StreamableHTTP{URL: ts.URL + "/mcp", Headers: map[string]string{"X-Api-Key": key}}
			checkEchoed(t, map[string]Connection{"api": conn}, "api", "search_docs", key)
		})
	}
}

func percentEveryByte(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		fmt.Fprintf(&b, "%%%02X", s[i])
	}
	return b.String()
}

// TestShortPasswordInServerError: a stdio server given a DSN whose
// password is short (10 bytes, and 5) answers tools/list with an error
// quoting the password alone: the error holds it nowhere, its message
// comes through redacted (issue 14, leak 5). Before, a value was found
// whole or in 12-byte runs of 16 bytes or more, so the password of a
// DSN was found only with the DSN around it.
func TestShortPasswordInServerError(t *testing.T) {
	for _, pw := range []string{"Q7" + fakeSecret(t, "")[:8], "Q7" + fakeSecret(t, "")[:3]} {
		t.Run(fmt.Sprint(len(pw)), func(t *testing.T) {
			conns := map[string]Connection{"db": stdioServer("echo-fields", echoVarEnv, "DATABASE_URL", echoFieldEnv, "error", echoFormEnv, "pw-only",
				"DATABASE_URL", "postgres://app:"+pw+"@db/app")}
			_, err := newCheckedClient(t, conns, nil).Tools(testCtx(t))
			if err == nil {
				t.Fatal("no error")
			}
			noSecret(t, err.Error(), pw)
			if !strings.Contains(err.Error(), "password authentication failed for user app with [redacted]") {
				t.Errorf("the server's message did not come through, redacted: %s", strings.ReplaceAll(err.Error(), pw, "<PW>"))
			}
		})
	}
}

// TestDecodedEchoOverStdio: a stdio server given, under a plain name, a
// URL whose password holds characters a userinfo escapes (so the URL
// writes it percent-encoded), and quoting it as its URL parser decodes it:
// the password alone, the user:password pair, the Basic header built from
// the pair, or the password query-encoded again. In a tool's description
// the tool is left out (ErrEchoedCredential); in a call's error the text
// comes through redacted (issue 19). Before, only the password as the
// URL wrote it was known.
func TestDecodedEchoOverStdio(t *testing.T) {
	pw := fakeSecret(t, "")[:6] + "/@:%+" + fakeSecret(t, "")[:4]
	dsn := "rediss://svc:" + url.PathEscape(pw) + "@cache.internal:6380/0"
	if strings.Contains(dsn, pw) {
		t.Fatal("the URL holds the password as it is: the test proves nothing")
	}
	forms := map[string]string{
		"pw-only":  pw,
		"userinfo": "svc:" + pw,
		"basic":    base64.StdEncoding.EncodeToString([]byte("svc:" + pw)),
		"query":    url.QueryEscape(pw),
	}
	for form, quoted := range forms {
		t.Run(form+"/description", func(t *testing.T) {
			conns := map[string]Connection{"cache": stdioServer("echo-fields", echoVarEnv, "CACHE_URL", echoFieldEnv, "description",
				echoFormEnv, form, "CACHE_URL", dsn)}
			checkEchoed(t, conns, "cache", "fine", quoted)
		})
		t.Run(form+"/call-error", func(t *testing.T) {
			conns := map[string]Connection{"cache": stdioServer("echo-fields", echoVarEnv, "CACHE_URL", echoFieldEnv, "call-error",
				echoFormEnv, form, "CACHE_URL", dsn)}
			tools, err := newCheckedClient(t, conns, nil).Tools(testCtx(t))
			if err != nil {
				t.Fatal(err)
			}
			_, err = byName(tools)["leaky"].Call(testCtx(t), nil)
			if err == nil {
				t.Fatal("the call did not fail")
			}
			noSecret(t, err.Error(), pw, quoted)
			var rpc *RPCError
			if errors.As(err, &rpc) {
				noSecret(t, string(rpc.Data), pw, quoted)
			}
			if !strings.Contains(err.Error(), "login failed with ") || !strings.Contains(err.Error(), "[redacted]") {
				t.Errorf("the server's message did not come through, redacted") // it may hold the secret
			}
		})
	}
}
