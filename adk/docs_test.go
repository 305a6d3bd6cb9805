package adk_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDocSnippetsCompile: every Go snippet of docs/adk.md is code of this
// module that compiles: its lines (comments and blank lines aside) appear,
// in order and together, in one of the module's Go files, which go vet and
// go test build.
func TestDocSnippetsCompile(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "adk.md"))
	if err != nil {
		t.Fatal(err)
	}
	var sources []string
	err = filepath.WalkDir(".", func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".go") {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			sources = append(sources, "\n"+strings.Join(codeLines(string(b)), "\n")+"\n")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	snippets := goSnippets(string(doc))
	if len(snippets) == 0 {
		t.Fatal("no Go snippets in docs/adk.md")
	}
	for _, s := range snippets {
		want := "\n" + strings.Join(codeLines(s), "\n") + "\n"
		found := false
		for _, src := range sources {
			if strings.Contains(src, want) {
				found = true
				break
			}
		}
		if !found {
			t.Errorf("this snippet of docs/adk.md is not code of the module:\n%s", s)
		}
	}
}

// goSnippets are the ```go blocks of a Markdown document.
func goSnippets(doc string) []string {
	var out []string
	var cur []string
	in := false
	for _, line := range strings.Split(doc, "\n") {
		switch {
		case !in && strings.TrimSpace(line) == "```go":
			in, cur = true, nil
		case in && strings.TrimSpace(line) == "```":
			in = false
			out = append(out, strings.Join(cur, "\n"))
		case in:
			cur = append(cur, line)
		}
	}
	return out
}

// codeLines are text's lines, trimmed, without blank lines and comment
// lines.
func codeLines(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		l := strings.TrimSpace(line)
		if l == "" || strings.HasPrefix(l, "//") {
			continue
		}
		out = append(out, l)
	}
	return out
}
