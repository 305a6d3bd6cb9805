package mcpservers_test

// What the servers really sent, captured without package mcpservers: a
// recorder on the wire (a node tee for stdio, a recording reverse proxy for
// HTTP), and a tiny JSON-RPC client of our own that opens an independent
// session with the same server. The interop tests compare what mcpservers
// loaded with both.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/tools/txtar"

	"github.com/guardian-agent/guardian-go/mcpservers"
)

// wireMsg is one JSON-RPC message, its members kept as sent.
type wireMsg struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  json.RawMessage `json:"error,omitempty"`
}

func (m wireMsg) isRequest() bool  { return m.Method != "" && len(m.ID) > 0 }
func (m wireMsg) isResponse() bool { return m.Method == "" && len(m.ID) > 0 }

// rpc is a request and the response it got (nil when none was seen).
type rpc struct {
	Req  wireMsg
	Resp *wireMsg
}

// wireLog is the recorded traffic of a connection.
type wireLog struct {
	rpcs []rpc // the client's requests, in the order sent
	// fromServer holds every message the server sent, in order.
	fromServer []wireMsg
	// fromClient holds every message the client sent, in order.
	fromClient []wireMsg
}

// requests returns the client's requests of one method, in order.
func (l *wireLog) requests(method string) []rpc {
	var out []rpc
	for _, r := range l.rpcs {
		if r.Req.Method == method {
			out = append(out, r)
		}
	}
	return out
}

// serverRequests returns the requests the server sent the client, of one
// method, in order.
func (l *wireLog) serverRequests(method string) []wireMsg {
	var out []wireMsg
	for _, m := range l.fromServer {
		if m.isRequest() && m.Method == method {
			out = append(out, m)
		}
	}
	return out
}

// initialize returns the client's initialize request params and the
// server's result.
func (l *wireLog) initialize(t testing.TB) (params, result json.RawMessage) {
	t.Helper()
	inits := l.requests("initialize")
	if len(inits) == 0 {
		t.Fatal("no initialize request on the wire")
	}
	last := inits[len(inits)-1]
	if last.Resp == nil || len(last.Resp.Result) == 0 {
		t.Fatalf("initialize got no result on the wire: %+v", last.Resp)
	}
	return last.Req.Params, last.Resp.Result
}

// toolListing returns the tools of the last complete tools/list listing (a
// request without a cursor, then one per nextCursor until there is none),
// each exactly as sent.
func (l *wireLog) toolListing(t testing.TB) []json.RawMessage {
	t.Helper()
	var (
		last    []json.RawMessage
		cur     []json.RawMessage
		started bool
	)
	for _, r := range l.requests("tools/list") {
		var p struct {
			Cursor *string `json:"cursor"`
		}
		if len(r.Req.Params) > 0 {
			if err := json.Unmarshal(r.Req.Params, &p); err != nil {
				t.Fatalf("tools/list params on the wire: %v", err)
			}
		}
		if p.Cursor == nil || *p.Cursor == "" {
			cur, started = nil, true
		}
		if !started || r.Resp == nil || len(r.Resp.Result) == 0 {
			started = false
			continue
		}
		var res struct {
			Tools      []json.RawMessage `json:"tools"`
			NextCursor string            `json:"nextCursor"`
		}
		if err := json.Unmarshal(r.Resp.Result, &res); err != nil {
			t.Fatalf("tools/list result on the wire: %v", err)
		}
		cur = append(cur, res.Tools...)
		if res.NextCursor == "" {
			last, started = cur, false
		}
	}
	if last == nil {
		t.Fatal("no complete tools/list listing on the wire")
	}
	return last
}

// lastCall returns the last tools/call of the named tool and its response.
func (l *wireLog) lastCall(t testing.TB, name string) rpc {
	t.Helper()
	calls := l.requests("tools/call")
	for i := len(calls) - 1; i >= 0; i-- {
		var p struct {
			Name string `json:"name"`
		}
		if json.Unmarshal(calls[i].Req.Params, &p) == nil && p.Name == name {
			return calls[i]
		}
	}
	t.Fatalf("no tools/call %q on the wire", name)
	return rpc{}
}

// parseMessages reads JSON-RPC messages from a JSON value that is a message
// or a batch.
func parseMessages(b []byte) ([]wireMsg, error) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return nil, nil
	}
	if b[0] == '[' {
		var batch []wireMsg
		err := json.Unmarshal(b, &batch)
		return batch, err
	}
	var m wireMsg
	err := json.Unmarshal(b, &m)
	return []wireMsg{m}, err
}

// pair matches the client's requests with the server's responses, by ID and
// in order (an ID may be reused by a later connection).
func pair(fromClient, fromServer []wireMsg) []rpc {
	var rpcs []rpc
	open := map[string][]int{} // id -> indexes into rpcs still unanswered
	// How the two directions interleave is not recorded, so each response
	// goes to the oldest unanswered request with its ID.
	for _, m := range fromClient {
		if m.isRequest() {
			open[string(m.ID)] = append(open[string(m.ID)], len(rpcs))
			rpcs = append(rpcs, rpc{Req: m})
		}
	}
	for i := range fromServer {
		m := fromServer[i]
		if !m.isResponse() {
			continue
		}
		q := open[string(m.ID)]
		if len(q) == 0 {
			continue
		}
		rpcs[q[0]].Resp = &fromServer[i]
		open[string(m.ID)] = q[1:]
	}
	return rpcs
}

// stdioRecorder records the traffic of stdio servers started through it.
type stdioRecorder struct {
	in, out string
}

func newStdioRecorder(t testing.TB) *stdioRecorder {
	dir := t.TempDir()
	return &stdioRecorder{in: filepath.Join(dir, "in.jsonl"), out: filepath.Join(dir, "out.jsonl")}
}

// wrap returns a Stdio connection that runs command through the recorder.
func (r *stdioRecorder) wrap(t testing.TB, conn mcpservers.Stdio) mcpservers.Stdio {
	t.Helper()
	args := append([]string{teeScript(t), r.in, r.out, conn.Command}, conn.Args...)
	conn.Command = "node"
	conn.Args = args
	return conn
}

func (r *stdioRecorder) log(t testing.TB) *wireLog {
	t.Helper()
	read := func(path string) []wireMsg {
		lines, err := readAllLines(path)
		if err != nil {
			t.Fatalf("reading the recorded traffic: %v", err)
		}
		var msgs []wireMsg
		for _, line := range lines {
			ms, err := parseMessages(line)
			if err != nil {
				t.Fatalf("recorded line is not JSON-RPC (%v): %.200s", err, line)
			}
			msgs = append(msgs, ms...)
		}
		return msgs
	}
	l := &wireLog{fromClient: read(r.in), fromServer: read(r.out)}
	l.rpcs = pair(l.fromClient, l.fromServer)
	return l
}

// httpRecorder is a reverse proxy on loopback that records every exchange
// with the server behind it.
type httpRecorder struct {
	URL string // the proxy's URL, with the target's path

	mu        sync.Mutex
	exchanges []*exchange
}

type exchange struct {
	method      string
	header      http.Header // the request's, as the client sent it
	reqBody     []byte
	contentType string
	status      int
	respBody    bytes.Buffer
}

func newHTTPRecorder(t testing.TB, target string) *httpRecorder {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	rec := &httpRecorder{}
	upstream := &http.Transport{}
	proxy := &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(&url.URL{Scheme: u.Scheme, Host: u.Host})
			pr.Out.Host = u.Host
		},
		FlushInterval: -1, // pass event streams on as they come
		Transport:     &recordingTransport{rec: rec, next: upstream},
	}
	srv := httptest.NewServer(proxy)
	t.Cleanup(func() {
		srv.Close()
		upstream.CloseIdleConnections()
	})
	rec.URL = srv.URL + u.Path
	return rec
}

type recordingTransport struct {
	rec  *httpRecorder
	next http.RoundTripper
}

func (rt *recordingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	ex := &exchange{method: req.Method, header: req.Header.Clone()}
	if req.Body != nil {
		b, err := io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, err
		}
		ex.reqBody = b
		req.Body = io.NopCloser(bytes.NewReader(b))
	}
	rt.rec.mu.Lock()
	rt.rec.exchanges = append(rt.rec.exchanges, ex)
	rt.rec.mu.Unlock()
	resp, err := rt.next.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	rt.rec.mu.Lock()
	ex.status = resp.StatusCode
	ex.contentType = resp.Header.Get("Content-Type")
	rt.rec.mu.Unlock()
	resp.Body = &recordingBody{rc: resp.Body, rec: rt.rec, ex: ex}
	return resp, nil
}

// recordingBody records what is read from a response body before the proxy
// passes it on, so whatever the client has read is already recorded.
type recordingBody struct {
	rc  io.ReadCloser
	rec *httpRecorder
	ex  *exchange
}

func (b *recordingBody) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	if n > 0 {
		b.rec.mu.Lock()
		b.ex.respBody.Write(p[:n])
		b.rec.mu.Unlock()
	}
	return n, err
}

func (b *recordingBody) Close() error { return b.rc.Close() }

// httpRequest is a request the client sent, as the recorder saw it.
type httpRequest struct {
	Method string // GET, POST or DELETE
	Header http.Header
	RPC    []wireMsg // the JSON-RPC messages of a POST
}

// requests returns the HTTP requests so far, in the order sent.
func (r *httpRecorder) requests(t testing.TB) []httpRequest {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]httpRequest, 0, len(r.exchanges))
	for _, ex := range r.exchanges {
		hr := httpRequest{Method: ex.method, Header: ex.header}
		if ex.method == http.MethodPost {
			ms, err := parseMessages(ex.reqBody)
			if err != nil {
				t.Fatalf("recorded POST body is not JSON-RPC (%v): %.200s", err, ex.reqBody)
			}
			hr.RPC = ms
		}
		out = append(out, hr)
	}
	return out
}

// log parses the exchanges so far. Responses are paired with requests by
// ID, whatever stream they came on (on SSE, they all come on the GET
// stream); requests from the server are in fromServer.
func (r *httpRecorder) log(t testing.TB) *wireLog {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	l := &wireLog{}
	for _, ex := range r.exchanges {
		var sent []wireMsg
		if ex.method == http.MethodPost {
			ms, err := parseMessages(ex.reqBody)
			if err != nil {
				t.Fatalf("recorded POST body is not JSON-RPC (%v): %.200s", err, ex.reqBody)
			}
			sent = ms
		}
		var got []wireMsg
		body := ex.respBody.Bytes()
		switch {
		case strings.HasPrefix(ex.contentType, "text/event-stream"):
			for _, data := range sseData(body) {
				ms, err := parseMessages([]byte(data))
				if err != nil {
					continue // a priming event, or a stream cut short
				}
				got = append(got, ms...)
			}
		case strings.HasPrefix(ex.contentType, "application/json") && ex.status == http.StatusOK:
			ms, err := parseMessages(body)
			if err == nil {
				got = ms
			}
		}
		l.fromClient = append(l.fromClient, sent...)
		l.fromServer = append(l.fromServer, got...)
	}
	l.rpcs = pair(l.fromClient, l.fromServer)
	return l
}

// sseData returns the data of each complete event in an event stream.
func sseData(stream []byte) []string {
	var (
		out  []string
		data []string
	)
	sc := bufio.NewScanner(bytes.NewReader(stream))
	sc.Buffer(make([]byte, 0, 64*1024), 64<<20)
	for sc.Scan() {
		line := strings.TrimSuffix(sc.Text(), "\r")
		switch {
		case line == "":
			if len(data) > 0 {
				out = append(out, strings.Join(data, "\n"))
			}
			data = nil
		case strings.HasPrefix(line, "data:"):
			data = append(data, strings.TrimPrefix(strings.TrimPrefix(line, "data:"), " "))
		}
	}
	return out
}

// rawConn is our own minimal JSON-RPC client: it shares no code with
// mcpservers or mcp-go, so what it reads is what the server sent.
type rawConn interface {
	call(ctx context.Context, method string, params any) (json.RawMessage, error)
	notify(ctx context.Context, method string, params any) error
	close()
}

// rawError is a JSON-RPC error a server answered the raw client with.
type rawError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *rawError) Error() string { return "json-rpc error " + strconv.Itoa(e.Code) + ": " + e.Message }

func encodeRequest(id int, method string, params any) ([]byte, error) {
	msg := map[string]any{"jsonrpc": "2.0", "method": method}
	if id > 0 {
		msg["id"] = id
	}
	if params != nil {
		msg["params"] = params
	}
	return json.Marshal(msg)
}

// answerServerRequest is how the raw client answers a server's request:
// no roots, and nothing else.
func answerServerRequest(m wireMsg) []byte {
	var reply map[string]any
	switch m.Method {
	case "roots/list":
		reply = map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": map[string]any{"roots": []any{}}}
	case "ping":
		reply = map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": map[string]any{}}
	default:
		reply = map[string]any{"jsonrpc": "2.0", "id": m.ID, "error": map[string]any{"code": -32601, "message": "not supported by the raw test client"}}
	}
	b, _ := json.Marshal(reply)
	return b
}

// rawStdio speaks newline-delimited JSON-RPC to a child process.
type rawStdio struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	wmu   sync.Mutex

	mu      sync.Mutex
	nextID  int
	pending map[string]chan wireMsg
	done    chan struct{}
	readErr error

	closeOnce sync.Once
}

func dialRawStdio(t testing.TB, command string, args []string, env []string) *rawStdio {
	t.Helper()
	cmd := exec.Command(command, args...)
	cmd.Env = env
	if _, bench := t.(*testing.B); !bench {
		cmd.Stderr = newLineWriter(t, "raw client's server stderr: ")
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r := &rawStdio{cmd: cmd, stdin: stdin, pending: map[string]chan wireMsg{}, done: make(chan struct{})}
	go r.read(stdout)
	t.Cleanup(r.close)
	return r
}

func (r *rawStdio) read(stdout io.Reader) {
	defer close(r.done)
	br := bufio.NewReader(stdout)
	for {
		line, err := br.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			msgs, perr := parseMessages(line)
			if perr != nil {
				r.mu.Lock()
				r.readErr = fmt.Errorf("server wrote a line that is not JSON-RPC: %v", perr)
				r.mu.Unlock()
			}
			for _, m := range msgs {
				switch {
				case m.isResponse():
					r.mu.Lock()
					ch := r.pending[string(m.ID)]
					delete(r.pending, string(m.ID))
					r.mu.Unlock()
					if ch != nil {
						ch <- m
					}
				case m.isRequest():
					r.write(answerServerRequest(m))
				}
			}
		}
		if err != nil {
			r.mu.Lock()
			if r.readErr == nil {
				r.readErr = err
			}
			r.mu.Unlock()
			return
		}
	}
}

func (r *rawStdio) write(b []byte) error {
	r.wmu.Lock()
	defer r.wmu.Unlock()
	_, err := r.stdin.Write(append(b, '\n'))
	return err
}

func (r *rawStdio) call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	r.mu.Lock()
	r.nextID++
	id := r.nextID
	ch := make(chan wireMsg, 1)
	r.pending[strconv.Itoa(id)] = ch
	r.mu.Unlock()
	b, err := encodeRequest(id, method, params)
	if err != nil {
		return nil, err
	}
	if err := r.write(b); err != nil {
		return nil, err
	}
	select {
	case m := <-ch:
		return rawResult(m)
	case <-r.done:
		r.mu.Lock()
		defer r.mu.Unlock()
		return nil, fmt.Errorf("server closed its output: %v", r.readErr)
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (r *rawStdio) notify(_ context.Context, method string, params any) error {
	b, err := encodeRequest(0, method, params)
	if err != nil {
		return err
	}
	return r.write(b)
}

// close closes the server's stdin and waits for it to exit, killing it
// after 3 seconds. It is safe to call more than once.
func (r *rawStdio) close() {
	r.closeOnce.Do(func() {
		r.stdin.Close()
		ch := make(chan struct{})
		go func() { r.cmd.Wait(); close(ch) }()
		select {
		case <-ch:
		case <-time.After(3 * time.Second):
			r.cmd.Process.Kill()
			<-ch
		}
	})
}

func rawResult(m wireMsg) (json.RawMessage, error) {
	if len(m.Error) > 0 {
		var e rawError
		if err := json.Unmarshal(m.Error, &e); err != nil {
			return nil, fmt.Errorf("malformed error member: %s", m.Error)
		}
		return nil, &e
	}
	return m.Result, nil
}

// rawHTTP speaks the streamable HTTP transport (2025-11-25) to a server.
type rawHTTP struct {
	url       string
	client    *http.Client
	mu        sync.Mutex
	nextID    int
	sessionID string
	version   string
}

func dialRawHTTP(t testing.TB, serverURL string) *rawHTTP {
	r := &rawHTTP{url: serverURL, client: &http.Client{Transport: &http.Transport{}}}
	t.Cleanup(r.close)
	return r
}

func (r *rawHTTP) post(ctx context.Context, body []byte) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, r.url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	r.mu.Lock()
	if r.sessionID != "" {
		req.Header.Set("Mcp-Session-Id", r.sessionID)
	}
	if r.version != "" {
		req.Header.Set("Mcp-Protocol-Version", r.version)
	}
	r.mu.Unlock()
	return r.client.Do(req)
}

func (r *rawHTTP) call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	r.mu.Lock()
	r.nextID++
	id := r.nextID
	r.mu.Unlock()
	b, err := encodeRequest(id, method, params)
	if err != nil {
		return nil, err
	}
	resp, err := r.post(ctx, b)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if sid := resp.Header.Get("Mcp-Session-Id"); sid != "" {
		r.mu.Lock()
		r.sessionID = sid
		r.mu.Unlock()
	}
	if resp.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		return nil, fmt.Errorf("%s: HTTP %d: %s", method, resp.StatusCode, body)
	}
	want := strconv.Itoa(id)
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		// Read events until the response to this request.
		br := bufio.NewReader(resp.Body)
		var data []string
		for {
			line, err := br.ReadString('\n')
			line = strings.TrimRight(line, "\r\n")
			switch {
			case line == "" && len(data) > 0:
				msgs, perr := parseMessages([]byte(strings.Join(data, "\n")))
				data = nil
				if perr == nil {
					for _, m := range msgs {
						if m.isResponse() && string(m.ID) == want {
							return rawResult(m)
						}
						if m.isRequest() {
							if resp, err := r.post(ctx, answerServerRequest(m)); err == nil {
								resp.Body.Close()
							}
						}
					}
				}
			case strings.HasPrefix(line, "data:"):
				data = append(data, strings.TrimPrefix(strings.TrimPrefix(line, "data:"), " "))
			}
			if err != nil {
				return nil, fmt.Errorf("%s: event stream ended without a response: %v", method, err)
			}
		}
	}
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	msgs, err := parseMessages(body)
	if err != nil {
		return nil, err
	}
	for _, m := range msgs {
		if m.isResponse() && string(m.ID) == want {
			return rawResult(m)
		}
	}
	return nil, fmt.Errorf("%s: no response in %.200s", method, body)
}

func (r *rawHTTP) notify(ctx context.Context, method string, params any) error {
	b, err := encodeRequest(0, method, params)
	if err != nil {
		return err
	}
	resp, err := r.post(ctx, b)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("%s: HTTP %d", method, resp.StatusCode)
	}
	return nil
}

func (r *rawHTTP) close() {
	r.mu.Lock()
	sid := r.sessionID
	r.sessionID = ""
	r.mu.Unlock()
	defer r.client.CloseIdleConnections()
	if sid == "" {
		return
	}
	req, err := http.NewRequest(http.MethodDelete, r.url, nil)
	if err != nil {
		return
	}
	req.Header.Set("Mcp-Session-Id", sid)
	if resp, err := r.client.Do(req); err == nil {
		resp.Body.Close()
	}
}

// rawInitialize runs the initialize handshake, declaring the capabilities
// given (as raw JSON), and returns the server's result.
func rawInitialize(ctx context.Context, c rawConn, capabilities json.RawMessage) (json.RawMessage, error) {
	if len(capabilities) == 0 {
		capabilities = json.RawMessage(`{}`)
	}
	res, err := c.call(ctx, "initialize", map[string]any{
		"protocolVersion": "2025-11-25",
		"capabilities":    capabilities,
		"clientInfo":      map[string]any{"name": "guardian-go-interop-raw", "version": "0"},
	})
	if err != nil {
		return nil, fmt.Errorf("initialize: %w", err)
	}
	var r struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	if err := json.Unmarshal(res, &r); err != nil {
		return nil, err
	}
	if h, ok := c.(*rawHTTP); ok {
		h.mu.Lock()
		h.version = r.ProtocolVersion
		h.mu.Unlock()
	}
	if err := c.notify(ctx, "notifications/initialized", nil); err != nil {
		return nil, err
	}
	return res, nil
}

// rawListTools lists every page of tools, each exactly as sent.
func rawListTools(ctx context.Context, c rawConn) ([]json.RawMessage, error) {
	var (
		tools  []json.RawMessage
		cursor string
		seen   = map[string]bool{}
	)
	for {
		var params any
		if cursor != "" {
			params = map[string]any{"cursor": cursor}
		}
		res, err := c.call(ctx, "tools/list", params)
		if err != nil {
			return nil, err
		}
		var page struct {
			Tools      []json.RawMessage `json:"tools"`
			NextCursor string            `json:"nextCursor"`
		}
		if err := json.Unmarshal(res, &page); err != nil {
			return nil, err
		}
		tools = append(tools, page.Tools...)
		if page.NextCursor == "" {
			return tools, nil
		}
		if seen[page.NextCursor] {
			return nil, errors.New("tools/list repeated a cursor")
		}
		seen[page.NextCursor] = true
		cursor = page.NextCursor
	}
}

// canonicalJSON re-encodes a JSON value with sorted keys, numbers as
// written and no insignificant space, so that two encodings of one value
// compare equal. It returns "<invalid: ...>" for bytes that are not JSON.
func canonicalJSON(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return "<invalid: " + err.Error() + ">"
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return "<invalid: trailing data>"
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "<invalid: " + err.Error() + ">"
	}
	return strings.TrimSuffix(buf.String(), "\n")
}

// parentEnv is what a server started by the raw client gets: the parent's
// environment (the raw client is not what is under test here).
func parentEnv(extra map[string]string) []string {
	env := os.Environ()
	for k, v := range extra {
		env = append(env, k+"="+v)
	}
	return env
}

// update rewrites the interop transcripts (testdata/interop/transcripts)
// from what the servers sent in this run: go test -run Interop -update.
var update = flag.Bool("update", false, "rewrite the interop transcripts in testdata/interop/transcripts")

// checkTranscript compares the opening of a recorded session with its
// transcript, testdata/interop/transcripts/NAME.txtar: what the client
// declared in initialize, what the server answered, and every tool of
// its listing as sent, one a line. A pinned server upgrade or a change of
// what this package declares shows up as a diff of that file; -update
// rewrites it (and nothing else does).
func checkTranscript(t *testing.T, name string, l *wireLog) {
	t.Helper()
	params, result := l.initialize(t)
	var tools bytes.Buffer
	for _, tool := range l.toolListing(t) {
		tools.Write(tool)
		tools.WriteByte('\n')
	}
	got := &txtar.Archive{
		Comment: []byte("What " + name + " exchanged on the wire at the start of a session, recorded by\n" +
			t.Name() + ". Rewrite with: go test -run '" + strings.SplitN(t.Name(), "/", 2)[0] + "' ./mcpservers -update\n"),
		Files: []txtar.File{
			{Name: "client: initialize params", Data: []byte(canonicalJSON(params) + "\n")},
			{Name: "server: initialize result", Data: []byte(canonicalJSON(result) + "\n")},
			{Name: "server: tools/list tools", Data: tools.Bytes()},
		},
	}
	path := filepath.Join("testdata", "interop", "transcripts", name+".txtar")
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, txtar.Format(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("no transcript (run with -update to record one): %v", err)
	}
	want := txtar.Parse(data)
	if len(want.Files) != len(got.Files) {
		t.Fatalf("%s has %d sections, want %d: rewrite it with -update", path, len(want.Files), len(got.Files))
	}
	for i, f := range got.Files {
		if w := want.Files[i]; w.Name != f.Name || !bytes.Equal(w.Data, f.Data) {
			t.Errorf("%s: %q differs from this session's (-update rewrites it):\n--- transcript\n%s\n--- this session\n%s", path, f.Name, w.Data, f.Data)
		}
	}
}
