package mcpservers

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
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

var errCommandNotFound = errors.New("command not found")

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
		if !executable(path) {
			return "", errCommandNotFound
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
