package main

import (
	"context"
	"fmt"
	"io"
	"os"
)

// The examples run the commands as main would, from cmd/guardian, showing
// stdout and, where it says something worth seeing, stderr.

func Example_record() {
	// The document goes to stdout; the summary line to stderr.
	code := run(context.Background(), []string{"record", "../../testdata/configs/docs.json", "--name", "researcher"}, os.Stdout, io.Discard)
	fmt.Println("exit", code)
	// Output:
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
	//         "./examples/mcptools/docsserver"
	//       ],
	//       "command": "go",
	//       "name": "docs",
	//       "transport": "stdio"
	//     }
	//   ],
	//   "name": "researcher",
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
	// exit 0
}

func Example_check() {
	code := run(context.Background(), []string{"check", "../../testdata/configs/docs.json", "--golden", "testdata/examples/docs-v2.json"}, os.Stdout, os.Stdout)
	fmt.Println("exit", code)
	// Output:
	// tool "search_docs": description changed: "Search the internal documentation and the web." → "Search the internal documentation."
	// tool "search_docs": DESTRUCTIVE HINT FLIPPED: true → false
	// tool "search_docs": annotations changed: readOnlyHint false → true
	// guardian check: ../../testdata/configs/docs.json drifted from testdata/examples/docs-v2.json: 3 changes (run with --update to accept them)
	// exit 1
}

func Example_diff() {
	code := run(context.Background(), []string{"diff", "../../testdata/configs/docs.golden.json", "testdata/examples/docs-v2.json"}, os.Stdout, os.Stdout)
	fmt.Println("exit", code)
	// Output:
	// tool "search_docs": description changed: "Search the internal documentation." → "Search the internal documentation and the web."
	// tool "search_docs": DESTRUCTIVE HINT FLIPPED: false → true
	// tool "search_docs": annotations changed: readOnlyHint true → false
	// guardian diff: 3 changes
	// exit 1
}

func Example_validate() {
	code := run(context.Background(), []string{"validate", "testdata/examples/docs-v2.json"}, os.Stdout, os.Stdout)
	fmt.Println("exit", code)
	// Output:
	// guardian validate: testdata/examples/docs-v2.json: valid definition of agent "docs": 1 tool from 1 server, blake3:9b89f39ac3d88415787137eaa4a3b28cab596800d9cd1b0f285b85f01c2b1933
	// exit 0
}

func Example_scan() {
	code := run(context.Background(), []string{"scan", "../../testdata/configs/docs.json", "../../testdata/configs/vscode.json"}, os.Stdout, os.Stdout)
	fmt.Println("exit", code)
	// Output:
	// guardian scan: ../../testdata/configs/docs.json: 1 server, no credentials found
	// guardian scan: ../../testdata/configs/vscode.json: 3 servers, no credentials found
	// exit 0
}
