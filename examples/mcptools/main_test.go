package main

import (
	"context"
	"os"
)

// Example runs the example as `go run ./examples/mcptools` does: a real
// docs server over stdio, built and started by `go run`.
func Example() {
	if err := run(context.Background(), os.Stdout); err != nil {
		panic(err)
	}
	// Output:
	// [{"name":"docs","transport":"stdio","command":"go","args":["run","./docsserver"]}]
	// {"search_docs":"docs"}
	// {
	//   "extensions": {
	//     "guardian": {
	//       "mcpTools": {
	//         "search_docs": "docs"
	//       }
	//     }
	//   },
	//   "formatVersion": 1,
	//   "mcpServers": [
	//     {
	//       "args": [
	//         "run",
	//         "./docsserver"
	//       ],
	//       "command": "go",
	//       "name": "docs",
	//       "transport": "stdio"
	//     }
	//   ],
	//   "name": "researcher",
	//   "systemPrompt": "You research questions using the internal docs.",
	//   "tools": [
	//     {
	//       "annotations": {
	//         "destructiveHint": false,
	//         "idempotentHint": false,
	//         "openWorldHint": true,
	//         "readOnlyHint": true
	//       },
	//       "description": "Search the internal documentation.",
	//       "inputSchema": {
	//         "properties": {
	//           "query": {
	//             "type": "string"
	//           }
	//         },
	//         "required": [
	//           "query"
	//         ],
	//         "type": "object"
	//       },
	//       "name": "search_docs"
	//     }
	//   ]
	// }
	// No pages match "release notes" yet.
}
