package secrets_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/guardian-agent/guardian-go/secrets"
)

// A typical launch config: a docker-run line with env references, a
// package, flags, a URL and a path. It is clean, so the benchmark measures
// the common case: every rule run, nothing found.
var typicalArgs = []string{
	"run", "-i", "--rm", "-e", "GITHUB_PERSONAL_ACCESS_TOKEN", "-e", "GITHUB_TOOLSETS=repos,issues",
	"--network", "host", "ghcr.io/github/github-mcp-server:v0.5.0", "stdio",
	"--port", "8080", "--max-tokens", "1000", "--api-key", "${API_KEY}",
	"--base-url", "https://api.example.com/v1?region=eu-west-1", "/Users/me/projects",
}

func BenchmarkCheckArgsTypical(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if err := secrets.CheckArgs("/mcpServers/github/args", typicalArgs); err != nil {
			b.Fatal(err)
		}
	}
}

// CheckStdio with a command that gives no flag a meaning: one reading of
// the arguments, as CheckArgs.
func BenchmarkCheckStdioTypical(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if err := secrets.CheckStdio("/mcpServers/github", "npx", typicalArgs); err != nil {
			b.Fatal(err)
		}
	}
}

// CheckStdio with docker, a program with a password flag (login -p): the
// arguments are read twice, with and without the command.
func BenchmarkCheckStdioDocker(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if err := secrets.CheckStdio("/mcpServers/github", "docker", typicalArgs); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCheckArgsDirty(b *testing.B) {
	args := append([]string(nil), typicalArgs...)
	args[16] = "sk-" + strings.Repeat("Ab3d", 12)
	b.ReportAllocs()
	for b.Loop() {
		if err := secrets.CheckArgs("/mcpServers/github/args", args); err == nil {
			b.Fatal("not refused")
		}
	}
}

func BenchmarkCheckURL(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if err := secrets.CheckURL("/mcpServers/docs/url", "https://mcp.example.com/v1/sse?region=eu&tenant=acme"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCheckCommand(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if err := secrets.CheckCommand("/mcpServers/x/command", "/usr/local/bin/npx"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCheckArgsMegabyte(b *testing.B) {
	arg := strings.Repeat("word ", 200000)
	b.SetBytes(int64(len(arg)))
	b.ReportAllocs()
	for b.Loop() {
		_ = secrets.CheckArgs("/a", []string{arg})
	}
}

// BenchmarkCheckText is a tool description of typical length, clean.
func BenchmarkCheckText(b *testing.B) {
	text := "Search the internal documentation for pages matching a query. Returns up to ten results with titles, URLs and a short excerpt of each page."
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		if err := secrets.CheckText("/description", text); err != nil {
			b.Fatal(err)
		}
	}
}

// Credentials on typical env values, to set beside CheckArgs reading the
// same values as arguments (the plain alternative: one check each).
var typicalEnv = []string{
	"postgres://app:${DB_PASSWORD}@db.example.com:5432/app?sslmode=require",
	"Server=db;Database=app;User Id=sa;Password=" + fit("Hunter2024x", 11) + ";",
	`{"Authorization": "Bearer ` + fake.notion + `", "Notion-Version": "2022-06-28"}`,
	"eu-west-1", "https://api.example.com/v1", "/run/secrets/token",
}

func BenchmarkCredentials(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		for _, v := range typicalEnv {
			_ = secrets.Credentials(v)
		}
	}
}

func BenchmarkCredentialsCheckArgs(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		for _, v := range typicalEnv {
			_ = secrets.CheckArgs("/env", []string{v})
		}
	}
}

// A long tool description of the kind real servers publish: prose,
// identifiers, a URL, an ID and a digest, clean. Repeated to 64 KiB, it
// measures CheckText's throughput on prose.
var longDescription = strings.Repeat("Creates or updates a page in the workspace. Use list_pages first to find "+
	"the parent (e.g. https://www.notion.so/Team-Notes-"+fit("0123456789abcdef", 32)+"), then pass its page_id "+
	"such as "+fit("3f2a9c1e", 8)+"-"+fit("7b4d", 4)+"-4"+fit("1a2", 3)+"-8"+fit("c3e", 3)+"-"+fit("9d8e7f6a5b4c", 12)+
	". Returns {\"id\": string, \"url\": string, \"last_edited_time\": \"2024-05-01T12:00:00Z\"}; "+
	"commit "+fit("9fceb02d0ae598e95dc970b74767f19372d61af8", 40)+" introduced the `archived` flag (v2.3.1-beta.4). ", 200)

func BenchmarkCheckTextLong(b *testing.B) {
	b.SetBytes(int64(len(longDescription)))
	b.ReportAllocs()
	for b.Loop() {
		if err := secrets.CheckText("/description", longDescription); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCheckTextHostile is CheckText on text made of the openers of
// issue 19's scans repeated (prefixes and header lines), at 64 KiB and
// 1 MiB: equal MB/s at both sizes is the linear cost.
func BenchmarkCheckTextHostile(b *testing.B) {
	for _, unit := range []string{"abc_", "ab-cd_x_Ab3 ", "Authorization: Token ", "X-Acme-Key: 0a1b ", "dead_beef-"} {
		for _, size := range []int{64 << 10, 1 << 20} {
			text := fit(unit, size)
			b.Run(fmt.Sprintf("%q/%dKiB", unit, size>>10), func(b *testing.B) {
				b.SetBytes(int64(len(text)))
				for b.Loop() {
					_ = secrets.CheckText("/t", text)
				}
			})
		}
	}
}
