package oauth

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os/exec"
	"runtime"
	"sync"
	"time"

	"github.com/guardian-agent/guardian-go/internal/weborigin"
)

// BrowserSignIn signs the user in with their browser, as a command-line
// program does: it listens for the redirect on a loopback port
// (http://127.0.0.1:PORT/callback, RFC 8252), prints the authorization URL,
// opens it in the user's browser, and waits for the redirect that carries
// the state it is waiting for. Give it to [Config] as Browser. It is
// library code: a definition fingerprints none of it.
type BrowserSignIn struct {
	out     io.Writer
	command []string
	ln      net.Listener
	srv     *http.Server
	url     string

	mu      sync.Mutex
	waiting map[string]chan *url.URL // by state
}

// BrowserOptions configures [NewBrowserSignIn].
type BrowserOptions struct {
	// Out, if set, is told the URL to visit (should the browser not
	// open) and when the sign-in is done.
	Out io.Writer
	// Command opens a URL, which is appended to it as the last argument.
	// Nil: the system's opener (xdg-open, open, or rundll32's
	// FileProtocolHandler on Windows).
	Command []string
	// Port is the loopback port to listen on; zero: one the system picks.
	Port int
}

// NewBrowserSignIn starts listening for redirects. Close stops it.
func NewBrowserSignIn(opts BrowserOptions) (*BrowserSignIn, error) {
	ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", opts.Port))
	if err != nil {
		return nil, newErr("", "configure", ErrAuthorization, "cannot listen on a loopback port for the sign-in's redirect", err)
	}
	b := &BrowserSignIn{
		out: opts.Out, command: opts.Command, ln: ln,
		url:     "http://" + ln.Addr().String() + "/callback",
		waiting: map[string]chan *url.URL{},
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /callback", b.callback)
	b.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = b.srv.Serve(ln) }()
	return b, nil
}

// RedirectURL is the redirect URL the browser is sent back to.
func (b *BrowserSignIn) RedirectURL() string { return b.url }

// Close stops listening.
func (b *BrowserSignIn) Close() error {
	return b.srv.Close()
}

// callback takes a redirect to whichever sign-in waits for its state.
func (b *BrowserSignIn) callback(w http.ResponseWriter, r *http.Request) {
	state := r.URL.Query().Get("state")
	b.mu.Lock()
	ch := b.waiting[state]
	delete(b.waiting, state)
	b.mu.Unlock()
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	if ch == nil {
		w.WriteHeader(http.StatusBadRequest)
		_, _ = io.WriteString(w, "No sign-in is waiting for this redirect. Start it again from the program.\n")
		return
	}
	u := *r.URL
	ch <- &u
	_, _ = io.WriteString(w, "Signed in. You can close this tab and go back to the program.\n")
}

// Authorize prints authURL, opens it in the browser and waits for the
// redirect; it is an [AuthorizeFunc].
func (b *BrowserSignIn) Authorize(ctx context.Context, authURL string) (*url.URL, error) {
	au, err := url.Parse(authURL)
	if err != nil {
		return nil, errors.New("the authorization URL cannot be parsed")
	}
	state := au.Query().Get("state")
	ch := make(chan *url.URL, 1)
	b.mu.Lock()
	b.waiting[state] = ch
	b.mu.Unlock()
	defer func() {
		b.mu.Lock()
		delete(b.waiting, state)
		b.mu.Unlock()
	}()
	if b.out != nil {
		fmt.Fprintf(b.out, "Sign in to %s in your browser. If it does not open, visit:\n  %s\n", weborigin.Printable(au), authURL)
	}
	b.open(authURL)
	select {
	case u := <-ch:
		if b.out != nil {
			fmt.Fprintf(b.out, "Signed in to %s.\n", weborigin.Printable(au))
		}
		return u, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// open starts the browser and does not wait for it: the URL is printed
// too, should it fail.
func (b *BrowserSignIn) open(u string) {
	argv := b.command
	if len(argv) == 0 {
		switch runtime.GOOS {
		case "darwin":
			argv = []string{"open"}
		case "windows":
			argv = []string{"rundll32", "url.dll,FileProtocolHandler"}
		default:
			argv = []string{"xdg-open"}
		}
	}
	cmd := exec.Command(argv[0], append(argv[1:len(argv):len(argv)], u)...)
	if cmd.Start() == nil {
		go func() { _ = cmd.Wait() }()
	}
}
