//go:build unix && !linux

package mcpservers

import "syscall"

// groupLive reports whether a process group has a member left.
func groupLive(pgid int) bool { return syscall.Kill(-pgid, 0) == nil }
