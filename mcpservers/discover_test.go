package mcpservers

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

func TestCheckDiscover(t *testing.T) {
	probe := func(version string) transport.JSONRPCRequest {
		params := map[string]any{"_meta": map[string]any{mcp.MetaKeyProtocolVersion: version}}
		return transport.JSONRPCRequest{Method: string(mcp.MethodServerDiscover), Params: params}
	}
	answer := func(result string) *transport.JSONRPCResponse {
		return &transport.JSONRPCResponse{Result: json.RawMessage(result)}
	}
	tests := []struct {
		name      string
		req       transport.JSONRPCRequest
		resp      *transport.JSONRPCResponse
		wantErr   error
		supported []string // of an UnsupportedProtocolVersionError
	}{
		{"names the version asked", probe("2026-07-28"), answer(`{"supportedVersions":["2026-07-28","2025-11-25"],"capabilities":{}}`), nil, nil},
		{"names it among unknown ones", probe("2026-07-28"), answer(`{"supportedVersions":["2099-01-01","2026-07-28"]}`), nil, nil},
		{"no version asked: the newest", transport.JSONRPCRequest{Method: "server/discover"}, answer(`{"supportedVersions":["2026-07-28"]}`), nil, nil},
		{"empty result", probe("2026-07-28"), answer(`{}`), errNoVersion, nil},
		{"empty list", probe("2026-07-28"), answer(`{"supportedVersions":[]}`), errNoVersion, nil},
		{"null list", probe("2026-07-28"), answer(`{"supportedVersions":null}`), errNoVersion, nil},
		{"list of non-strings", probe("2026-07-28"), answer(`{"supportedVersions":[1,"",null]}`), errNoVersion, nil},
		{"list not an array", probe("2026-07-28"), answer(`{"supportedVersions":"2026-07-28"}`), errNoVersion, nil},
		{"null result", probe("2026-07-28"), answer(`null`), errNoVersion, nil},
		{"no result", probe("2026-07-28"), answer(``), errNoVersion, nil},
		{"result not an object", probe("2026-07-28"), answer(`["2026-07-28"]`), errNoVersion, nil},
		{"keys match exactly", probe("2026-07-28"), answer(`{"SupportedVersions":["2026-07-28"]}`), errNoVersion, nil},
		{"older versions only", probe("2026-07-28"), answer(`{"supportedVersions":["2025-11-25","x"]}`), mcp.UnsupportedProtocolVersionError{}, []string{"2025-11-25", "x"}},
		{"an error response passes", probe("2026-07-28"), &transport.JSONRPCResponse{Error: &mcp.JSONRPCErrorDetails{Code: mcp.METHOD_NOT_FOUND}}, nil, nil},
		{"other methods pass", transport.JSONRPCRequest{Method: "tools/list"}, answer(`{}`), nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := checkDiscover(tt.req, tt.resp)
			var unsupported mcp.UnsupportedProtocolVersionError
			switch {
			case tt.supported != nil:
				if !errors.As(err, &unsupported) || len(unsupported.Supported) != len(tt.supported) || unsupported.Version != "2026-07-28" {
					t.Fatalf("checkDiscover = %v, want an UnsupportedProtocolVersionError for 2026-07-28 listing %q", err, tt.supported)
				}
				for i, v := range tt.supported {
					if unsupported.Supported[i] != v {
						t.Errorf("Supported = %q, want %q", unsupported.Supported, tt.supported)
					}
				}
			case !errors.Is(err, tt.wantErr):
				t.Errorf("checkDiscover = %v, want %v", err, tt.wantErr)
			}
		})
	}
}

// TestDiscoverWithoutVersionFallsBack connects over stdio to pre-2026
// servers that answer server/discover without naming 2026-07-28: each is
// spoken to with the initialize handshake, and its identity is the one
// initialize gave.
func TestDiscoverWithoutVersionFallsBack(t *testing.T) {
	for _, mode := range []string{"raw-empty-discover", "raw-old-discover"} {
		t.Run(mode, func(t *testing.T) {
			tools := loadTools(t, newClient(t, map[string]Connection{"raw": stdioServer(mode)}, nil))
			odd := tools["odd"]
			if odd == nil {
				t.Fatalf("tools = %v, want odd", tools)
			}
			info := odd.Server()
			if info.ProtocolVersion != "2025-06-18" || info.Implementation.Name != "raw" || info.Instructions != "raw server" {
				t.Errorf("Server() = %+v, want what initialize gave", info)
			}
			if r := call(t, odd, nil); r.Text() != "before\nafter" {
				t.Errorf("Call = %q", r.Text())
			}
		})
	}
}

// TestIgnoredDiscoverCostsDiscoverTimeout: a server that never answers
// server/discover is given up on after DiscoverTimeout (one second by
// default), not mcp-go's five; a behavioural bound, kept generous.
func TestIgnoredDiscoverCostsDiscoverTimeout(t *testing.T) {
	c := newCheckedClient(t, map[string]Connection{"raw": stdioServer("raw-ignore-discover")}, nil)
	start := time.Now()
	tools := loadTools(t, c)
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("connecting took %v, want about DiscoverTimeout", took)
	}
	if tools["odd"] == nil {
		t.Errorf("tools = %v", tools)
	}
}
