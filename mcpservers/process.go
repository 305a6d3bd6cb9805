package mcpservers

import (
	"bufio"
	"errors"
	"io"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"time"
)

// process is a stdio server's child process. It is started and stopped here
// rather than by mcp-go, whose stdio transport binds the child's life to the
// context given to Start, has no working directory, and cannot tell us when
// the child exits. mcp-go only reads and writes the pipes (transport.NewIO).
type process struct {
	cmd    *exec.Cmd
	stdin  *os.File // our end of the child's stdin
	stdout *os.File // what mcp-go reads: the child's stdout, relayed
	stderr *os.File // our end of the child's stderr

	// The child's stdout goes through relay, which ends it (EOF on stdout)
	// and kills the child once a line is longer than the bound: mcp-go
	// reads whole lines, and would otherwise hold an endless one.
	childOut   *os.File // our end of the child's stdout
	relayW     *os.File // the write end of stdout
	relayed    sync.WaitGroup
	tooLong    chan struct{} // closed once the child sent a line too long
	tooLongErr error

	exited  chan struct{} // closed once Wait has returned
	waitErr error         // set before exited is closed

	drained  sync.WaitGroup // the stderr drain
	stopping atomic.Bool    // set by stop: the drain reads on, bounded
	stopOnce sync.Once
}

// Shutdown waits, as mcp-go's: stdin closed, then a graceful wait, then
// SIGTERM, then SIGKILL.
const (
	gracefulExit = 2 * time.Second
	termExit     = 2 * time.Second
	// stderrIdleBound is how long stop waits for more of a stderr pipe
	// the server's group no longer holds and a process that left it
	// still does. The bound is on silence: a slow Stderr writer taking
	// lines already written does not count against it.
	stderrIdleBound = time.Second
)

// startProcess starts cfg's command. onExit is called once, on its own
// goroutine, when the child exits.
func startProcess(cfg *connConfig, path string, stderr *lineWriter, onExit func(error)) (*process, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		closeAll(inR, inW)
		return nil, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		closeAll(inR, inW, outR, outW)
		return nil, err
	}
	cmd := &exec.Cmd{
		Path:   path,
		Args:   append([]string{cfg.command}, cfg.args...),
		Env:    childEnv(cfg.env),
		Dir:    cfg.dir,
		Stdin:  inR,
		Stdout: outW,
		Stderr: errW,
	}
	ownProcessGroup(cmd)
	if err := cmd.Start(); err != nil {
		closeAll(inR, inW, outR, outW, errR, errW)
		return nil, err
	}
	// The child holds its ends now; ours would keep EOF from ever coming.
	closeAll(inR, outW, errW)

	relR, relW, err := os.Pipe()
	if err != nil {
		closeAll(inW, outR, errR)
		signalGroup(cmd, true)
		_ = cmd.Wait()
		return nil, err
	}
	p := &process{cmd: cmd, stdin: inW, stdout: relR, stderr: errR, exited: make(chan struct{}),
		childOut: outR, relayW: relW, tooLong: make(chan struct{})}
	p.drained.Add(1)
	go p.drain(stderr, cfg.name)
	p.relayed.Add(1)
	go p.relay(messageBound(cfg))
	go func() {
		p.waitErr = cmd.Wait()
		close(p.exited)
		onExit(p.waitErr)
	}()
	return p, nil
}

// drain keeps the child's stderr pipe empty, so that a chatty server never
// blocks on a full pipe, copying lines to w when there is one.
func (p *process) drain(w *lineWriter, server string) {
	defer p.drained.Done()
	if w == nil {
		_, _ = io.Copy(io.Discard, p.stderr)
		return
	}
	r := bufio.NewReaderSize(p.stderr, 16<<10)
	for {
		line, err := r.ReadSlice('\n')
		if len(line) > 0 {
			w.writeLine(server, line, err == nil)
			if p.stopping.Load() {
				_ = p.stderr.SetReadDeadline(time.Now().Add(stderrIdleBound))
			}
		}
		if err != nil && !errors.Is(err, bufio.ErrBufferFull) {
			return
		}
	}
}

// relay copies the child's stdout to stdout as long as no line is longer
// than bound. Past it, stdout ends and the child is killed; exitError then
// says why.
func (p *process) relay(bound int64) {
	defer p.relayed.Done()
	defer p.relayW.Close()
	lines := &lineCounter{bound: bound}
	buf := make([]byte, 32<<10)
	for {
		n, err := p.childOut.Read(buf)
		k, lerr := lines.feed(buf[:n])
		if _, werr := p.relayW.Write(buf[:k]); werr != nil {
			return
		}
		if lerr != nil {
			p.tooLongErr = lerr
			close(p.tooLong)
			signalGroup(p.cmd, true)
			return
		}
		if err != nil {
			return
		}
	}
}

// exitError describes how the child ended, waiting a moment for it: the
// pipe may close just before the exit status is in.
func (p *process) exitError() error {
	select {
	case <-p.tooLong:
		return p.tooLongErr
	default:
	}
	select {
	case <-p.exited:
		if p.waitErr == nil {
			return errors.New("server exited")
		}
		return errors.New("server exited: " + p.waitErr.Error())
	case <-time.After(200 * time.Millisecond):
		return errors.New("server closed its output")
	}
}

// stop ends the child and everything it started, and waits for them: stdin
// is closed so that a well-behaved server exits by itself, then it is sent
// SIGTERM and SIGKILL in turn; whatever is left of its process group is
// killed too, and the pipes are closed so that no reader is left behind.
func (p *process) stop() {
	p.stopOnce.Do(func() {
		_ = p.stdin.Close()
		select {
		case <-p.exited:
		case <-time.After(gracefulExit):
			signalGroup(p.cmd, false)
			select {
			case <-p.exited:
			case <-time.After(termExit):
				signalGroup(p.cmd, true)
				<-p.exited
			}
		}
		reapGroup(p.cmd)
		_ = p.stdout.Close()
		_ = p.childOut.Close()
		p.relayed.Wait()
		// What the child wrote on stderr last is often why it failed:
		// read it to the end before closing our end, which would drop
		// it. The pipe ends once no process holds it; a process that
		// left the group and keeps it open, writing nothing, gets
		// stderrIdleBound.
		p.stopping.Store(true)
		_ = p.stderr.SetReadDeadline(time.Now().Add(stderrIdleBound))
		p.drained.Wait()
		_ = p.stderr.Close()
	})
}

func closeAll(files ...*os.File) {
	for _, f := range files {
		_ = f.Close()
	}
}

// lineWriter copies the stdio servers' stderr lines to one writer, each
// prefixed with its server's name, one line at a time.
type lineWriter struct {
	mu      sync.Mutex
	w       io.Writer
	midLine map[string]bool
}

func (l *lineWriter) writeLine(server string, b []byte, complete bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.midLine == nil {
		l.midLine = map[string]bool{}
	}
	if !l.midLine[server] {
		_, _ = io.WriteString(l.w, "["+server+"] ")
	}
	_, _ = l.w.Write(b)
	l.midLine[server] = !complete
}
