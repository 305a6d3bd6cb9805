package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// openPTY opens a pseudo-terminal pair, as openpty(3) does.
func openPTY() (master, slave *os.File, err error) {
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		return nil, nil, err
	}
	var unlock int32
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, m.Fd(), syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); errno != 0 {
		m.Close()
		return nil, nil, errno
	}
	var n uint32
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, m.Fd(), syscall.TIOCGPTN, uintptr(unsafe.Pointer(&n))); errno != 0 {
		m.Close()
		return nil, nil, errno
	}
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		m.Close()
		return nil, nil, err
	}
	return m, s, nil
}

func TestIsTerminal(t *testing.T) {
	m, s, err := openPTY()
	if errors.Is(err, fs.ErrNotExist) {
		t.Skip("no /dev/ptmx on this machine:", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	defer s.Close()
	if !isTerminal(s) {
		t.Errorf("a pseudo-terminal is not a terminal")
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	if isTerminal(w) || isTerminal(null) {
		t.Errorf("a pipe or %s is a terminal", os.DevNull)
	}
}

// TestProgressOnTerminal runs the binary with its stderr on a real
// terminal: progress lines appear there, and the document still goes to
// stdout alone.
func TestProgressOnTerminal(t *testing.T) {
	m, s, err := openPTY()
	if errors.Is(err, fs.ErrNotExist) {
		t.Skip("no /dev/ptmx on this machine:", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	dir := workspace(t)
	bin, _ := binaries(t)
	cmd := exec.Command(bin, "record", "mcp.json")
	cmd.Dir = dir
	cmd.Env = testEnv()
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, s
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s.Close() // the child holds it now
	var tty bytes.Buffer
	read := make(chan struct{})
	go func() {
		// Reading the master ends with EIO once the child has exited.
		_, _ = io.Copy(&tty, m)
		close(read)
	}()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("record: %v\n%s", err, tty.String())
	}
	select {
	case <-read:
	case <-time.After(10 * time.Second):
		t.Fatal("the terminal did not close")
	}
	got := strings.ReplaceAll(tty.String(), "\r\n", "\n")
	for _, want := range []string{"guardian record: \"docs\": connecting\n", "guardian record: \"docs\": 5 tools\n", "guardian record: agent \"mcp\": 5 tools from 1 server"} {
		if !strings.Contains(got, want) {
			t.Errorf("terminal lacks %q:\n%s", want, got)
		}
	}
	if !strings.HasPrefix(out.String(), "{\n") || strings.Contains(out.String(), "connecting") {
		t.Errorf("stdout is not the document alone:\n%s", out.String())
	}
}
