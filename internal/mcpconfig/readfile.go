package mcpconfig

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// The most ReadBounded reads of each kind of file: a config or a
// definition document (MaxFileSize), an envFile (MaxEnvFileSize).
const (
	MaxFileSize    = 64 << 20 // 64 MiB
	MaxEnvFileSize = 1 << 20  // 1 MiB
)

// ReadBounded reads the file name, which must be a regular file (after
// following symlinks) of at most limit bytes, whose contents are as long
// as the system says it is. Anything else is refused before it is read, so
// that a FIFO cannot block the reader and a device such as /dev/zero or a
// huge file cannot exhaust its memory; and a file whose size the system
// does not know — /proc/self/environ and the other files of /proc and
// /sys, which are made as they are read and report a size of 0 or 4096 —
// is refused once read, as is a file that changed while it was read: it is
// not a file of the user's. Every error is an *fs.PathError naming the
// file, never quoting its contents.
func ReadBounded(name string, limit int64) ([]byte, error) {
	// Stat first: opening a FIFO blocks until a writer opens it.
	fi, err := os.Stat(name)
	if err != nil {
		return nil, err
	}
	if err := checkRegular(name, fi, limit); err != nil {
		return nil, err
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// The file opened may not be the file stat'ed.
	ofi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if err := checkRegular(name, ofi, limit); err != nil {
		return nil, err
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit { // it grew while being read
		return nil, tooLarge(name, limit)
	}
	if int64(len(data)) != ofi.Size() {
		return nil, &fs.PathError{Op: "read", Path: name, Err: errors.New("not a regular file (its contents are not the size the system reports: a file of /proc or /sys, or one that changed while it was read)")}
	}
	return data, nil
}

func checkRegular(name string, fi fs.FileInfo, limit int64) error {
	if !fi.Mode().IsRegular() {
		return &fs.PathError{Op: "read", Path: name, Err: errors.New("not a regular file (" + FileKind(fi.Mode()) + ")")}
	}
	if fi.Size() > limit {
		return tooLarge(name, limit)
	}
	return nil
}

func tooLarge(name string, limit int64) error {
	return &fs.PathError{Op: "read", Path: name, Err: fmt.Errorf("larger than %s, the most guardian reads", sizeString(limit))}
}

func sizeString(n int64) string {
	if n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

// FileKind names what a file that is not a regular one is, for messages
// that refuse it.
func FileKind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "not a regular file"
}
