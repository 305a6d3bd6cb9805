package mcpservers

import (
	"net/http"
	"strings"

	"github.com/guardian-agent/guardian-go/internal/redact"
)

// newRedactor is the redactor of a connection: it removes the
// connection's secrets from text that reaches an error, and finds them in a
// tool's definition (withoutEchoes): header values, environment values,
// the URL and its password and query values, and (learnt as requests go,
// learnSentHeaders) the credentials of every HTTP request actually sent,
// what Auth and a call's own headers added. Causes from net/http and mcp-go
// quote URLs, and a server's own error message may echo what it was sent.
// It is the module's one redactor (internal/redact), which asks secrets
// what a credential is.
func newRedactor(cfg *connConfig) *redact.Redactor {
	r := redact.New()
	for k, v := range cfg.headers {
		r.LearnHeader(k, v)
	}
	for k, v := range cfg.env {
		r.LearnEnv(k, v)
	}
	r.LearnURL(cfg.url)
	return r
}

// protocolHeaders are the headers of a request that carry no credential:
// mcp-go and net/http set them, and their values ("application/json",
// "tools/call", a tool's name) would mangle every message if redacted.
var protocolHeaders = map[string]bool{
	"Accept": true, "Accept-Encoding": true, "Cache-Control": true, "Connection": true,
	"Content-Length": true, "Content-Type": true, "Last-Event-Id": true, "User-Agent": true,
	"Mcp-Protocol-Version": true, "Mcp-Method": true, "Mcp-Name": true,
}

// learnSentHeaders has r learn the values of the headers a request is
// sent with, but the protocol's own.
func learnSentHeaders(r *redact.Redactor, h http.Header) {
	for k, vs := range h {
		if protocolHeaders[k] || strings.HasPrefix(k, "Mcp-Param-") {
			continue
		}
		for _, v := range vs {
			r.LearnHeader(k, v)
		}
	}
}
