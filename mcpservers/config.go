package mcpservers

import (
	"maps"
	"net/http"
	"runtime/debug"
	"slices"
	"sync"
	"time"

	"github.com/guardian-agent/guardian-go/definition"
)

// Defaults of the zero values documented on the connection and option types.
const (
	defaultHTTPTimeout     = 30 * time.Second
	defaultSSEReadTimeout  = 5 * time.Minute
	defaultDiscoverTimeout = time.Second
	defaultLogLevel        = "info"
	defaultClientName      = "guardian-go"
	callbackQueueSize      = 1024
)

// connConfig is a deep, validated copy of a Connection, taken by NewClient
// and never changed afterwards: tools share it read-only, so each holds the
// configuration it was loaded with whatever happens to the caller's values.
type connConfig struct {
	name      string
	transport definition.Transport
	bound     int64 // messageBound of the client's options; 0: maxMessageBytes

	// stdio
	command string
	args    []string
	env     map[string]string
	dir     string

	// HTTP transports and websocket
	url            string
	headers        map[string]string
	timeout        time.Duration // < 0: none
	sseReadTimeout time.Duration // < 0: none
	httpClient     func() *http.Client
	auth           Auth
}

// options is the Client's copy of its ClientOptions, defaults applied.
type options struct {
	messageBound    int64
	interceptors    []Interceptor
	sampling        SamplingHandler
	elicitation     ElicitationHandler
	roots           RootsHandler
	onLog           func(LogMessage)
	onProgress      func(Progress)
	logLevel        string
	prefix          bool
	allowPartial    bool
	clientName      string
	clientVersion   string
	protocolVersion string
	discoverTimeout time.Duration
	stderr          *lineWriter
}

func copyConnection(name string, c Connection) connConfig {
	cfg := connConfig{name: name}
	switch c := deref(c).(type) {
	case Stdio:
		cfg.transport = definition.TransportStdio
		cfg.command = c.Command
		cfg.args = slices.Clone(c.Args)
		cfg.env = maps.Clone(c.Env)
		cfg.dir = c.Dir
	case StreamableHTTP:
		cfg.transport = definition.TransportStreamableHTTP
		cfg.url = c.URL
		cfg.headers = maps.Clone(c.Headers)
		cfg.timeout = orDefault(c.Timeout, defaultHTTPTimeout)
		cfg.httpClient = c.HTTPClient
		cfg.auth = c.Auth
	case SSE:
		cfg.transport = definition.TransportSSE
		cfg.url = c.URL
		cfg.headers = maps.Clone(c.Headers)
		cfg.timeout = orDefault(c.Timeout, defaultHTTPTimeout)
		cfg.sseReadTimeout = orDefault(c.SSEReadTimeout, defaultSSEReadTimeout)
		cfg.httpClient = c.HTTPClient
		cfg.auth = c.Auth
	case WebSocket:
		cfg.transport = definition.TransportWebSocket
		cfg.url = c.URL
		cfg.headers = maps.Clone(c.Headers)
	}
	return cfg
}

// deref turns a pointer connection into its value; a nil pointer gives nil.
func deref(c Connection) Connection {
	switch p := c.(type) {
	case *Stdio:
		if p != nil {
			return *p
		}
		return nil
	case *StreamableHTTP:
		if p != nil {
			return *p
		}
		return nil
	case *SSE:
		if p != nil {
			return *p
		}
		return nil
	case *WebSocket:
		if p != nil {
			return *p
		}
		return nil
	}
	return c
}

func orDefault(d, def time.Duration) time.Duration {
	if d == 0 {
		return def
	}
	return d
}

func copyOptions(o *ClientOptions) *options {
	if o == nil {
		o = &ClientOptions{}
	}
	opts := &options{
		messageBound:    o.messageBound,
		interceptors:    slices.Clone(o.Interceptors),
		sampling:        o.Sampling,
		elicitation:     o.Elicitation,
		roots:           o.Roots,
		onLog:           o.OnLog,
		onProgress:      o.OnProgress,
		logLevel:        o.LogLevel,
		prefix:          o.PrefixToolNames,
		allowPartial:    o.AllowPartial,
		clientName:      o.ClientName,
		clientVersion:   o.ClientVersion,
		protocolVersion: o.ProtocolVersion,
		discoverTimeout: orDefault(o.DiscoverTimeout, defaultDiscoverTimeout),
	}
	if opts.logLevel == "" {
		opts.logLevel = defaultLogLevel
	}
	if opts.clientName == "" {
		opts.clientName = defaultClientName
		if opts.clientVersion == "" {
			opts.clientVersion = moduleVersion()
		}
	}
	if o.Stderr != nil {
		opts.stderr = &lineWriter{w: o.Stderr}
	}
	return opts
}

// moduleVersion is this module's version in the running binary, as the
// client's version; "(devel)" when built from a checkout.
var moduleVersion = sync.OnceValue(func() string {
	const module = "github.com/guardian-agent/guardian-go"
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Path == module && bi.Main.Version != "" {
			return bi.Main.Version
		}
		for _, d := range bi.Deps {
			if d.Path == module {
				return d.Version
			}
		}
	}
	return "(devel)"
})
