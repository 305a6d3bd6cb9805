//go:build !unix

package mcpservers

import "os/exec"

// Without process groups, stopping reaches the child only.

func ownProcessGroup(cmd *exec.Cmd) {}

func signalGroup(cmd *exec.Cmd, kill bool) {
	_ = cmd.Process.Kill()
}

func reapGroup(cmd *exec.Cmd) {}
