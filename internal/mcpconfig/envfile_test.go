package mcpconfig

import (
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/guardian-agent/guardian-go/refusals"
)

func TestParseEnvFile(t *testing.T) {
	data := "\ufeff# comment\n" +
		"\n" +
		"PLAIN=value\n" +
		"  SPACED = padded value   \n" +
		"export EXPORTED=1\n" +
		"export=not a prefix\n" +
		"INLINE=before # after\n" +
		"HASH=a#b\n" +
		"EMPTY=\n" +
		"DQ=\"a\\nb\\t\\\"c\\\\ \\x\" # comment\n" +
		"SQ='a\\nb # not a comment'\n" +
		"BQ=`x`\n" +
		"MULTI=\"line1\nline2\"\n" +
		"dotted.key-name=ok\r\n" +
		"PLAIN=overridden\n" +
		"LAST=no newline"
	got, err := ParseEnvFile([]byte(data))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"PLAIN":           "overridden",
		"SPACED":          "padded value",
		"EXPORTED":        "1",
		"export":          "not a prefix",
		"INLINE":          "before",
		"HASH":            "a",
		"EMPTY":           "",
		"DQ":              "a\nb\t\"c\\ \\x",
		"SQ":              "a\\nb # not a comment",
		"BQ":              "x",
		"MULTI":           "line1\nline2",
		"dotted.key-name": "ok",
		"LAST":            "no newline",
	}
	if !maps.Equal(got, want) {
		t.Errorf("ParseEnvFile =\n%q\nwant\n%q", got, want)
	}
}

func TestParseEnvFileErrors(t *testing.T) {
	secret := "sk-" + strings.Repeat("e", 40)
	tests := []struct {
		name      string
		data      string
		line, col int
	}{
		{"no equals", "OK=1\n" + secret + "\n", 2, 44},
		{"no key", "=" + secret, 1, 1},
		{"bad key", "A B=" + secret, 1, 3},
		{"unterminated", "A=1\nB=\"" + secret, 2, 3},
		{"text after quotes", "A='" + secret + "' x", 1, 49},
		{"invalid utf-8", "A=\xff" + secret, 1, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseEnvFile([]byte(tt.data))
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("ParseEnvFile = %v, want an *Error", err)
			}
			if e.Line != tt.line || e.Column != tt.col {
				t.Errorf("at %d:%d, want %d:%d (%v)", e.Line, e.Column, tt.line, tt.col, err)
			}
			if strings.Contains(err.Error(), secret[3:11]) {
				t.Errorf("error quotes the file: %v", err)
			}
			if !errors.Is(err, refusals.ErrInvalid) {
				t.Errorf("not ErrInvalid: %v", err)
			}
		})
	}
}

func TestReadEnvFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), ".env")
	if err := os.WriteFile(p, []byte("A=1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got, err := ReadEnvFile(p); err != nil || got["A"] != "1" {
		t.Errorf("ReadEnvFile = %v, %v", got, err)
	}
	if _, err := ReadEnvFile(p + ".missing"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

func FuzzParseEnvFile(f *testing.F) {
	for _, s := range []string{"A=1\n", "export B='x'\n# c\n", "C=\"a\\n\nb\"", "D", "=", "E=`", "\ufeffF=1 # x\r\n"} {
		f.Add(s)
	}
	secret := "ghp_" + strings.Repeat("F", 36)
	f.Fuzz(func(t *testing.T, s string) {
		for _, data := range []string{s, "K=" + secret + "\n" + s, s + "\nK='" + secret + "'"} {
			m, err := ParseEnvFile([]byte(data))
			if (m == nil) == (err == nil) {
				t.Fatalf("ParseEnvFile = %v, %v: want exactly one", m, err)
			}
			if err != nil {
				var e *Error
				if !errors.As(err, &e) || e.Line < 1 || e.Column < 1 {
					t.Fatalf("bad error %v", err)
				}
				if strings.Contains(err.Error(), secret[4:12]) {
					t.Fatalf("error quotes a value: %v", err)
				}
				continue
			}
			for k := range m {
				if k == "" || strings.ContainsAny(k, " \t\n=#") {
					t.Fatalf("bad key %q", k)
				}
			}
		}
	})
}

func TestReadBounded(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small")
	if err := os.WriteFile(small, []byte("A=1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if data, err := ReadBounded(small, 4); err != nil || string(data) != "A=1\n" {
		t.Errorf("at the limit: %q, %v", data, err)
	}
	var pe *fs.PathError
	if _, err := ReadBounded(small, 3); !errors.As(err, &pe) || pe.Path != small || !strings.Contains(err.Error(), "larger than 3 bytes") {
		t.Errorf("over the limit: %v", err)
	}
	if _, err := ReadBounded(dir, 1<<20); !errors.As(err, &pe) || !strings.Contains(err.Error(), "not a regular file (a directory)") {
		t.Errorf("a directory: %v", err)
	}
	if _, err := ReadEnvFile(dir); err == nil {
		t.Error("ReadEnvFile read a directory")
	}
}
