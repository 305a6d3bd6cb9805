package main

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/guardian-agent/guardian-go/internal/mcpconfig"
)

// writeFileAtomic writes data to path so that path holds either its old
// contents or all of data, never part of it: a temporary file in the
// directory of the file written, synced, then renamed over it.
//
// A symlink is followed: its target is written, and the link stays. A path
// that exists and is not a regular file (a FIFO, a device, a directory) is
// refused rather than replaced, and so is one that is the same file as any
// of inputs (the config being recorded). An existing file keeps its
// permission bits; a new one is 0644.
func writeFileAtomic(path string, data []byte, inputs ...string) (err error) {
	target, err := filepath.EvalSymlinks(path)
	if errors.Is(err, fs.ErrNotExist) {
		if fi, lerr := os.Lstat(path); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
			return errors.New("a symlink to a file that does not exist: refusing to follow it")
		}
		target, err = path, nil
	}
	if err != nil {
		return err
	}
	mode := fs.FileMode(0o644)
	if fi, serr := os.Stat(target); serr == nil {
		if !fi.Mode().IsRegular() {
			return errors.New("not a regular file (" + mcpconfig.FileKind(fi.Mode()) + "): refusing to replace it")
		}
		for _, in := range inputs {
			if ii, err := os.Stat(in); err == nil && os.SameFile(fi, ii) {
				return errors.New("it is " + in + ", the config being read: refusing to overwrite it")
			}
		}
		mode = fi.Mode().Perm()
	} else if !errors.Is(serr, fs.ErrNotExist) {
		return serr
	}
	f, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = f.Close()
			_ = os.Remove(f.Name())
		}
	}()
	if _, err = f.Write(data); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Chmod(mode); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), target)
}
