package secrets_test

import (
	"strings"
	"testing"

	"github.com/guardian-agent/guardian-go/secrets"
)

// Whole launch lines as people write them in MCP client configs: each
// credential one must be refused somewhere, each benign one not at all.
// They complement the per-rule tables with the mix of flags, packages,
// paths and references that real configs have.

type launch struct {
	command string
	args    []string
	url     string
}

func (l launch) check() error {
	errs := []error{
		secrets.CheckCommand("/command", l.command),
		secrets.CheckArgs("/args", l.args),
		secrets.CheckURL("/url", l.url),
	}
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

func TestLaunchLinesWithCredentials(t *testing.T) {
	key := fit("Kq8Zr2Lm5Xw9Tb3Vn7Hs1Jd4", 32) // an unprefixed API key
	lines := []launch{
		{command: "npx", args: []string{"-y", "@modelcontextprotocol/server-github", "--github-token", key}},
		{command: "npx", args: []string{"-y", "@modelcontextprotocol/server-brave-search", "--brave-api-key=" + key}},
		{command: "npx", args: []string{"-y", "firecrawl-mcp", "--api-key", fake.firecrawl}},
		{command: "npx", args: []string{"-y", "tavily-mcp@latest", "--tavily-api-key", fake.tavily}},
		{command: "npx", args: []string{"-y", "@upstash/context7-mcp", "--api-key", "ctx7sk-" + fit("0123abcd-ef45", 36)}},
		{command: "npx", args: []string{"-y", "@smithery/cli@latest", "run", "@smithery-ai/github", "--config", `{"githubPersonalAccessToken":"` + fake.github + `"}`}},
		{command: "npx", args: []string{"-y", "@smithery/cli@latest", "run", "exa", "--key", "a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d", "--profile", "happy-otter"}},
		{command: "npx", args: []string{"-y", "mcp-remote", "https://mcp.example.com/sse", "--header", "Authorization:Bearer " + key}},
		{command: "npx", args: []string{"mcp-remote", "https://mcp.example.com/mcp", "--header", "X-API-Key:" + key}},
		{command: "npx", args: []string{"-y", "supergateway", "--sse", "https://mcp.example.com/sse", "--oauth2Bearer", key}},
		{command: "uvx", args: []string{"mcp-server-postgres", "postgresql://postgres:postgres@localhost:5432/postgres"}},
		{command: "uvx", args: []string{"mcp-server-sqlite", "--db-path", "/tmp/x.db", "--password", "Zaq12wsx"}},
		{command: "docker", args: []string{"run", "-i", "--rm", "-e", "GITHUB_PERSONAL_ACCESS_TOKEN=" + fake.githubFine, "ghcr.io/github/github-mcp-server"}},
		{command: "docker", args: []string{"run", "-i", "--rm", "-e", "DB_PASSWORD=changeme", "mcp/postgres"}},
		{command: "docker", args: []string{"run", "-i", "--rm", "--env", "OPENAI_API_KEY=" + fake.openAIProj, "mcp/openai"}},
		{command: "docker", args: []string{"run", "--rm", "-i", "mcp/postgres", "postgresql://admin:" + key + "@db.example.com/prod"}},
		{command: "docker", args: []string{"run", "-i", "--rm", "-e", "AWS_ACCESS_KEY_ID=" + fake.awsKeyID, "-e", "AWS_SECRET_ACCESS_KEY=" + fake.awsSecret, "mcp/aws"}},
		{command: "node", args: []string{"/Users/me/mcp/build/index.js", "--slack-bot-token", fake.slackBot, "--slack-team-id", "T01234567"}},
		{command: "node", args: []string{"dist/index.js", "--notion-token=" + fake.notion}},
		{command: "python", args: []string{"-m", "mcp_server_jira", "--jira-url", "https://acme.atlassian.net", "--jira-username", "me@acme.com", "--jira-token", fake.atlassian}},
		{command: "python", args: []string{"server.py", "--db", "mysql+pymysql://root:Mysql-Root-9@127.0.0.1:3306/app"}},
		{command: "python", args: []string{"server.py", "--mongo-uri", "mongodb+srv://svc:" + key + "@cluster0.x1y2z.mongodb.net/?retryWrites=true&w=majority"}},
		{command: "python", args: []string{"server.py", "--redis-url", "redis://:" + key + "@redis.example.com:6379/0"}},
		{command: "java", args: []string{"-jar", "mcp-server.jar", "--spring.datasource.password=Sp1ngPass"}},
		{command: "java", args: []string{"-Dspring.datasource.url=jdbc:postgresql://db:5432/app", "-Dspring.datasource.password=Sp1ngPass", "-jar", "app.jar"}},
		{command: "java", args: []string{"-jar", "app.jar", "--url", "jdbc:sqlserver://db:1433;databaseName=app;user=sa;password=Str0ngPassw0rd"}},
		{command: "kubectl", args: []string{"--server", "https://k8s.example.com", "--token", fake.jwt, "get", "pods"}},
		{command: "psql", args: []string{"host=db.example.com user=app password=Pg-pass-1 dbname=app sslmode=require"}},
		{command: "mysql", args: []string{"-h", "db", "-u", "root", "-pr00tpass", "app"}},
		{command: "bash", args: []string{"-c", "GITHUB_TOKEN=" + fake.github + " exec npx -y @modelcontextprotocol/server-github"}},
		{command: "sh", args: []string{"-c", "export OPENAI_API_KEY=" + key + " && node server.js"}},
		{command: "cmd", args: []string{"/c", "set", "API_KEY=" + key, "&&", "npx", "server"}},
		{command: "env", args: []string{"ANTHROPIC_API_KEY=" + fake.anthropic, "npx", "-y", "server"}},
		{command: "curl", args: []string{"-s", "-u", "admin:" + key, "https://x.example.com/mcp"}},
		{command: "mcp-proxy", args: []string{"--headers", "Authorization", "Bearer " + key, "https://mcp.example.com/sse"}},
		{command: "npx", args: []string{"-y", "server", "--auth", "Basic " + "YWRtaW46c2VjcmV0MTIz"}},
		{command: "npx", args: []string{"-y", "server", "--client-secret", "GOCSPX-" + fit("ab12CD34", 28)}},
		{command: "npx", args: []string{"-y", "server", "--stripe-secret-key", fake.stripeTest}},
		{command: "npx", args: []string{"-y", "@huggingface/mcp-server", "--hf-token", fake.huggingFace}},
		{command: "npx", args: []string{"-y", "server", "--private-key", fake.pem}},
		{command: "npx", args: []string{"-y", "server", "--webhook", fake.slackWebhook}},
		{command: "npx", args: []string{"-y", "server", key}},
		{command: "npx", args: []string{"-y", "server", "--config", `{"apiKey": "` + key + `", "region": "us"}`}},
		{command: "npx", args: []string{"-y", "server", "--license-key", "ABCD-EFGH-IJKL-MNOP"}},
		{command: "npx", args: []string{"-y", "server", "--secret=hunter2hunter2"}},
		{command: "npx", args: []string{"-y", "server", "--access_token", "1/" + key}},
		{command: "npx", args: []string{"-y", "server", "-token", key}},
		{command: "npx", args: []string{"-y", "server", "--DB_PASSWORD", "p4ss"}},
		{command: "npx", args: []string{"-y", "server", "--db-pass", "p4ss"}},
		{command: "npx", args: []string{"-y", "server", "--proxy", "http://user:pr0xy@proxy.example.com:3128"}},
		{command: "npx", args: []string{"-y", "server", "--git-url", "https://x-access-token:" + key + "@github.com/org/repo.git"}},
		{command: "npx", args: []string{"-y", "server"}, url: "https://user:" + key + "@mcp.example.com/mcp"},
		{command: "", url: "https://mcp.example.com/sse?apiKey=" + key},
		{command: "", url: "https://server.smithery.ai/@org/server/mcp?api_key=" + key + "&profile=otter"},
		{command: "", url: "https://mcp.example.com/mcp?access_token=" + key},
		{command: "", url: "wss://mcp.example.com/ws?token=" + key},
		{command: "", url: "https://mcp.example.com/v1/" + fake.github + "/sse"},
		{command: "", url: "https://mcp.zapier.com/api/mcp/s/" + "NjQ0ZTc4YjEtOGQ5Ny00Zjk1LWI3NzItYmE2ZDc1YTQ4MjFh" + "/mcp"},
		{command: "", url: "https://bucket.s3.us-east-1.amazonaws.com/mcp.json?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Signature=" + fit("0a1b2c3d4e5f", 64)},
		{command: "/opt/homebrew/bin/npx --api-key " + key + " server"},
		{command: "OPENAI_API_KEY=" + key + " node server.js"},
	}
	for _, l := range lines {
		if err := l.check(); err == nil {
			t.Errorf("launch %q %q %q: nothing refused", l.command, l.args, l.url)
		} else {
			leaks(t, "launch", err.Error(), key)
		}
	}
}

func TestLaunchLinesBenign(t *testing.T) {
	lines := []launch{
		{command: "npx", args: []string{"-y", "@modelcontextprotocol/server-github"}},
		{command: "npx", args: []string{"-y", "@modelcontextprotocol/server-filesystem", "/Users/me/Desktop", "/Users/me/Downloads"}},
		{command: "npx", args: []string{"-y", "@modelcontextprotocol/server-puppeteer"}},
		{command: "npx", args: []string{"-y", "@modelcontextprotocol/server-memory"}},
		{command: "npx", args: []string{"-y", "@modelcontextprotocol/server-sequential-thinking"}},
		{command: "npx", args: []string{"-y", "@playwright/mcp@latest", "--browser", "chromium", "--headless", "--port", "8931"}},
		{command: "npx", args: []string{"-y", "@upstash/context7-mcp@latest"}},
		{command: "npx", args: []string{"-y", "mcp-remote", "https://mcp.linear.app/sse"}},
		{command: "npx", args: []string{"-y", "mcp-remote@0.1.18", "https://mcp.atlassian.com/v1/sse", "--transport", "sse-only", "--allow-http"}},
		{command: "npx", args: []string{"-y", "mcp-remote", "https://mcp.example.com/mcp", "--header", "Authorization: Bearer ${AUTH_TOKEN}"}},
		{command: "npx", args: []string{"-y", "@smithery/cli@latest", "run", "@smithery-ai/server-sequential-thinking", "--key", "${SMITHERY_KEY}"}},
		{command: "npx", args: []string{"-y", "@benborla29/mcp-server-mysql"}},
		{command: "npx", args: []string{"-y", "@notionhq/notion-mcp-server"}},
		{command: "npx", args: []string{"tsx", "/Users/me/src/mcp/src/index.ts", "--log-level", "debug"}},
		{command: "npx", args: []string{"-y", "@modelcontextprotocol/inspector", "node", "build/index.js"}},
		{command: "npx", args: []string{"-y", "@azure/mcp@latest", "server", "start", "--namespace", "storage", "--read-only"}},
		{command: "npx", args: []string{"-y", "@sentry/mcp-server@latest", "--host", "sentry.example.com"}},
		{command: "npx", args: []string{"-y", "@stripe/mcp", "--tools=all", "--api-key=$STRIPE_SECRET_KEY"}},
		{command: "npx", args: []string{"-y", "@google/gemini-mcp", "--model", "gemini-2.5-flash", "--max-output-tokens", "8192", "--temperature", "0.2"}},
		{command: "npx", args: []string{"-y", "server", "--region", "us-east-1", "--profile", "default", "--role-arn", "arn:aws:iam::123456789012:role/mcp-reader"}},
		{command: "npx", args: []string{"-y", "server", "--aws-profile", "dev", "--aws-region", "eu-central-1"}},
		{command: "npx", args: []string{"-y", "server", "--credentials", "/Users/me/.config/gcloud/application_default_credentials.json"}},
		{command: "npx", args: []string{"-y", "server", "--service-account-key-file", "./sa.json", "--project", "my-project-123456"}},
		{command: "npx", args: []string{"-y", "server", "--spreadsheet-id", "1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms"}},
		{command: "npx", args: []string{"-y", "server", "--base-id", "appXyZ123AbC456dE", "--table", "tblAbCdEf12345678"}},
		{command: "npx", args: []string{"-y", "server", "--channel", "C0123456789", "--team-id", "T0123456789"}},
		{command: "npx", args: []string{"-y", "server", "--page-id", "0123456789abcdef0123456789abcdef"}},
		{command: "npx", args: []string{"-y", "server", "--org", "org-AbCdEf1234567890AbCdEf12"}},
		{command: "npx", args: []string{"-y", "server", "--tokenizer", "cl100k_base", "--max-tokens", "4096", "--context-tokens", "128000"}},
		{command: "npx", args: []string{"-y", "server", "--auth", "oauth", "--auth-server", "https://auth.example.com", "--scopes", "read,write"}},
		{command: "npx", args: []string{"-y", "server", "--oauth-client-id", "123456789012-abcdefghijklmnopqrstuvwxyz012345.apps.googleusercontent.com"}},
		{command: "npx", args: []string{"-y", "server", "--token-endpoint", "https://auth.example.com/oauth/token", "--redirect-uri", "http://localhost:3334/callback"}},
		{command: "npx", args: []string{"-y", "server", "--secret-arn", "arn:aws:secretsmanager:us-east-1:123456789012:secret:prod/db-AbCdEf", "--kms-key-id", "alias/mcp"}},
		{command: "npx", args: []string{"-y", "server", "--vault-addr", "https://vault.example.com:8200", "--vault-role", "mcp"}},
		{command: "npx", args: []string{"-y", "server", "--api-key-env-var", "OPENAI_API_KEY", "--token-env", "GITHUB_TOKEN"}},
		{command: "npx", args: []string{"-y", "server", "--password-file", "/run/secrets/db_password", "--token-path", "~/.config/tok"}},
		{command: "npx", args: []string{"-y", "server", "--allowed-hosts", "localhost,127.0.0.1", "--cors-origin", "http://localhost:5173"}},
		{command: "npx", args: []string{"-y", "server", "--sort", "key", "--group-by", "token", "--filter", "type=secret"}},
		{command: "uvx", args: []string{"mcp-server-git", "--repository", "/Users/me/src/repo"}},
		{command: "uvx", args: []string{"mcp-server-time", "--local-timezone=America/New_York"}},
		{command: "uvx", args: []string{"mcp-server-fetch", "--user-agent", "Mozilla/5.0 (compatible; MCP)"}},
		{command: "uvx", args: []string{"--from", "git+https://github.com/org/mcp-server.git@9fceb02d0ae598e95dc970b74767f19372d61af8", "mcp-server"}},
		{command: "uvx", args: []string{"--python", "3.12", "--with", "pandas==2.2.3", "mcp-server-data"}},
		{command: "uvx", args: []string{"awslabs.aws-documentation-mcp-server@latest"}},
		{command: "uv", args: []string{"--directory", "/Users/me/src/weather", "run", "weather.py"}},
		{command: "uv", args: []string{"run", "--with", "mcp[cli]", "mcp", "run", "/Users/me/server.py"}},
		{command: "python", args: []string{"-m", "mcp_server_sqlite", "--db-path", "~/data/test.db"}},
		{command: "python3", args: []string{"-u", "/opt/mcp/server.py", "--verbose"}},
		{command: "node", args: []string{"--experimental-vm-modules", "--max-old-space-size=4096", "build/index.js"}},
		{command: "deno", args: []string{"run", "--allow-net", "--allow-env=API_KEY,TOKEN", "jsr:@org/mcp-server@1.0.0"}},
		{command: "bun", args: []string{"run", "src/index.ts"}},
		{command: "docker", args: []string{"run", "-i", "--rm", "-e", "GITHUB_PERSONAL_ACCESS_TOKEN", "ghcr.io/github/github-mcp-server"}},
		{command: "docker", args: []string{"run", "-i", "--rm", "--mount", "type=bind,src=/Users/me/Desktop,dst=/projects/Desktop", "mcp/filesystem", "/projects"}},
		{command: "docker", args: []string{"run", "-i", "--rm", "-e", "BRAVE_API_KEY", "-e", "LOG_LEVEL=debug", "mcp/brave-search"}},
		{command: "docker", args: []string{"run", "-i", "--rm", "--env-file", "/Users/me/.mcp.env", "-p", "8080:8080", "mcp/server:1.2.3"}},
		{command: "docker", args: []string{"run", "-i", "--rm", "-v", "mcp-data:/data", "--network", "host", "--user", "1000:1000", "mcp/sqlite", "--db-path", "/data/db.sqlite"}},
		{command: "docker", args: []string{"run", "-i", "--rm", "ghcr.io/org/mcp@sha256:" + fit("0123456789abcdef", 64)}},
		{command: "docker", args: []string{"run", "-i", "--rm", "mcp/postgres", "postgresql://host.docker.internal:5432/mydb"}},
		{command: "docker", args: []string{"exec", "-i", "mcp-container", "node", "/app/index.js"}},
		{command: "kubectl", args: []string{"--context", "prod", "--namespace", "mcp", "port-forward", "svc/mcp", "8080:80"}},
		{command: "ssh", args: []string{"-p", "2222", "-i", "~/.ssh/id_ed25519", "git@host.example.com", "mcp-server"}},
		{command: "/Users/me/.local/bin/uvx", args: []string{"mcp-server-kubernetes", "--kubeconfig", "/Users/me/.kube/config"}},
		{command: `C:\Program Files\nodejs\npx.cmd`, args: []string{"-y", "@modelcontextprotocol/server-filesystem", `C:\Users\me\Documents`}},
		{command: "cmd", args: []string{"/c", "npx", "-y", "@modelcontextprotocol/server-github"}},
		{command: "wsl", args: []string{"-e", "bash", "-lc", "cd ~/mcp && npm start"}},
		{command: "go", args: []string{"run", "github.com/org/mcp-server/cmd/server@v0.3.1", "-addr", ":8080", "-log-format", "json"}},
		{command: "java", args: []string{"-Dspring.ai.mcp.server.stdio=true", "-Dlogging.level.root=OFF", "-jar", "/Users/me/mcp/weather-0.0.1-SNAPSHOT.jar"}},
		{command: "dotnet", args: []string{"run", "--project", "/Users/me/src/McpServer/McpServer.csproj", "--no-build"}},
		{command: "npx", args: []string{"-y", "mcp-google-sheets", "--sheet-url", "https://docs.google.com/spreadsheets/d/1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms/edit#gid=0"}},
		{command: "npx", args: []string{"-y", "figma-mcp", "https://www.figma.com/design/AbC123dEf456GhI789jKl0Mn/My-File?node-id=1-2"}},
		{command: "", url: "https://mcp.example.com/mcp"},
		{command: "", url: "https://api.githubcopilot.com/mcp/"},
		{command: "", url: "http://localhost:3001/sse"},
		{command: "", url: "https://mcp.example.com/v1/sse?client=claude&version=2025-06-18"},
		{command: "", url: "https://mcp.example.com/mcp?workspace=acme&region=eu-west-1&format=json"},
		{command: "", url: "https://mcp.example.com/{tenant_id}/mcp"},
		{command: "", url: "https://mcp.composio.dev/partner/composio/gmail?customerId=550e8400-e29b-41d4-a716-446655440000"},
		{command: "", url: "https://docs.mcp.cloudflare.com/sse"},
		{command: "", url: "https://mcp.deepwiki.com/mcp"},
		{command: "", url: "ws://127.0.0.1:8765/"},
	}
	for _, l := range lines {
		if err := l.check(); err != nil {
			t.Errorf("launch %q %q %q refused: %v", l.command, l.args, l.url, strings.ReplaceAll(err.Error(), "\n", " | "))
		}
	}
}
