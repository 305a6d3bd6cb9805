package secrets_test

import (
	"slices"
	"testing"

	"github.com/guardian-agent/guardian-go/refusals"
	"github.com/guardian-agent/guardian-go/secrets"
)

// CheckStdio reads a stdio server's command and arguments together: the
// command says what its short flags mean.
func TestCheckStdioRefuses(t *testing.T) {
	tests := []struct {
		name    string
		command string
		args    []string
		secret  string
		want    []string
	}{
		{"mysql -p with symbols", "mysql", []string{"-h", "db", "-u", "app", "-pPass/w=rd1", "shop"}, "Pass/w=rd1", []string{"/s/args/4 credential-flag"}},
		{"mysql -p short", "/usr/bin/mysql", []string{"-uroot", "-proot"}, "root", []string{"/s/args/1 credential-flag"}},
		{"sshpass", "sshpass", []string{"-p", "sshpw1", "ssh", "host"}, "sshpw1", []string{"/s/args/1 credential-flag"}},
		{"redis-cli", "redis-cli", []string{"-h", "cache", "-a", "redispw1"}, "redispw1", []string{"/s/args/3 credential-flag"}},
		{"docker login", "docker", []string{"login", "-u", "me", "-p", "dockerpw1", "ghcr.io"}, "dockerpw1", []string{"/s/args/4 credential-flag"}},
		{"sqlcmd", `C:\Program Files\sqlcmd\sqlcmd.exe`, []string{"-S", "db", "-U", "sa", "-P", "Sqlpw123"}, "Sqlpw123", []string{"/s/args/5 credential-flag"}},
		{"sqlplus login", "sqlplus", []string{"-S", "scott/tiger99@db", "@report.sql"}, "tiger99", []string{"/s/args/1 url-password"}},
		{"mongosh", "mongosh", []string{"-u", "admin", "-p", "mongopw1"}, "mongopw1", []string{"/s/args/3 credential-flag"}},
		{"a flag the command leaves open", "server --api-key", []string{"abc123def"}, "abc123def", []string{"/s/args/0 credential-flag"}},
		{"the command's own secret", "env GITHUB_TOKEN=" + fake.github + " npx", []string{"-y", "server"}, fake.github, []string{"/s/command token/github"}},
		{"command and args both", "mysql -pCmdSecret1", []string{"--password=ArgSecret1"}, "Secret1", []string{"/s/args/0 credential-flag", "/s/command credential-flag"}},
		{"what CheckArgs finds", "npx", []string{"-y", "server", "--token", "t-123"}, "t-123", []string{"/s/args/3 credential-flag"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := secrets.CheckStdio("/s", tt.command, tt.args)
			got := found(err)
			slices.SortFunc(got, func(a, b string) int { return refusals.ComparePointers(a, b) })
			want := slices.Clone(tt.want)
			slices.SortFunc(want, func(a, b string) int { return refusals.ComparePointers(a, b) })
			if !slices.Equal(got, want) {
				t.Errorf("CheckStdio(%q, %q) = %q, want %q", tt.command, tt.args, got, want)
			}
			checkRefusal(t, tt.name, err, tt.secret)
		})
	}
}

func TestCheckStdioAccepts(t *testing.T) {
	tests := []struct {
		command string
		args    []string
	}{
		{"", nil},
		{"npx", nil},
		{"mysql", []string{"-h", "db", "-P", "3306", "-u", "root", "-p", "shop"}}, // -p alone prompts; shop is the database
		{"mysql", []string{"--defaults-extra-file=/run/secrets/my.cnf", "-e", "select 1"}},
		{"docker", []string{"run", "-i", "--rm", "-p", "8080:8080", "-u", "1000:1000", "-e", "GITHUB_TOKEN", "ghcr.io/github/github-mcp-server"}},
		{"docker", []string{"login", "-u", "me", "--password-stdin", "ghcr.io"}},
		{"sshpass", []string{"-e", "ssh", "deploy@host"}}, // -e: the password is in SSHPASS
		{"redis-cli", []string{"-h", "cache", "-p", "6379", "--askpass"}},
		{"sqlplus", []string{"/nolog", "@setup.sql"}},
		{"sqlplus", []string{"-S", "scott/${ORACLE_PASSWORD}@db"}},
		{"sqlcmd", []string{"-S", "db", "-G", "-d", "app"}},
		{"psql", []string{"-h", "db", "-p", "5432", "-U", "app", "-d", "app"}},
	}
	for _, tt := range tests {
		if err := secrets.CheckStdio("/s", tt.command, tt.args); err != nil {
			t.Errorf("CheckStdio(%q, %q) = %v, want nil", tt.command, tt.args, err)
		}
	}
}

// CheckStdio never refuses less than CheckCommand and CheckArgs, and with
// a command that gives no flag a meaning it refuses exactly what they do.
func TestCheckStdioAgreesWithTheChecksApart(t *testing.T) {
	argLists := [][]string{
		{"-y", "server", "--token", "t-1", "x", "--password=p-1", "postgres://a:b-pass@h/d"},
		{"run", "-i", "--rm", "-u", "app:Secr3t!x", "-e", "API_KEY=abc123", "image"},
		{"-pS3cr3t!x", "-p", "sshpw1", "-a", "redispw1", "-P", "Sqlpw123"},
		{"login", "-u", "me", "-p", "dockerpw1"},
		{"-c", "mysql -uroot -pShellPw1 app && sshpass -p sshpw1 ssh host"},
		{"scott/tiger99@db", "-S", "scott/tiger99"},
	}
	for _, command := range []string{"npx", "node", "uvx", "docker", "mysql", "sshpass", "redis-cli", "sqlcmd", "sqlplus", "curl", "sh -c", ""} {
		for _, args := range argLists {
			both := found(refusals.Join(secrets.CheckCommand("/s/command", command), secrets.CheckArgs("/s/args", args)))
			got := found(secrets.CheckStdio("/s", command, args))
			for _, r := range both {
				if !slices.Contains(got, r) {
					t.Errorf("CheckStdio(%q, %q) lacks %s, which the checks apart find", command, args, r)
				}
			}
			if command == "npx" || command == "node" || command == "uvx" || command == "" {
				if !slices.Equal(got, both) {
					t.Errorf("CheckStdio(%q, %q) = %q, the checks apart %q", command, args, got, both)
				}
			}
		}
	}
}
