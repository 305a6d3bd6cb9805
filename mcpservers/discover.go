package mcpservers

import (
	"encoding/json"
	"errors"
	"slices"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// mcp-go's client takes any successful answer to its server/discover probe
// for a 2026-07-28 server, and never sends initialize. Servers before
// 2026-07-28 that answer every method they do not know with an empty
// result, as the MCP conformance suite's do, then get requests in a
// protocol they do not speak, and the server's identity is lost. A discover
// result says which versions the server supports; one that does not name
// the version asked is no 2026-07-28 answer. The connection's transport
// turns it into an error (checkDiscover), on which mcp-go falls back to the
// initialize handshake as it does for "method not found".

// errNoVersion is what a server/discover answer that names no protocol
// version becomes.
var errNoVersion = errors.New("the server/discover answer names no supported protocol version")

// checkDiscover vets the answer to a server/discover request: nil when it
// names the version asked for. When it names other versions, it is an
// mcp.UnsupportedProtocolVersionError listing them, so that mcp-go
// negotiates one it also speaks or else falls back; when it names none,
// errNoVersion. Other requests and error responses pass.
func checkDiscover(req transport.JSONRPCRequest, resp *transport.JSONRPCResponse) error {
	if req.Method != string(mcp.MethodServerDiscover) || resp == nil || resp.Error != nil {
		return nil
	}
	o, err := decodeObject(resp.Result)
	if err != nil {
		return errNoVersion
	}
	var list []json.RawMessage
	if o.present("supportedVersions") && json.Unmarshal(o["supportedVersions"], &list) != nil {
		return errNoVersion
	}
	var supported []string
	for _, raw := range list {
		var v string
		if json.Unmarshal(raw, &v) == nil && v != "" {
			supported = append(supported, v)
		}
	}
	if len(supported) == 0 {
		return errNoVersion
	}
	if slices.Contains(supported, askedVersion(req.Params)) {
		return nil
	}
	return mcp.UnsupportedProtocolVersionError{Version: askedVersion(req.Params), Supported: supported}
}

// askedVersion is the protocol version a 2026-07-28 request declares in its
// _meta: mcp-go's probe always declares one, the newest unless pinned.
func askedVersion(params any) string {
	var p struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	var v string
	if b, err := json.Marshal(params); err == nil && json.Unmarshal(b, &p) == nil && json.Unmarshal(p.Meta[mcp.MetaKeyProtocolVersion], &v) == nil && v != "" {
		return v
	}
	return mcp.LATEST_PROTOCOL_VERSION
}
