// Command toolserver is the MCP server the guardian command's end-to-end
// tests record: it serves, over stdio or streamable HTTP, the tools listed
// in a JSON file, exactly as written there, so that a test can change a
// tool's description, schema, annotations or name between two runs.
//
//	toolserver -tools tools.json                serve over stdio
//	toolserver -tools tools.json -http ADDR     serve streamable HTTP on ADDR, print the URL
//	toolserver -tools tools.json -sse ADDR      serve the legacy SSE transport on ADDR, print the URL
//	toolserver -fail 3 -say TEXT                write TEXT ($VARS expanded) to stderr, exit 3
//	toolserver -hang -pidfile F                 write the PID to F, then never answer
//	toolserver -hang -stubborn                  never answer, and ignore stdin EOF and SIGTERM
//	toolserver -tools tools.json -stubborn      serve, then outlive stdin EOF, ignoring SIGTERM
//
// Without -tools, it reads the file named by $TOOLSERVER_TOOLS, if set. With
// -http or -sse and AUTH_WANT set in its environment, it answers 401 to any
// request whose Authorization header is not exactly AUTH_WANT.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// spec is one tool as the tools file gives it.
type spec struct {
	Name         string             `json:"name"`
	Title        string             `json:"title"`
	Description  string             `json:"description"`
	InputSchema  json.RawMessage    `json:"inputSchema"`
	OutputSchema json.RawMessage    `json:"outputSchema"`
	Annotations  mcp.ToolAnnotation `json:"annotations"`
}

func main() {
	tools := flag.String("tools", "", "the JSON file of tools to serve")
	httpAddr := flag.String("http", "", "serve streamable HTTP on this address instead of stdio")
	sseAddr := flag.String("sse", "", "serve SSE on this address instead of stdio")
	fail := flag.Int("fail", 0, "exit at once with this status")
	say := flag.String("say", "", "write this to stderr first, $VARS expanded from the environment")
	hang := flag.Bool("hang", false, "read stdin and never answer; exit when stdin closes")
	stubborn := flag.Bool("stubborn", false, "ignore a closed stdin, SIGINT and SIGTERM: only SIGKILL stops it")
	pidfile := flag.String("pidfile", "", "write the process ID to this file")
	flag.Parse()

	if *pidfile != "" {
		if err := os.WriteFile(*pidfile, []byte(strconv.Itoa(os.Getpid())), 0o600); err != nil {
			fatal(err)
		}
	}
	if *say != "" {
		fmt.Fprintln(os.Stderr, os.ExpandEnv(*say))
	}
	if *fail != 0 {
		os.Exit(*fail)
	}
	if *stubborn {
		// Only SIGKILL stops it: the client must escalate. (Ctrl-C in a
		// terminal reaches the whole foreground process group: a server
		// that died of it would prove nothing about how the client stops
		// it.)
		signal.Ignore(syscall.SIGINT, syscall.SIGTERM)
	}
	if *hang {
		signal.Ignore(syscall.SIGINT)
		if *stubborn {
			sleepForever()
		}
		buf := make([]byte, 4096)
		for {
			if _, err := os.Stdin.Read(buf); err != nil {
				os.Exit(0) // stdin closed, as a well-behaved server exits
			}
		}
	}

	s := server.NewMCPServer("toolserver", "1.0.0", server.WithToolCapabilities(false))
	if *tools == "" {
		*tools = os.Getenv("TOOLSERVER_TOOLS")
	}
	if *tools != "" {
		data, err := os.ReadFile(*tools)
		if err != nil {
			fatal(err)
		}
		var specs []spec
		if err := json.Unmarshal(data, &specs); err != nil {
			fatal(err)
		}
		for _, sp := range specs {
			t := mcp.Tool{
				Name:            sp.Name,
				Title:           sp.Title,
				Description:     sp.Description,
				RawInputSchema:  sp.InputSchema,
				RawOutputSchema: sp.OutputSchema,
				Annotations:     sp.Annotations,
			}
			if t.RawInputSchema == nil {
				t.RawInputSchema = json.RawMessage(`{"type":"object"}`)
			}
			s.AddTool(t, answer)
		}
	}

	addr, path := *httpAddr, "/mcp"
	if *sseAddr != "" {
		addr, path = *sseAddr, "/sse"
	}
	if addr == "" {
		err := server.ServeStdio(s)
		if *stubborn {
			sleepForever() // outlive the closed stdin
		}
		if err != nil {
			fatal(err)
		}
		return
	}
	l, err := net.Listen("tcp", addr)
	if err != nil {
		fatal(err)
	}
	base := "http://" + l.Addr().String()
	var h http.Handler = server.NewStreamableHTTPServer(s)
	if *sseAddr != "" {
		h = server.NewSSEServer(s, server.WithBaseURL(base))
	}
	if want := os.Getenv("AUTH_WANT"); want != "" {
		next := h
		h = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Header.Get("Authorization") != want {
				http.Error(w, "unauthorized", http.StatusUnauthorized)
				return
			}
			next.ServeHTTP(w, r)
		})
	}
	fmt.Println(base + path)
	if err := http.Serve(l, h); err != nil {
		fatal(err)
	}
}

func answer(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return mcp.NewToolResultText("called " + req.Params.Name), nil
}

// sleepForever blocks for good, in a way the runtime does not take for a
// deadlock.
func sleepForever() {
	for {
		time.Sleep(time.Hour)
	}
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "toolserver:", err)
	os.Exit(1)
}
