package mcpservers_test

// Interop with @modelcontextprotocol/server-filesystem over stdio, on a
// temporary directory.

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/guardian-agent/guardian-go/mcpservers"
)

// fsFixture is a temporary directory with a few files in it.
type fsFixture struct {
	dir   string // the real path: the server resolves symlinks
	notes string
	wav   []byte
}

func newFSFixture(t *testing.T) *fsFixture {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	f := &fsFixture{
		dir:   dir,
		notes: "line one\nline two: ünïcödé & <angle>\n",
		// The smallest WAV header: the server only looks at the extension.
		wav: []byte("RIFF$\x00\x00\x00WAVEfmt \x10\x00\x00\x00\x01\x00\x01\x00\x40\x1f\x00\x00\x80\x3e\x00\x00\x02\x00\x10\x00data\x00\x00\x00\x00"),
	}
	for name, data := range map[string][]byte{
		"notes.txt": []byte(f.notes),
		"sound.wav": f.wav,
		"data.bin":  {0, 1, 2, 3, 254, 255},
	} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

func (f *fsFixture) path(name string) string { return filepath.Join(f.dir, name) }

func TestInteropFilesystem(t *testing.T) {
	bin := npmServer(t, "mcp-server-filesystem")
	marker := checkClean(t)
	f := newFSFixture(t)
	rec := newStdioRecorder(t)
	c, err := mcpservers.NewClient(map[string]mcpservers.Connection{
		"files": rec.wrap(t, mcpservers.Stdio{Command: bin, Args: []string{f.dir}, Env: map[string]string{markerEnv: marker}}),
	}, &mcpservers.ClientOptions{Stderr: newLineWriter(t, "server stderr: ")})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := testContext(t, 60*time.Second)
	tools, err := c.Tools(ctx)
	if err != nil {
		t.Fatalf("Tools: %v", err)
	}

	t.Run("tools_match_the_wire", func(t *testing.T) {
		log := rec.log(t)
		assertToolsMatch(t, tools, log.toolListing(t), true)
		checkTranscript(t, "filesystem-stdio", log)
		initParams, _ := log.initialize(t)
		var ip struct {
			Capabilities json.RawMessage `json:"capabilities"`
		}
		if err := json.Unmarshal(initParams, &ip); err != nil {
			t.Fatal(err)
		}
		raw := dialRawStdio(t, bin, []string{f.dir}, parentEnv(nil))
		if _, err := rawInitialize(ctx, raw, ip.Capabilities); err != nil {
			t.Fatal(err)
		}
		rawTools, err := rawListTools(ctx, raw)
		if err != nil {
			t.Fatal(err)
		}
		assertToolsMatch(t, tools, rawTools, false)
	})

	byName := toolsIndex(tools)
	call := func(t *testing.T, name string, args map[string]any) *mcpservers.Result {
		t.Helper()
		tool := byName[name]
		if tool == nil {
			t.Fatalf("server-filesystem offers no tool %q", name)
		}
		r, err := tool.Call(ctx, args)
		if err != nil {
			t.Fatalf("Call(%q): %v", name, err)
		}
		assertResultMatchesWire(t, rec.log(t), name, r)
		return r
	}
	// The filesystem tools answer with text and the same text as
	// {"content": text}.
	wantContent := func(t *testing.T, r *mcpservers.Result, want string) {
		t.Helper()
		if r.IsError || r.Text() != want {
			t.Errorf("IsError = %v, Text() = %q, want %q", r.IsError, r.Text(), want)
		}
		b, _ := json.Marshal(map[string]string{"content": want})
		if !sameJSON(r.StructuredContent, b) {
			t.Errorf("StructuredContent = %s, want %s", r.StructuredContent, b)
		}
	}

	t.Run("read_text_file", func(t *testing.T) {
		wantContent(t, call(t, "read_text_file", map[string]any{"path": f.path("notes.txt")}), f.notes)
	})
	t.Run("read_text_file_head", func(t *testing.T) {
		wantContent(t, call(t, "read_text_file", map[string]any{"path": f.path("notes.txt"), "head": 1}), "line one")
	})
	t.Run("write_file", func(t *testing.T) {
		p := f.path("written.txt")
		wantContent(t, call(t, "write_file", map[string]any{"path": p, "content": "written by the server"}), "Successfully wrote to "+p)
		got, err := os.ReadFile(p)
		if err != nil || string(got) != "written by the server" {
			t.Errorf("file on disk = %q, %v", got, err)
		}
		wantContent(t, call(t, "read_text_file", map[string]any{"path": p}), "written by the server")
	})
	t.Run("list_directory", func(t *testing.T) {
		r := call(t, "list_directory", map[string]any{"path": f.dir})
		for _, want := range []string{"[FILE] notes.txt", "[FILE] sound.wav", "[FILE] data.bin"} {
			if !strings.Contains(r.Text(), want) {
				t.Errorf("listing %q lacks %q", r.Text(), want)
			}
		}
	})
	t.Run("audio", func(t *testing.T) {
		r := call(t, "read_media_file", map[string]any{"path": f.path("sound.wav")})
		if len(r.Content) != 1 {
			t.Fatalf("content = %#v, want one audio block", r.Content)
		}
		a, ok := r.Content[0].(*mcpservers.AudioContent)
		if !ok || a.MIMEType != "audio/wav" || a.Data != base64.StdEncoding.EncodeToString(f.wav) {
			t.Errorf("block = %#v, want the WAV file as audio/wav", r.Content[0])
		}
	})
	t.Run("embedded_blob", func(t *testing.T) {
		r := call(t, "read_media_file", map[string]any{"path": f.path("data.bin")})
		res, ok := r.Content[0].(*mcpservers.EmbeddedResource)
		if !ok || res.Resource.Blob != base64.StdEncoding.EncodeToString([]byte{0, 1, 2, 3, 254, 255}) ||
			res.Resource.MIMEType != "application/octet-stream" || res.Resource.URI != "file://"+f.path("data.bin") {
			t.Errorf("block = %#v, want data.bin as an embedded blob", r.Content[0])
		}
	})
	t.Run("outside_the_directory_is_a_tool_error", func(t *testing.T) {
		outside := filepath.Join(filepath.Dir(f.dir), "elsewhere.txt")
		r := call(t, "read_text_file", map[string]any{"path": outside})
		if !r.IsError || !strings.Contains(r.Text(), "Access denied") {
			t.Errorf("IsError = %v, Text() = %q; want access denied", r.IsError, r.Text())
		}
	})
}

// TestInteropFilesystemRoots gives server-filesystem its directory through
// the roots handler instead of its arguments: the server asks for the roots
// once initialized, and then works in them.
func TestInteropFilesystemRoots(t *testing.T) {
	bin := npmServer(t, "mcp-server-filesystem")
	marker := checkClean(t)
	args, viaRoots := newFSFixture(t), newFSFixture(t)
	roots := mcpservers.RootsHandlerFunc(func(_ context.Context, req *mcpservers.RootsRequest) ([]mcpservers.Root, error) {
		return []mcpservers.Root{{URI: "file://" + viaRoots.dir, Name: "fixture"}}, nil
	})
	c, err := mcpservers.NewClient(map[string]mcpservers.Connection{
		"files": mcpservers.Stdio{Command: bin, Args: []string{args.dir}, Env: map[string]string{markerEnv: marker}},
	}, &mcpservers.ClientOptions{Roots: roots, Stderr: newLineWriter(t, "server stderr: ")})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := testContext(t, 60*time.Second)
	tools := toolsByName(t, c)
	list := tools["list_allowed_directories"]
	if list == nil {
		t.Fatal("no list_allowed_directories tool")
	}
	// The server asks for the roots asynchronously after initialization.
	var last string
	ok := waitFor(10*time.Second, func() bool {
		r, err := list.Call(ctx, map[string]any{})
		if err != nil {
			t.Fatalf("list_allowed_directories: %v", err)
		}
		last = r.Text()
		return strings.Contains(last, viaRoots.dir)
	})
	if !ok {
		t.Fatalf("allowed directories = %q, want the root %q the handler gave", last, viaRoots.dir)
	}
	r, err := tools["read_text_file"].Call(ctx, map[string]any{"path": viaRoots.path("notes.txt")})
	if err != nil || r.IsError || r.Text() != viaRoots.notes {
		t.Errorf("reading in the root: %+v, %v", r, err)
	}
}
