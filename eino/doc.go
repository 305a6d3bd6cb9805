// Package eino makes guardian-go part of constructing and running a
// CloudWeGo Eino agent (github.com/cloudwego/eino, v0.7.36): MCP tools as
// Eino tools, an agent constructor that records the agent's definition,
// a tool-call middleware that vets every call against it before anything
// is sent, the description of a compose graph, and MCP elicitation and
// human approval as Eino interrupts.
//
//   - NewTool and NewTools adapt *mcpservers.Tool values to
//     tool.InvokableTool: Info is the tool as its server sent it (its input
//     schema marshals to the same JSON value), InvokableRun calls it through
//     Tool.Call. A server-reported error is the model's to read; a transport
//     failure is a Go error. Tool.Enhanced gives the same tool as a
//     tool.EnhancedInvokableTool whose images, audio and files reach the
//     model as parts.
//   - NewChatModelAgent takes adk.ChatModelAgentConfig (in AgentConfig),
//     records the agent (name, description, instruction as the system
//     prompt, tools with their servers, sub-agents and agent tools) with
//     definition.Build, and only then makes the Eino agent, or refuses and
//     makes nothing.
//   - Graph and CompileGraph do the same for a compose graph.
//   - ElicitationInterrupt, ApprovalInterrupt: the run pauses, is
//     checkpointed by adk.Runner's CheckPointStore, and resumes with
//     ElicitationAnswers or an ApprovalDecision.
//
// It is a module of its own, github.com/guardian-agent/guardian-go/eino, so
// that the core module keeps its three dependencies. Eino v0.7.36 pins
// github.com/bytedance/sonic v1.14.1, which does not compile on Go 1.26;
// this module requires v1.15.5, which does.
//
// Eino v0.7 and later: this package uses only v0.7.36's API, the newest
// the module proxy serves here. Eino v0.8 added ChatModelAgentConfig.Handlers
// (the ChatModelAgentMiddleware interface, with WrapInvokableToolCall) beside
// the v0.7 AgentMiddleware struct this package records; v0.9 keeps
// SetSubAgents (transfer) but no longer recommends it, in favour of agent
// tools (adk.NewAgentTool, AgentConfig.AgentTools here), and adds generic
// Typed* forms for *schema.AgenticMessage. The tool-call middleware this
// package installs is a compose.ToolMiddleware in ToolsConfig, and its tools
// are tool.InvokableTool values. docs/eino.md says what a v0.9 user does.
package eino
