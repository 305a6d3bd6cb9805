package mcpservers

import (
	"encoding/json"
	"strconv"
	"sync"
	"sync/atomic"
)

// callbacks delivers log messages and progress to the Client's callbacks on
// one goroutine of its own. mcp-go runs notification handlers on the
// connection's reader, so a callback run there would hold up every response
// of that server; the reader only queues, and drops when the queue is full.
type callbacks struct {
	onLog      func(LogMessage)
	onProgress func(Progress)

	queue chan event
	stop  chan struct{}
	done  chan struct{}
	once  sync.Once

	dropped atomic.Int64

	mu     sync.Mutex
	seq    int64
	calls  map[string]progressTarget
	tokens []string // registration order, for eviction
}

// progressTarget is the call a progress token was given to.
type progressTarget struct {
	server, tool string
	fn           func(Progress)
}

// maxProgressTokens is how many calls' tokens are remembered: progress can
// come after its call has returned, so tokens are not forgotten when the
// call ends but when newer calls push them out.
const maxProgressTokens = 1024

type event struct {
	server string
	log    *LogMessage
	params map[string]any // notifications/progress
	token  string
	data   any // notifications/message data, encoded when delivered
	hasLog bool
}

func newCallbacks(o *options) *callbacks {
	if o.onLog == nil && o.onProgress == nil {
		return nil
	}
	cb := &callbacks{
		onLog:      o.onLog,
		onProgress: o.onProgress,
		queue:      make(chan event, callbackQueueSize),
		stop:       make(chan struct{}),
		done:       make(chan struct{}),
		calls:      map[string]progressTarget{},
	}
	go cb.run()
	return cb
}

func (cb *callbacks) run() {
	defer close(cb.done)
	for {
		select {
		case <-cb.stop:
			return
		case e := <-cb.queue:
			cb.deliver(e)
		}
	}
}

// close stops the goroutine and waits for it; what is still queued is
// dropped.
func (cb *callbacks) close() {
	if cb == nil {
		return
	}
	cb.once.Do(func() { close(cb.stop) })
	<-cb.done
}

// enqueue never blocks: it is called on a connection's reader.
func (cb *callbacks) enqueue(e event) {
	select {
	case cb.queue <- e:
	default:
		cb.dropped.Add(1)
	}
}

// register gives a call a progress token.
func (cb *callbacks) register(server, tool string, fn func(Progress)) string {
	cb.mu.Lock()
	defer cb.mu.Unlock()
	cb.seq++
	token := "mcpservers-progress-" + strconv.FormatInt(cb.seq, 10)
	cb.calls[token] = progressTarget{server: server, tool: tool, fn: fn}
	cb.tokens = append(cb.tokens, token)
	if len(cb.tokens) > maxProgressTokens {
		delete(cb.calls, cb.tokens[0])
		cb.tokens = cb.tokens[1:]
	}
	return token
}

func (cb *callbacks) deliver(e event) {
	if e.log != nil {
		if e.hasLog {
			e.log.Data, _ = json.Marshal(e.data)
		}
		cb.onLog(*e.log)
		return
	}
	cb.mu.Lock()
	target, ok := cb.calls[e.token]
	cb.mu.Unlock()
	if !ok || target.fn == nil {
		return
	}
	p := Progress{Server: target.server, Tool: target.tool}
	p.Progress, _ = e.params["progress"].(float64)
	p.Total, _ = e.params["total"].(float64)
	p.Message, _ = e.params["message"].(string)
	target.fn(p)
}

// notification turns a server notification into an event, on the reader:
// it only picks fields out of the map mcp-go decoded.
func (cb *callbacks) notification(server, method string, params map[string]any) {
	if cb == nil {
		return
	}
	switch method {
	case "notifications/progress":
		if cb.onProgress == nil {
			return
		}
		token, ok := params["progressToken"].(string)
		if !ok {
			return
		}
		cb.enqueue(event{server: server, params: params, token: token})
	case "notifications/message":
		if cb.onLog == nil {
			return
		}
		m := &LogMessage{Server: server}
		m.Level, _ = params["level"].(string)
		m.Logger, _ = params["logger"].(string)
		d, ok := params["data"]
		cb.enqueue(event{server: server, log: m, data: d, hasLog: ok})
	}
}
