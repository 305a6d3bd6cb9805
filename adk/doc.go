// Package adk makes guardian-go part of constructing and running an agent
// of Google's Agent Development Kit for Go (google.golang.org/adk/v2,
// v2.2.0): MCP tools as ADK tools, a constructor that records the agent's
// definition before it makes the agent, a check of every tool call against
// it before anything is sent, and MCP elicitation and human approval as
// ADK tool confirmations.
//
//   - NewTool and NewTools adapt *mcpservers.Tool values to ADK tools
//     whose declaration carries the server's input schema exactly as sent
//     (ParametersJsonSchema), and whose Run calls the tool through
//     mcpservers.Tool.Call. A server-reported error is the model's to
//     read; a transport failure is a Go error.
//   - New takes an LLMAgent (llmagent.Config, with sub-agents and an
//     optional Approval), a workflow agent (SequentialAgent, ParallelAgent,
//     LoopAgent) or a graph workflow (WorkflowAgent), records the tree with
//     definition.Build, and only then makes the ADK agents, or refuses and
//     makes nothing. NewAgentTool records an agent called as a tool
//     (agenttool).
//   - Each tool the agent is given is wrapped so that its calls are vetted
//     against the definition and run with it bound to their context
//     (definition.Bind), and a BeforeToolCallback vets any other tool ADK
//     is about to run; a refused call ends the run, and its server sees
//     nothing.
//   - Approval and elicitation pause the run with ADK's tool confirmation
//     (adk_request_confirmation); Pending reads them from an event, and
//     Confirmation's methods answer them.
//
// It is a module of its own, github.com/guardian-agent/guardian-go/adk, so
// that ADK's large module graph (Google Cloud, gRPC, OpenTelemetry) never
// reaches the core's go.mod. ADK v2.2.0 needs Go 1.26.5.
//
// ADK's v1 line (google.golang.org/adk, v0.x and v1.x) and v2
// (google.golang.org/adk/v2) are different modules whose types Go keeps
// apart: an ADK v1 tool.Tool or llmagent.Config is not v2's. This package
// serves v2 only: v2.2.0 is the version the module proxy serves here, it
// is the line ADK develops (v2 merged the tool and callback contexts into
// agent.Context, and added workflow graphs and task agents), and v1's
// model package (google.golang.org/adk/model) is already known to
// definition.Build as a chat-model package. docs/adk.md says what a v1
// user does.
package adk
