package definition

// The tool-to-server map: each MCP tool names the server it calls
// (extensions.guardian.mcpTools), and the servers in use are gathered by
// name, two different servers of one name marked so that servers refuses
// them.

// useServer records that MCP tool p calls its server: in mcpTools, by the
// tool's name, and among the servers in use.
func useServer(mcpTools map[string]string, servers map[string]*serverUse, p *pending) {
	s := p.record.Server
	mcpTools[p.name] = s.Name
	if u, ok := servers[s.Name]; ok {
		if !sameServer(u.server, s) {
			u.differs = true
		}
		return
	}
	servers[s.Name] = &serverUse{server: s}
}
