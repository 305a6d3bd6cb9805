package names

import (
	"errors"
	"strings"
	"testing"

	"github.com/guardian-agent/guardian-go/refusals"
)

// fakeGitHubToken is a token of GitHub's shape, built here so that no
// literal one is in the repository; its body is varied, as a real one is.
func fakeGitHubToken() string {
	return "ghp_" + strings.Repeat("Zq8Lm3Vx4Rb7", 3)
}

func TestHoldsCredential(t *testing.T) {
	tok := fakeGitHubToken()
	for _, s := range []string{tok, "Authorization: Bearer " + tok, "x-" + tok, "API_KEY=" + "q7Lk2Vx9Rb4Tz8Mw3Np6", "postgres://u:" + "pw1234@db/app"} {
		if !HoldsCredential(s) {
			t.Errorf("HoldsCredential(credential #%d) = false", len(s))
		}
	}
	for _, s := range []string{"", "github", "GITHUB_TOKEN", "Authorization", "api_key", "create_token", "user-profile/update", "my server", "检索文档"} {
		if HoldsCredential(s) {
			t.Errorf("HoldsCredential(%q) = true", s)
		}
	}
}

func TestStandIns(t *testing.T) {
	tok := fakeGitHubToken()
	if got := Token("github", 3); got != "github" {
		t.Errorf("Token(plain) = %q", got)
	}
	if got := Token(tok, 3); got != "<member 3>" {
		t.Errorf("Token(credential, 3) = %q", got)
	}
	if got := Token(tok, -1); got != Withheld {
		t.Errorf("Token(credential, -1) = %q", got)
	}
	if got := Append("/mcpServers", "a/b", 0); got != "/mcpServers/a~1b" {
		t.Errorf("Append(plain) = %q", got)
	}
	if got := Append("/mcpServers/gh/headers", "Authorization: Bearer "+tok, 1); got != "/mcpServers/gh/headers/<member 1>" {
		t.Errorf("Append(credential) = %q", got)
	}
	if got := Pointer(refusals.Pointer("tools", "0", tok, "x")); got != "/tools/0/<withheld>/x" {
		t.Errorf("Pointer = %q", got)
	}
	if got := Pointer("/tools/0/name"); got != "/tools/0/name" {
		t.Errorf("Pointer(plain) = %q", got)
	}
	if got := Pointer("not a pointer " + tok); got != Withheld {
		t.Errorf("Pointer(malformed credential) = %q", got)
	}
	if n, ok := MemberIndex(Member(12)); !ok || n != 12 {
		t.Errorf("MemberIndex(Member(12)) = %d, %v", n, ok)
	}
	for _, bad := range []string{"<member >", "<member -1>", "<member 01>", "member 1", "<member 1", Withheld} {
		if _, ok := MemberIndex(bad); ok {
			t.Errorf("MemberIndex(%q) is a stand-in", bad)
		}
	}
	if got := Subject(tok); got != Withheld {
		t.Errorf("Subject(credential) = %q", got)
	}
	if got := Subject("docs"); got != "docs" {
		t.Errorf("Subject(plain) = %q", got)
	}
	for _, p := range []string{Append("", tok, 2), Pointer("/" + tok)} {
		if _, err := refusals.Tokens(p); err != nil {
			t.Errorf("stand-in pointer %q does not parse", p)
		}
	}
}

func TestCheck(t *testing.T) {
	tok := fakeGitHubToken()
	errs := Check("/mcpServers/0/name", tok)
	if len(errs) == 0 || !errors.Is(errs[0], refusals.ErrContainsSecret) {
		t.Fatalf("Check(token) = %v, want ErrContainsSecret", errs)
	}
	for _, e := range errs {
		if r := e.(*refusals.Error); r.Pointer != "/mcpServers/0/name" || strings.Contains(r.Error(), tok[4:12]) {
			t.Errorf("refusal %q: wrong pointer or quotes the name", r.Pointer)
		}
	}
	for _, bad := range []string{"read\u202efile", "a\u200bb", "a\nb", "a\tb", "x\x1b[2K", "a\u2028b", "tab\ufeff", "a\u2066b\u2069", "read\ufe0f", "a\u3164b", "\u0085next"} {
		errs := Check("/tools/0/name", bad)
		if len(errs) != 1 {
			t.Errorf("Check(%q) = %d refusals, want 1", bad, len(errs))
			continue
		}
		r := errs[0].(*refusals.Error)
		if !errors.Is(r, refusals.ErrInvalid) || r.Rule != "name-character" || strings.Contains(r.Error(), bad) {
			t.Errorf("Check(%q) = %v", bad, r)
		}
	}
	// What real servers name their tools stays allowed.
	for _, ok := range []string{"getUser", "user-profile/update", "DATA_EXPORT_v2", "admin.tools.list", "mcp__github__create_issue", "search docs", "检索文档", "café", "emoji_😀"} {
		if errs := Check("/tools/0/name", ok); errs != nil {
			t.Errorf("Check(%q) = %v, want nil", ok, errs)
		}
	}
}
