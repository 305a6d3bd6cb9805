// Package mw holds MCP tools where only reflection sees them.
package mw

import (
	"encoding/json"

	"github.com/guardian-agent/guardian-go/definition"
)

// Remote is an MCP tool of another client library.
type Remote struct{ ToolName, Server string }

func (r *Remote) Name() string                 { return r.ToolName }
func (r *Remote) Description() string          { return "" }
func (r *Remote) InputSchema() json.RawMessage { return json.RawMessage(`{"type":"object"}`) }
func (r *Remote) MCPRecord() definition.MCPRecord {
	return definition.MCPRecord{Server: definition.Server{Name: r.Server, Transport: definition.TransportStdio, Command: r.Server}}
}

// Gate is middleware that keeps a tool it does not offer.
type Gate struct{ kept definition.MCPTool }

func NewGate(t definition.MCPTool) Gate { return Gate{kept: t} }
func (Gate) Tools() []definition.Tool   { return nil }

// Summarizer is a native tool that keeps an MCP tool.
type Summarizer struct{ src definition.MCPTool }

func NewSummarizer(t definition.MCPTool) Summarizer { return Summarizer{src: t} }
func (Summarizer) Name() string                     { return "summarize" }
func (Summarizer) Description() string              { return "" }
func (Summarizer) InputSchema() json.RawMessage     { return json.RawMessage(`{"type":"object"}`) }
