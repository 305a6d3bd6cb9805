package mcpservers

import (
	"fmt"
	"sync"
	"testing"
	"time"
)

func TestProgressAndLogging(t *testing.T) {
	transports(t, func(t *testing.T, conn Connection, opts *ClientOptions) {
		var mu sync.Mutex
		var progress []Progress
		var logs []LogMessage
		opts.OnProgress = func(p Progress) {
			mu.Lock()
			progress = append(progress, p)
			mu.Unlock()
		}
		opts.OnLog = func(m LogMessage) {
			mu.Lock()
			logs = append(logs, m)
			mu.Unlock()
		}
		tools := loadTools(t, newClient(t, map[string]Connection{"docs": conn}, opts))
		call(t, tools["slow_task"], nil)
		// Notifications may come after the result (mcp-go's stdio server
		// sends them from a goroutine of its own): wait for them. slow_task
		// waits for its notifications to be written before it returns, so
		// every transport gives all three. Not always in order: mcp-go's
		// pre-2026 streamable HTTP server hands a session's notifications
		// to whichever of its streams (the call's, the standalone GET)
		// takes them first.
		deadline := time.Now().Add(5 * time.Second)
		for time.Now().Before(deadline) {
			mu.Lock()
			n, m := len(progress), len(logs)
			mu.Unlock()
			if n >= 2 && m >= 1 {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		mu.Lock()
		defer mu.Unlock()
		if len(progress) != 2 {
			t.Fatalf("progress = %+v, want 2 reports", progress)
		}
		seen := map[float64]bool{}
		for _, p := range progress {
			if p.Server != "docs" || p.Tool != "slow_task" || p.Total != 2 || (p.Progress != 1 && p.Progress != 2) || p.Message != fmt.Sprintf("step %g", p.Progress) || seen[p.Progress] {
				t.Errorf("progress = %+v, want steps 1 and 2 once each", progress)
			}
			seen[p.Progress] = true
		}
		if len(logs) != 1 {
			t.Fatalf("logs = %+v, want 1 message", logs)
		}
		if m := logs[0]; m.Server != "docs" || m.Level != "warning" || m.Logger != "probe" || string(m.Data) != `"log from slow_task"` {
			t.Errorf("log = %+v (%s)", m, m.Data)
		}
	})
}

func TestSlowCallbacksNeverBlockTheConnection(t *testing.T) {
	release := make(chan struct{})
	opts := &ClientOptions{
		OnLog: func(LogMessage) { <-release },
	}
	tools := loadTools(t, newClient(t, map[string]Connection{"docs": stdioServer("docs")}, opts))
	defer close(release)
	// The callback blocks; calls go on, and log messages past the queue's
	// room are dropped.
	start := time.Now()
	for range 20 {
		call(t, tools["slow_task"], nil)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("calls took %v with a blocked callback", d)
	}
}

func TestCallbackQueueDropsWhenFull(t *testing.T) {
	block := make(chan struct{})
	cb := newCallbacks(&options{onLog: func(LogMessage) { <-block }})
	for range callbackQueueSize + 10 {
		cb.notification("s", "notifications/message", map[string]any{"level": "info", "data": "x"})
	}
	close(block)
	cb.close()
	if d := cb.dropped.Load(); d < 9 {
		t.Errorf("dropped %d, want the overflow dropped", d)
	}
}

func TestLateProgressIsStillDelivered(t *testing.T) {
	got := make(chan Progress, 1)
	cb := newCallbacks(&options{onProgress: func(Progress) {}})
	defer cb.close()
	token := cb.register("s", "t", func(p Progress) { got <- p })
	// The call has returned; its progress arrives now.
	cb.notification("s", "notifications/progress", map[string]any{"progressToken": token, "progress": 3.0, "message": "late"})
	select {
	case p := <-got:
		if p.Tool != "t" || p.Progress != 3 || p.Message != "late" {
			t.Errorf("progress = %+v", p)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("late progress dropped")
	}
	for range maxProgressTokens {
		cb.register("s", "other", nil)
	}
	cb.mu.Lock()
	_, kept := cb.calls[token]
	n := len(cb.calls)
	cb.mu.Unlock()
	if kept || n != maxProgressTokens {
		t.Errorf("after %d more calls: token kept=%v, %d tokens", maxProgressTokens, kept, n)
	}
}
