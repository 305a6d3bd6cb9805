// Command unreadableprog is built by TestRefusesUnreadableSource, which
// deletes this file before running it: its MCP tool's interceptor, auth
// and sampling handler are code whose source cannot be read. It prints
// each refusal's pointer, rule and detail.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/guardian-agent/guardian-go/definition"
	"github.com/guardian-agent/guardian-go/mcpservers"
	"github.com/guardian-agent/guardian-go/refusals"
)

// remote is an MCP tool whose record carries the code below.
type remote struct{}

func (remote) Name() string                 { return "search" }
func (remote) Description() string          { return "" }
func (remote) InputSchema() json.RawMessage { return json.RawMessage(`{"type":"object"}`) }
func (remote) MCPRecord() definition.MCPRecord {
	return definition.MCPRecord{
		Server: definition.Server{Name: "docs", Transport: definition.TransportStreamableHTTP, URL: "https://docs.example/mcp"},
		Code: []definition.Code{
			{Role: definition.RoleInterceptor, Value: mcpservers.InterceptorFunc(audit)},
			{Role: definition.RoleAuth, Value: signer{}},
			{Role: definition.RoleSampling, Value: mcpservers.SamplingHandlerFunc(sample)},
		},
	}
}

func audit(ctx context.Context, req *mcpservers.CallRequest, next mcpservers.CallFunc) (*mcpservers.Result, error) {
	return next(ctx, req)
}

type signer struct{}

func (signer) RoundTrip(req *http.Request, next http.RoundTripper) (*http.Response, error) {
	return next.RoundTrip(req)
}

func sample(ctx context.Context, req *mcpservers.SamplingRequest) (*mcpservers.SamplingResult, error) {
	return nil, nil
}

func main() {
	_, err := definition.Build(&definition.Agent{Name: "a", Tools: []definition.Tool{remote{}}}, nil)
	for _, r := range refusals.All(err) {
		fmt.Printf("%s %s: %s\n", r.Pointer, r.Rule, r.Detail)
	}
}
