package mcpservers

import (
	"context"
	"errors"
	"sync"

	"github.com/guardian-agent/guardian-go/definition"
	"github.com/guardian-agent/guardian-go/internal/redact"
)

// remote is one named connection of a Client: its configuration, frozen by
// NewClient, and its live session, made on first use and remade, once per
// call, when it is found dead.
type remote struct {
	cfg  *connConfig
	opts *options
	cb   *callbacks
	red  *redact.Redactor

	mu         sync.Mutex
	sess       *session
	connecting *attempt
	closed     bool
	closing    chan struct{} // closed by close, to abort a connect
	pinned     string        // protocol version the first session settled on

	// fixed is set for SessionTools: the session is the caller's, and is
	// never remade or closed here.
	fixed bool

	// The parts of its tools' MCPRecords that are the server's, made once
	// and shared by them (see recordParts).
	recordOnce sync.Once
	recordArgs []string
	recordCode []definition.Code
}

// attempt is a connect in progress, which concurrent callers wait for.
type attempt struct {
	done chan struct{}
	sess *session
	err  error
}

func newRemote(cfg *connConfig, opts *options, cb *callbacks) *remote {
	return &remote{cfg: cfg, opts: opts, cb: cb, red: newRedactor(cfg), closing: make(chan struct{})}
}

// errClosedClient marks a failure caused by Client.Close.
var errClosedClient = errors.New("client closed")

// session returns the live session, connecting if there is none or the one
// there is has died.
func (s *remote) session(ctx context.Context) (*session, error) {
	for {
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			return nil, errClosedClient
		}
		if s.sess != nil && (s.fixed || !s.sess.isLost()) {
			sess := s.sess
			s.mu.Unlock()
			return sess, nil
		}
		if a := s.connecting; a != nil {
			s.mu.Unlock()
			select {
			case <-a.done:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			if a.err == nil {
				return a.sess, nil
			}
			// A connect that failed because its caller gave up says nothing
			// about ours: try again.
			if errors.Is(a.err, context.Canceled) || errors.Is(a.err, context.DeadlineExceeded) {
				if ctx.Err() == nil {
					continue
				}
			}
			return nil, a.err
		}
		a := &attempt{done: make(chan struct{})}
		s.connecting = a
		dead := s.sess
		s.sess = nil
		s.mu.Unlock()

		if dead != nil {
			dead.close()
		}
		sess, err := s.connect(ctx)

		s.mu.Lock()
		s.connecting = nil
		if err == nil && s.closed {
			err = errClosedClient
		}
		if err == nil {
			s.sess = sess
			if s.pinned == "" {
				s.pinned = sess.protocolVersion
			}
		}
		a.sess, a.err = sess, err
		close(a.done)
		s.mu.Unlock()
		if err != nil && sess != nil {
			sess.close()
		}
		if err != nil {
			return nil, err
		}
		return sess, nil
	}
}

// close ends the server's session and waits for a connect in progress,
// which it aborts.
func (s *remote) close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	close(s.closing)
	sess, a := s.sess, s.connecting
	s.sess = nil
	s.mu.Unlock()
	if a != nil {
		<-a.done
	}
	if sess != nil && !s.fixed {
		sess.close()
	}
}
