package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/guardian-agent/guardian-go/internal/mcpconfig"
	"github.com/guardian-agent/guardian-go/mcpservers"
)

// Loading the servers' tools at once, and saying why a server failed.

// loaded is one server's tools, or why there are none.
type loaded struct {
	tools       []*mcpservers.Tool
	err         error
	reason      string // why, for people, cleaned
	interrupted bool   // guardian was interrupted while it loaded
}

// loadTools loads every server's tools at once, each bounded by timeout,
// and returns them in the order of servers.
func loadTools(ctx context.Context, client *mcpservers.Client, servers []mcpconfig.Server, timeout time.Duration, prog *progress, red *redactor) []loaded {
	out := make([]loaded, len(servers))
	var wg sync.WaitGroup
	for i, s := range servers {
		wg.Go(func() {
			prog.printf("%s: connecting", strconv.Quote(s.Label()))
			sctx, cancel := context.WithTimeout(ctx, timeout)
			defer cancel()
			tools, err := client.Tools(sctx, s.Name)
			if err != nil {
				// Judged now: a server that failed before an interrupt
				// failed for its own reason.
				l := loaded{err: err, interrupted: ctx.Err() != nil, reason: failureReason(ctx, err, timeout, red)}
				out[i] = l
				prog.printf("%s: failed: %s", strconv.Quote(s.Label()), l.reason)
				return
			}
			out[i] = loaded{tools: tools}
			prog.printf("%s: %s", strconv.Quote(s.Label()), plural(len(tools), "tool"))
		})
	}
	wg.Wait()
	return out
}

// failureReason says why a server's tools could not be loaded, in a line
// that never holds a value it was given: for each of mcpservers' errors,
// what failed, its kind and its detail (the report names the server).
func failureReason(ctx context.Context, err error, timeout time.Duration, red *redactor) string {
	switch {
	case ctx.Err() != nil:
		return "interrupted"
	case errors.Is(err, context.DeadlineExceeded):
		return "timed out after " + timeout.String() + " (--timeout)"
	}
	var reasons []string
	for _, me := range mcpErrors(err) {
		reasons = append(reasons, opReason(me))
	}
	if len(reasons) == 0 {
		return red.Clean(err.Error())
	}
	return red.Clean(strings.Join(reasons, "; "))
}

// mcpErrors are the *mcpservers.Error in err's tree, not looking into
// their causes.
func mcpErrors(err error) []*mcpservers.Error {
	switch x := err.(type) {
	case nil:
		return nil
	case *mcpservers.Error:
		return []*mcpservers.Error{x}
	case interface{ Unwrap() []error }:
		var out []*mcpservers.Error
		for _, e := range x.Unwrap() {
			out = append(out, mcpErrors(e)...)
		}
		return out
	case interface{ Unwrap() error }:
		return mcpErrors(x.Unwrap())
	}
	return nil
}

// opReason is an error of one server without the server: "connect: cannot
// connect: server exited: exit status 3".
func opReason(e *mcpservers.Error) string {
	var b strings.Builder
	if e.Op != "" {
		b.WriteString(e.Op)
		if e.Tool != "" {
			b.WriteString(" " + strconv.Quote(e.Tool))
		}
		b.WriteString(": ")
	}
	if e.Kind != nil {
		b.WriteString(e.Kind.Error())
	} else {
		b.WriteString("failed")
	}
	if d := e.Detail(); d != "" {
		b.WriteString(": " + d)
	}
	return b.String()
}

// progress prints servers' progress while they connect, when stderr is a
// terminal (w is nil otherwise).
type progress struct {
	mu  sync.Mutex
	w   io.Writer
	cmd string
}

func (p *progress) printf(format string, args ...any) {
	if p.w == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	printLine(p.w, "guardian %s: %s", p.cmd, fmt.Sprintf(format, args...))
}
