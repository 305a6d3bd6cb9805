package mcpservers

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"

	"github.com/guardian-agent/guardian-go/internal/redact"
)

// inheritedEnv lists the variables a stdio server inherits from this
// process: the TypeScript MCP SDK's DEFAULT_INHERITED_ENV_VARS, which the
// Python SDK shares. Anything else must be given in Stdio.Env.
func inheritedEnv() []string {
	if runtime.GOOS == "windows" {
		return []string{
			"APPDATA", "HOMEDRIVE", "HOMEPATH", "LOCALAPPDATA", "PATH", "PROCESSOR_ARCHITECTURE",
			"SYSTEMDRIVE", "SYSTEMROOT", "TEMP", "USERNAME", "USERPROFILE", "PROGRAMFILES",
		}
	}
	return []string{"HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"}
}

// childEnv is the environment of a stdio server: the inherited subset,
// overlaid with env, in a fixed order.
func childEnv(env map[string]string) []string {
	out := make([]string, 0, len(env)+8)
	for _, k := range inheritedEnv() {
		if _, ok := env[k]; ok {
			continue
		}
		// Like the SDKs, skip exported shell functions ("() { ... }").
		if v, ok := os.LookupEnv(k); ok && !strings.HasPrefix(v, "()") {
			out = append(out, k+"="+v)
		}
	}
	for _, k := range sortedKeys(env) {
		out = append(out, k+"="+env[k])
	}
	return out
}

// Why a stdio server cannot be started, said as it is: exec reports a
// working directory it cannot enter as the program missing, and a script
// whose interpreter is missing the same way. The messages quote no path:
// Dir and the resolved command are machine-dependent (and a command line
// is the user's to print).
var (
	errCommandNotFound      = errors.New("command not found")
	errCommandIsDir         = errors.New("the command is a directory")
	errCommandNotExecutable = errors.New("the command is not executable")
	errDirMissing           = errors.New("the working directory (cwd) does not exist")
	errDirNotDir            = errors.New("the working directory (cwd) is not a directory")
	errDirUnusable          = errors.New("the working directory (cwd) cannot be entered")
)

// startError is one of the errors above with the error it was found by
// (an *fs.PathError, so that errors.Is(err, fs.ErrNotExist) holds), which
// it does not print.
type startError struct{ what, cause error }

func (e *startError) Error() string   { return e.what.Error() }
func (e *startError) Unwrap() []error { return []error{e.what, e.cause} }

// checkDir says why dir cannot be a stdio server's working directory, or
// nil; "" is the current directory.
func checkDir(dir string) error {
	if dir == "" {
		return nil
	}
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return &startError{errDirMissing, err}
	case errors.Is(err, syscall.ENOTDIR):
		return &startError{errDirNotDir, err}
	case err != nil:
		return &startError{errDirUnusable, err}
	case !fi.IsDir():
		return &startError{errDirNotDir, &fs.PathError{Op: "stat", Path: dir, Err: syscall.ENOTDIR}}
	}
	return nil
}

// describeStart says why starting a resolved command failed, without its
// path (exec's errors quote it).
func describeStart(red *redact.Redactor, err error) string {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		// The file is there (it was resolved) and so is Dir (checked).
		return "the command exists but cannot be run: its interpreter (the #! line) or dynamic loader was not found"
	case errors.Is(err, syscall.ENOEXEC):
		return "the command is not a program this system can run (exec format error)"
	case errors.Is(err, fs.ErrPermission):
		return "permission denied: the command, its interpreter or the working directory cannot be used"
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return red.Describe(pe.Err)
	}
	return red.Describe(err)
}

// resolveCommand finds the program a Stdio connection runs, as documented
// on Stdio: a bare name in the child's PATH, a relative path against dir (or
// the current directory), an absolute path as is.
func resolveCommand(command, dir string, env map[string]string) (string, error) {
	if strings.ContainsRune(command, '/') || (runtime.GOOS == "windows" && strings.ContainsRune(command, '\\')) {
		path := command
		if !filepath.IsAbs(path) {
			base := dir
			if base == "" {
				wd, err := os.Getwd()
				if err != nil {
					return "", err
				}
				base = wd
			}
			path = filepath.Join(base, path)
		}
		fi, err := os.Stat(path)
		switch {
		case err != nil:
			return "", &startError{errCommandNotFound, err}
		case fi.IsDir():
			return "", errCommandIsDir
		case !executable(path):
			return "", errCommandNotExecutable
		}
		return path, nil
	}
	pathList, ok := env["PATH"]
	if !ok {
		pathList = os.Getenv("PATH")
	}
	for _, d := range filepath.SplitList(pathList) {
		// Relative PATH entries would resolve against a directory the
		// configuration does not show; os/exec refuses them too (ErrDot).
		if d == "" || !filepath.IsAbs(d) {
			continue
		}
		for _, name := range candidates(command) {
			if p := filepath.Join(d, name); executable(p) {
				return p, nil
			}
		}
	}
	return "", errCommandNotFound
}

// candidates are the file names a bare command may have: on Windows, with
// each of PATHEXT's extensions.
func candidates(command string) []string {
	if runtime.GOOS != "windows" || filepath.Ext(command) != "" {
		return []string{command}
	}
	exts := os.Getenv("PATHEXT")
	if exts == "" {
		exts = ".com;.exe;.bat;.cmd"
	}
	var out []string
	for _, e := range strings.Split(exts, ";") {
		if e != "" {
			out = append(out, command+strings.ToLower(e))
		}
	}
	return out
}

func executable(path string) bool {
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	return runtime.GOOS == "windows" || fi.Mode().Perm()&0o111 != 0
}
