package definition_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/guardian-agent/guardian-go/internal/lockedbuffer"

	"github.com/guardian-agent/guardian-go/definition"
	"github.com/guardian-agent/guardian-go/mcpservers"
)

// canary returns a distinct random value to plant.
func canary(t *testing.T, label string) string {
	t.Helper()
	b := make([]byte, 12)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return "canary-" + label + "-" + hex.EncodeToString(b)
}

// bearer is an Auth of the user's that holds its token in a field.
type bearer struct{ token string }

func (b bearer) RoundTrip(req *http.Request, next http.RoundTripper) (*http.Response, error) {
	req.Header.Set("Authorization", "Bearer "+b.token)
	return next.RoundTrip(req)
}

// tagger is an interceptor whose state is a secret.
type tagger struct{ secret string }

func (g tagger) Intercept(ctx context.Context, req *mcpservers.CallRequest, next mcpservers.CallFunc) (*mcpservers.Result, error) {
	if req.Header == nil {
		req.Header = http.Header{}
	}
	req.Header.Set("X-Canary", g.secret)
	return next(ctx, req)
}

// asker is an elicitation handler holding a secret.
type asker struct{ secret string }

func (a asker) Elicit(ctx context.Context, req *mcpservers.ElicitationRequest) (*mcpservers.ElicitationResponse, error) {
	return &mcpservers.ElicitationResponse{Action: mcpservers.ElicitationDecline}, nil
}

// sampler is a sampling handler holding a secret (an API key for its
// model, say).
type sampler struct{ secret string }

func (s sampler) CreateMessage(ctx context.Context, req *mcpservers.SamplingRequest) (*mcpservers.SamplingResult, error) {
	return nil, errors.New("no model here")
}

// rooter is a roots handler whose roots are secret paths.
type rooter struct{ secret string }

func (r rooter) ListRoots(ctx context.Context, req *mcpservers.RootsRequest) ([]mcpservers.Root, error) {
	return []mcpservers.Root{{URI: "file:///" + r.secret}}, nil
}

// TestNeverRecordedFieldsNeverLeak plants distinct random secrets in every
// field a definition never records (headers, env, auth, working directory,
// timeouts, the state of handlers, interceptors and the HTTP client
// factory), uses them for real, and checks that none reaches the document,
// the digest's input, an error, a diff or a log.
func TestNeverRecordedFieldsNeverLeak(t *testing.T) {
	// Not parallel: it captures the default slog logger.
	logs := &lockedbuffer.Buffer{}
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})))
	t.Cleanup(func() { slog.SetDefault(prev) })

	secrets := map[string]string{}
	plant := func(label string) string {
		s := canary(t, label)
		secrets[label] = s
		return s
	}
	header, env, authToken := plant("header"), plant("env"), plant("auth")
	interceptorState, handlerState, factoryState := plant("interceptor"), plant("handler"), plant("factory")
	samplerState, rootsState, progressState := plant("sampler"), plant("roots"), plant("progress")
	timeout := 7*time.Minute + time.Duration(time.Now().UnixNano()%1e9)
	secrets["timeout"] = timeout.String()
	secrets["timeout-ns"] = strconv.FormatInt(int64(timeout), 10)

	dir := filepath.Join(t.TempDir(), plant("dir"))
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	exe, _ := os.Executable()
	if err := os.Symlink(exe, filepath.Join(dir, "server")); err != nil {
		t.Fatal(err)
	}
	local := stdio(t, serverSpec{Name: "local", Tools: []toolSpec{{Name: "whoami", Description: "Says who."}}, EchoEnv: "CANARY_ENV"})
	local.Command, local.Dir = "./server", dir
	local.Env["CANARY_ENV"] = env

	remote := httpServer(t, docsSpec("remote", "search_web"), false, 9104).(mcpservers.StreamableHTTP)
	inner := remote.HTTPClient
	remote.HTTPClient = func() *http.Client {
		c := inner()
		c.Transport = headerSpy{base: c.Transport, want: factoryState}
		return c
	}
	remote.Headers = map[string]string{"X-Api-Key": header}
	remote.Auth = bearer{token: authToken}
	remote.Timeout = timeout

	stderr := &lockedbuffer.Buffer{}
	c, err := mcpservers.NewClient(map[string]mcpservers.Connection{"local": local, "remote": remote}, &mcpservers.ClientOptions{
		Interceptors: []mcpservers.Interceptor{tagger{secret: interceptorState}},
		Elicitation:  asker{secret: handlerState},
		Sampling:     sampler{secret: samplerState},
		Roots:        rooter{secret: rootsState},
		Stderr:       stderr,
		OnLog:        func(m mcpservers.LogMessage) { logs.Write(m.Data) },
		// Progress callbacks change nothing a call does: never recorded,
		// whatever they hold.
		OnProgress: func(p mcpservers.Progress) { _ = progressState },
	})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ts, err := c.Tools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*mcpservers.Tool{}
	for _, tool := range ts {
		byName[tool.Name()] = tool
	}

	// The secrets are used: they reach the servers.
	res, err := byName["whoami"].Call(ctx, map[string]any{"query": "q"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Text(), "env="+env) {
		t.Fatal("the stdio server did not get the env")
	}
	res, err = byName["search_web"].Call(ctx, map[string]any{"query": "q"})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"X-Canary=" + interceptorState, "X-Api-Key=" + header, "Authorization=Bearer " + authToken, "X-Factory=" + factoryState} {
		if !strings.Contains(res.Text(), want) {
			t.Errorf("the HTTP server did not get %s…", want[:12])
		}
	}

	agent := &definition.Agent{Name: "canary", Tools: tools(byName["whoami"], byName["search_web"])}
	d, err := definition.Build(agent, nil)
	if err != nil {
		t.Fatal(err)
	}
	doc, _ := d.Document()
	var texts []string
	texts = append(texts, string(doc), d.Digest())

	// Errors: a refusal of the same agent plus a websocket tool, a Vet
	// refusal, and a diff against an older definition.
	ws := otherLibraryTool{name: "live", server: definition.Server{Name: "feed", Transport: definition.TransportWebSocket, URL: "ws://feed"}}
	_, err = definition.Build(&definition.Agent{Name: "canary", Tools: append(tools(byName["whoami"], byName["search_web"]), ws)}, nil)
	if err == nil {
		t.Fatal("the websocket tool was not refused")
	}
	texts = append(texts, err.Error())
	small, err := definition.Build(&definition.Agent{Name: "canary", Tools: tools(byName["whoami"])}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := small.Vet(byName["search_web"]); err != nil {
		texts = append(texts, err.Error())
	} else {
		t.Fatal("Vet accepted an undescribed tool")
	}
	for _, ch := range definition.Diff(small, d) {
		texts = append(texts, ch.String())
	}
	texts = append(texts, logs.String(), stderr.String())

	for label, s := range secrets {
		for _, text := range texts {
			if strings.Contains(text, s) {
				t.Errorf("the %s secret leaked into:\n%s", label, text)
			}
		}
	}
}

// headerSpy is the user's RoundTripper inside the HTTP client factory,
// holding a secret of its own.
type headerSpy struct {
	base http.RoundTripper
	want string
}

func (h headerSpy) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	req.Header.Set("X-Factory", h.want)
	return h.base.RoundTrip(req)
}
