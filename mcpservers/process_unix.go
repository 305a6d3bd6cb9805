//go:build unix

package mcpservers

import (
	"os/exec"
	"syscall"
	"time"
)

// ownProcessGroup starts the child in a process group of its own, so that
// stopping it reaches what it starts (npx starts node, a shell starts
// anything).
func ownProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// signalGroup sends SIGTERM, or SIGKILL, to the child's process group.
func signalGroup(cmd *exec.Cmd, kill bool) {
	sig := syscall.SIGTERM
	if kill {
		sig = syscall.SIGKILL
	}
	_ = syscall.Kill(-cmd.Process.Pid, sig)
}

// reapGroup ends what is left of the child's process group once the child
// has exited: a grandchild that outlives it would otherwise run on with
// nobody to stop it. The group's ID stays reserved while any member lives,
// so the signals reach only the group.
func reapGroup(cmd *exec.Cmd) {
	pgid := cmd.Process.Pid
	if !groupLive(pgid) {
		return
	}
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
	deadline := time.Now().Add(termExit)
	for time.Now().Before(deadline) {
		if !groupLive(pgid) {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
}
