// Command capture lists the tools of published MCP servers, offline, and
// writes each server's tools/list as the fixtures of secrets' real-world
// tests (secrets/testdata/realworld/tools). It is run by
// secrets/testdata/realworld/regenerate.sh, which installs each package of
// the manifest (servers.json) at its pinned version first; go test never
// runs it and needs no network.
//
// Each server is started over stdio with this module's own client
// (mcpservers), with generated fake credentials in its env and arguments
// as the manifest asks ("fake:PREFIX" is PREFIX and 32 random letters and
// digits, "fake-hex:", "fake-uuid:", "fake-upper:" likewise, "fake-url:"
// a URL with a random password, "$DIR" a fresh directory). Hosts are
// 127.0.0.1 on a closed port, so nothing leaves the machine. A server's
// tools are written only if no fake value, nor any 12-byte piece of one,
// appears in them; the client's own echo check would refuse them too.
//
//	go run ./secrets/internal/realworld/capture -modules DIR [-only PACKAGE]
package main

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/big"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/guardian-agent/guardian-go/internal/mcpconfig"
	"github.com/guardian-agent/guardian-go/mcpservers"
)

// server is one entry of the manifest.
type server struct {
	Package string            `json:"package"`
	Version string            `json:"version"`
	Bin     string            `json:"bin,omitempty"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	// Files are written into the server's directory before it starts
	// (a kubeconfig, a credentials file), name to content.
	Files map[string]string `json:"files,omitempty"`
}

// fixture is what is written for a server.
type fixture struct {
	Package string            `json:"package"`
	Version string            `json:"version"`
	Server  map[string]string `json:"server"`
	Tools   []json.RawMessage `json:"tools"`
}

func main() {
	manifest := flag.String("manifest", "secrets/testdata/realworld/servers.json", "the servers to capture")
	modules := flag.String("modules", "", "the directory holding each package's install (DIR/<slug>/node_modules)")
	out := flag.String("out", "secrets/testdata/realworld/tools", "where the fixtures go")
	only := flag.String("only", "", "capture this package alone")
	timeout := flag.Duration("timeout", 90*time.Second, "bound on one server's start and listing")
	verbose := flag.Bool("v", false, "show the servers' stderr")
	configs := flag.String("configs", "", "instead of listing tools, write the launch configs of the packages' READMEs to this file")
	flag.Parse()
	if *modules == "" {
		fmt.Fprintln(os.Stderr, "capture: -modules is required")
		os.Exit(2)
	}
	b, err := os.ReadFile(*manifest)
	if err != nil {
		fmt.Fprintln(os.Stderr, "capture:", err)
		os.Exit(2)
	}
	var servers []server
	if err := json.Unmarshal(b, &servers); err != nil {
		fmt.Fprintln(os.Stderr, "capture:", *manifest, err)
		os.Exit(2)
	}
	if *configs != "" {
		if err := writeConfigs(servers, *modules, *configs); err != nil {
			fmt.Fprintln(os.Stderr, "capture:", err)
			os.Exit(1)
		}
		return
	}
	failed := 0
	for _, s := range servers {
		if *only != "" && s.Package != *only {
			continue
		}
		stderr := io.Discard
		if *verbose {
			stderr = os.Stderr
		}
		n, err := capture(s, *modules, *out, *timeout, stderr)
		if err != nil {
			failed++
			fmt.Printf("FAIL %s@%s: %v\n", s.Package, s.Version, err)
			continue
		}
		fmt.Printf("ok   %s@%s: %d tools\n", s.Package, s.Version, n)
	}
	if failed > 0 {
		fmt.Printf("%d servers not captured\n", failed)
	}
}

// slug is the file name of a package's fixture and install directory.
func slug(pkg string) string {
	return strings.NewReplacer("@", "", "/", "__").Replace(pkg)
}

func capture(s server, modules, out string, timeout time.Duration, stderr io.Writer) (int, error) {
	root := filepath.Join(modules, slug(s.Package), "node_modules", s.Package)
	bin, err := binOf(root, s.Bin)
	if err != nil {
		return 0, err
	}
	dir, err := os.MkdirTemp("", "capture-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(dir)
	for name, content := range s.Files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o600); err != nil {
			return 0, err
		}
	}
	var fakes []string
	value := func(spec string) string {
		v := expand(spec, dir)
		if strings.HasPrefix(spec, "fake") {
			fakes = append(fakes, secretPart(spec, v))
		}
		return v
	}
	args := []string{bin}
	for _, a := range s.Args {
		args = append(args, value(a))
	}
	env := map[string]string{"HOME": dir, "NODE_NO_WARNINGS": "1"}
	for k, v := range s.Env {
		env[k] = value(v)
	}
	c, err := mcpservers.NewClient(map[string]mcpservers.Connection{
		"server": mcpservers.Stdio{Command: "node", Args: args, Env: env, Dir: dir},
	}, &mcpservers.ClientOptions{DiscoverTimeout: 10 * time.Second, Stderr: stderr})
	if err != nil {
		return 0, err
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	tools, err := c.Tools(ctx)
	if err != nil {
		return 0, err
	}
	if len(tools) == 0 {
		return 0, fmt.Errorf("no tools")
	}
	f := fixture{Package: s.Package, Version: s.Version, Server: map[string]string{}}
	info := tools[0].Server().Implementation
	f.Server["name"], f.Server["version"] = info.Name, info.Version
	for _, t := range tools {
		f.Tools = append(f.Tools, t.Raw())
	}
	b, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return 0, err
	}
	for _, fake := range fakes {
		if leaks(string(b), fake) {
			return 0, fmt.Errorf("a fake credential appears in the tools: not written")
		}
	}
	return len(tools), os.WriteFile(filepath.Join(out, slug(s.Package)+".json"), append(b, '\n'), 0o644)
}

// binOf returns the path of the package's executable: the manifest's bin,
// or the package's only one, or the one named after the package.
func binOf(root, want string) (string, error) {
	b, err := os.ReadFile(filepath.Join(root, "package.json"))
	if err != nil {
		return "", fmt.Errorf("not installed: %w", err)
	}
	var pkg struct {
		Name string          `json:"name"`
		Bin  json.RawMessage `json:"bin"`
	}
	if err := json.Unmarshal(b, &pkg); err != nil {
		return "", err
	}
	var one string
	if json.Unmarshal(pkg.Bin, &one) == nil && one != "" {
		return filepath.Join(root, one), nil
	}
	var bins map[string]string
	if err := json.Unmarshal(pkg.Bin, &bins); err != nil || len(bins) == 0 {
		return "", fmt.Errorf("package %s has no bin", pkg.Name)
	}
	if want != "" {
		if p, ok := bins[want]; ok {
			return filepath.Join(root, p), nil
		}
		return "", fmt.Errorf("package %s has no bin %q", pkg.Name, want)
	}
	base := pkg.Name[strings.LastIndexByte(pkg.Name, '/')+1:]
	if p, ok := bins[base]; ok || len(bins) == 1 {
		if !ok {
			for _, v := range bins {
				p = v
			}
		}
		return filepath.Join(root, p), nil
	}
	names := make([]string, 0, len(bins))
	for k := range bins {
		names = append(names, k)
	}
	sort.Strings(names)
	return "", fmt.Errorf("package %s has bins %v: name one in the manifest", pkg.Name, names)
}

// expand makes a manifest value: fake credentials generated, $DIR the
// server's directory.
func expand(spec, dir string) string {
	kind, prefix, ok := strings.Cut(spec, ":")
	switch {
	case !ok:
	case kind == "fake":
		return prefix + random("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", 32)
	case kind == "fake-hex":
		return prefix + random("0123456789abcdef", 32)
	case kind == "fake-upper":
		return prefix + random("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16)
	case kind == "fake-uuid":
		h := random("0123456789abcdef", 32)
		return prefix + h[:8] + "-" + h[8:12] + "-4" + h[13:16] + "-8" + h[17:20] + "-" + h[20:]
	case kind == "fake-url":
		// prefix is "scheme://user:@host…": the password goes before '@'.
		at := strings.Index(prefix, ":@")
		if at < 0 {
			return prefix
		}
		return prefix[:at+1] + random("abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789", 20) + prefix[at+1:]
	}
	return strings.ReplaceAll(spec, "$DIR", dir)
}

// secretPart is what of a generated value v (made from spec) is secret:
// the random part, without the spec's fixed prefix or URL around it.
func secretPart(spec, v string) string {
	kind, prefix, _ := strings.Cut(spec, ":")
	if kind == "fake-url" {
		at := strings.Index(prefix, ":@")
		return v[at+1 : at+1+20]
	}
	return strings.TrimPrefix(v, prefix)
}

// leaks reports whether text holds fake, or a 12-byte piece of it.
func leaks(text, fake string) bool {
	if len(fake) < 12 {
		return strings.Contains(text, fake)
	}
	for i := 0; i+12 <= len(fake); i++ {
		if strings.Contains(text, fake[i:i+12]) {
			return true
		}
	}
	return false
}

func random(set string, n int) string {
	b := make([]byte, n)
	for i := range b {
		k, err := rand.Int(rand.Reader, big.NewInt(int64(len(set))))
		if err != nil {
			panic(err)
		}
		b[i] = set[k.Int64()]
	}
	return string(b)
}

// launch is a README config's server as a definition records it.
type launch struct {
	Command string   `json:"command,omitempty"`
	Args    []string `json:"args,omitempty"`
	URL     string   `json:"url,omitempty"`
}

type readmeConfigs struct {
	Package string   `json:"package"`
	Version string   `json:"version"`
	Servers []launch `json:"servers"`
}

// writeConfigs reads each installed package's README.md and writes the
// launch configs of its JSON code blocks (a client config, or a server
// entry or a map of them standing alone), as written: placeholders,
// references and all.
func writeConfigs(servers []server, modules, file string) error {
	var out []readmeConfigs
	for _, s := range servers {
		b, err := os.ReadFile(filepath.Join(modules, slug(s.Package), "node_modules", s.Package, "README.md"))
		if err != nil {
			fmt.Printf("skip %s: %v\n", s.Package, err)
			continue
		}
		rc := readmeConfigs{Package: s.Package, Version: s.Version}
		seen := map[string]bool{}
		for _, block := range codeBlocks(string(b)) {
			for _, l := range launches(block) {
				k := fmt.Sprintf("%q", l)
				if !seen[k] {
					seen[k] = true
					rc.Servers = append(rc.Servers, l)
				}
			}
		}
		if len(rc.Servers) > 0 {
			out = append(out, rc)
		}
		fmt.Printf("%s: %d configs\n", s.Package, len(rc.Servers))
	}
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(file, append(b, '\n'), 0o644)
}

// codeBlocks returns the fenced code blocks of a Markdown text that may
// hold a launch config.
func codeBlocks(md string) []string {
	var out []string
	lines := strings.Split(md, "\n")
	for i := 0; i < len(lines); i++ {
		if !strings.HasPrefix(strings.TrimSpace(lines[i]), "```") {
			continue
		}
		var b strings.Builder
		j := i + 1
		for ; j < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[j]), "```"); j++ {
			b.WriteString(lines[j])
			b.WriteByte('\n')
		}
		if t := b.String(); strings.Contains(t, `"command"`) || strings.Contains(t, `"url"`) || strings.Contains(t, `"serverUrl"`) {
			out = append(out, t)
		}
		i = j
	}
	return out
}

// launches parses a code block as a client config, or wrapped as one.
func launches(block string) []launch {
	for _, text := range []string{block, "{" + block + "}", `{"mcpServers": {` + block + `}}`, `{"mcpServers": {"x": ` + block + `}}`} {
		cfg, err := mcpconfig.ParseAll([]byte(text))
		if err != nil || cfg == nil || len(cfg.Servers) == 0 {
			continue
		}
		var out []launch
		for _, s := range cfg.Servers {
			out = append(out, launch{Command: s.Command, Args: s.Args, URL: s.URL})
		}
		return out
	}
	return nil
}
