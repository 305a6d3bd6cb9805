package secrets_test

import (
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/guardian-agent/guardian-go/refusals"
	"github.com/guardian-agent/guardian-go/secrets"
)

// found renders refusals as "pointer rule" lines, for comparing.
func found(err error) []string {
	var out []string
	for _, r := range refusals.All(err) {
		out = append(out, r.Pointer+" "+r.Rule)
	}
	return out
}

// checkRefusal asserts the shape every refusal must have, and that the
// message never carries the secret or any 8-byte piece of it.
func checkRefusal(t *testing.T, what string, err error, secret string) {
	t.Helper()
	if err == nil {
		return
	}
	if !errors.Is(err, refusals.ErrContainsSecret) {
		t.Errorf("%s: errors.Is(err, ErrContainsSecret) = false: %v", what, err)
	}
	var re *refusals.Error
	if !errors.As(err, &re) {
		t.Errorf("%s: errors.As(*refusals.Error) = false", what)
	}
	for _, r := range refusals.All(err) {
		if r.Rule == "" || r.Fix == "" || r.Kind != refusals.ErrContainsSecret {
			t.Errorf("%s: refusal without rule, fix or kind: %#v", what, r)
		}
	}
	leaks(t, what, err.Error(), secret)
}

// leaks fails if msg holds secret, or, for secrets of 8 bytes or more, any
// 8-byte window of it.
func leaks(t *testing.T, what, msg, secret string) {
	t.Helper()
	if secret == "" {
		return
	}
	if len(secret) < 8 {
		if strings.Contains(msg, secret) {
			t.Errorf("%s: message holds the secret", what)
		}
		return
	}
	for i := 0; i+8 <= len(secret); i++ {
		if strings.Contains(msg, secret[i:i+8]) {
			t.Errorf("%s: message holds part of the secret", what)
			return
		}
	}
}

func TestCheckArgsRefuses(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		secret string   // must not appear in the message
		want   []string // "pointer rule"
	}{
		// High-confidence tokens anywhere, bare or inside a longer argument.
		{"github bare", []string{"-y", "server", fake.github}, fake.github, []string{"/args/2 token/github"}},
		{"github fine-grained", []string{fake.githubFine}, fake.githubFine, []string{"/args/0 token/github"}},
		{"github oauth in flag", []string{"--gh=" + fake.githubOAuth}, fake.githubOAuth, []string{"/args/0 token/github"}},
		{"gitlab", []string{"--token", fake.gitlab}, fake.gitlab, []string{"/args/1 token/gitlab"}},
		{"slack bot", []string{fake.slackBot}, fake.slackBot, []string{"/args/0 token/slack"}},
		{"slack user", []string{"--slack=" + fake.slackUser}, fake.slackUser, []string{"/args/0 token/slack"}},
		{"openai legacy", []string{fake.openAI}, fake.openAI, []string{"/args/0 token/openai"}},
		{"openai project", []string{"x", fake.openAIProj}, fake.openAIProj, []string{"/args/1 token/openai"}},
		{"anthropic", []string{fake.anthropic}, fake.anthropic, []string{"/args/0 token/anthropic"}},
		{"openrouter", []string{fake.openRouter}, fake.openRouter, []string{"/args/0 token/openrouter"}},
		{"aws key id", []string{fake.awsKeyID}, fake.awsKeyID, []string{"/args/0 token/aws"}},
		{"google api key", []string{fake.google}, fake.google, []string{"/args/0 token/google"}},
		{"google oauth secret", []string{fake.googleOAuth}, fake.googleOAuth, []string{"/args/0 token/google"}},
		{"hugging face", []string{fake.huggingFace}, fake.huggingFace, []string{"/args/0 token/huggingface"}},
		{"npm", []string{"//registry.npmjs.org/:_authToken=" + fake.npm}, fake.npm, []string{"/args/0 token/npm"}},
		{"pypi", []string{fake.pypi}, fake.pypi, []string{"/args/0 token/pypi"}},
		{"stripe live", []string{fake.stripe}, fake.stripe, []string{"/args/0 token/stripe"}},
		{"stripe test", []string{fake.stripeTest}, fake.stripeTest, []string{"/args/0 token/stripe"}},
		{"stripe restricted", []string{fake.stripeRestricted}, fake.stripeRestricted, []string{"/args/0 token/stripe"}},
		{"sendgrid", []string{fake.sendGrid}, fake.sendGrid, []string{"/args/0 token/sendgrid"}},
		{"shopify", []string{fake.shopify}, fake.shopify, []string{"/args/0 token/shopify"}},
		{"digitalocean", []string{fake.digitalOcean}, fake.digitalOcean, []string{"/args/0 token/digitalocean"}},
		{"docker hub", []string{fake.docker}, fake.docker, []string{"/args/0 token/docker"}},
		{"databricks", []string{fake.databricks}, fake.databricks, []string{"/args/0 token/databricks"}},
		{"linear", []string{fake.linear}, fake.linear, []string{"/args/0 token/linear"}},
		{"notion", []string{fake.notion}, fake.notion, []string{"/args/0 token/notion"}},
		{"groq", []string{fake.groq}, fake.groq, []string{"/args/0 token/groq"}},
		{"replicate", []string{fake.replicate}, fake.replicate, []string{"/args/0 token/replicate"}},
		{"perplexity", []string{fake.perplexity}, fake.perplexity, []string{"/args/0 token/perplexity"}},
		{"xai", []string{fake.xai}, fake.xai, []string{"/args/0 token/xai"}},
		{"tavily", []string{fake.tavily}, fake.tavily, []string{"/args/0 token/tavily"}},
		{"firecrawl", []string{fake.firecrawl}, fake.firecrawl, []string{"/args/0 token/firecrawl"}},
		{"vault", []string{fake.vault}, fake.vault, []string{"/args/0 token/vault"}},
		{"pulumi", []string{fake.pulumi}, fake.pulumi, []string{"/args/0 token/pulumi"}},
		{"figma", []string{fake.figma}, fake.figma, []string{"/args/0 token/figma"}},
		{"sentry", []string{fake.sentry}, fake.sentry, []string{"/args/0 token/sentry"}},
		{"grafana", []string{fake.grafana}, fake.grafana, []string{"/args/0 token/grafana"}},
		{"doppler", []string{fake.doppler}, fake.doppler, []string{"/args/0 token/doppler"}},
		{"langsmith", []string{fake.langSmith}, fake.langSmith, []string{"/args/0 token/langsmith"}},
		{"pinecone", []string{fake.pinecone}, fake.pinecone, []string{"/args/0 token/pinecone"}},
		{"supabase", []string{fake.supabase}, fake.supabase, []string{"/args/0 token/supabase"}},
		{"telegram", []string{"https://api.telegram.org/bot" + fake.telegram + "/getMe"}, fake.telegram, []string{"/args/0 token/telegram"}},
		{"mailgun", []string{fake.mailgun}, fake.mailgun, []string{"/args/0 token/mailgun"}},
		{"azure client secret", []string{fake.azure}, fake.azure, []string{"/args/0 token/azure"}},
		{"age", []string{fake.age}, fake.age, []string{"/args/0 token/age"}},
		{"elevenlabs", []string{fake.elevenLabs}, fake.elevenLabs, []string{"/args/0 token/elevenlabs"}},
		{"planetscale", []string{fake.planetScale}, fake.planetScale, []string{"/args/0 token/planetscale"}},
		{"postman", []string{fake.postman}, fake.postman, []string{"/args/0 token/postman"}},
		{"atlassian", []string{fake.atlassian}, fake.atlassian, []string{"/args/0 token/atlassian"}},
		{"terraform", []string{fake.terraform}, fake.terraform, []string{"/args/0 token/terraform"}},
		{"airtable", []string{fake.airtable}, fake.airtable, []string{"/args/0 token/airtable"}},
		{"mapbox", []string{fake.mapbox}, fake.mapbox, []string{"/args/0 token/mapbox"}},
		{"resend", []string{fake.resend}, fake.resend, []string{"/args/0 token/resend"}},
		{"brave", []string{fake.brave}, fake.brave, []string{"/args/0 token/brave"}},
		{"jwt", []string{"--id-token", fake.jwt}, fake.jwt, []string{"/args/1 token/jwt"}},
		{"jwt in text", []string{"token:" + fake.jwt + "."}, fake.jwt, []string{"/args/0 token/jwt"}},
		{"pem", []string{"--key", fake.pem}, fake.pem[11:], []string{"/args/1 private-key"}},
		{"pem escaped newlines", []string{fake.pemEC}, "MHcCAQEEIexample", []string{"/args/0 private-key"}},
		{"openssh key header", []string{fake.openSSH}, "", []string{"/args/0 private-key"}},
		{"slack webhook", []string{fake.slackWebhook}, fake.slackWebhook[33:], []string{"/args/0 token/slack-webhook"}},
		{"discord webhook", []string{"--url", fake.discordWebhook}, fake.discordWebhook[33:], []string{"/args/1 token/discord-webhook"}},
		{"token with all-one-letter body", []string{"ghp_" + rep("a", 36)}, "ghp_" + rep("a", 36), []string{"/args/0 token/github"}},

		// A password in a URL's userinfo, any scheme, anywhere in an argument.
		{"postgres", []string{"postgres://user:hunter22@db.internal:5432/app"}, "hunter22", []string{"/args/0 url-password"}},
		{"postgresql in flag", []string{"--dsn=postgresql://app:s3cret-pw@db/app"}, "s3cret-pw", []string{"/args/0 url-password"}},
		{"mysql", []string{"mysql://root:Passw0rd!@127.0.0.1:3306/db"}, "Passw0rd!", []string{"/args/0 url-password"}},
		{"mongodb+srv", []string{"mongodb+srv://admin:Xk9pLm2q@cluster0.abcde.mongodb.net/test?retryWrites=true"}, "Xk9pLm2q", []string{"/args/0 url-password"}},
		{"redis empty user", []string{"DATABASE_URL=redis://:r3dispass@cache:6379/0"}, "r3dispass", []string{"/args/0 url-password"}},
		{"rediss", []string{"rediss://default:AbCdEf123456@host.upstash.io:6379"}, "AbCdEf123456", []string{"/args/0 url-password"}},
		{"amqp", []string{"amqp://guest:guestpw@rabbit:5672/"}, "guestpw", []string{"/args/0 url-password"}},
		{"ftp", []string{"ftp://user:ftppass1@files.example.com/"}, "ftppass1", []string{"/args/0 url-password"}},
		{"ssh", []string{"ssh://deploy:sshpass9@host:22/repo"}, "sshpass9", []string{"/args/0 url-password"}},
		{"git+https", []string{"git+https://oauth2:gl0auth-pw1@gitlab.com/org/repo.git"}, "gl0auth-pw1", []string{"/args/0 url-password"}},
		{"upper-case scheme", []string{"HTTPS://me:Secret12@example.com/"}, "Secret12", []string{"/args/0 url-password"}},
		{"empty user https", []string{"https://:tok3nvalue@example.com/mcp"}, "tok3nvalue", []string{"/args/0 url-password"}},
		{"password with slash", []string{"postgres://u:pa/ss9word@db/app"}, "pa/ss9word", []string{"/args/0 url-password"}},
		{"password with hash", []string{"postgres://u:p#ssw0rd@db/app"}, "p#ssw0rd", []string{"/args/0 url-password"}},
		{"password with at", []string{"postgres://u:p@ssw0rd@db/app"}, "p@ssw0rd", []string{"/args/0 url-password"}},
		{"bad escape in password", []string{"postgres://u:%zzsecret1@db/app"}, "secret1", []string{"/args/0 url-password"}},
		{"jdbc userinfo", []string{"jdbc:mysql://app:jdbcPass1@db:3306/app"}, "jdbcPass1", []string{"/args/0 url-password"}},
		{"jdbc sqlserver property", []string{"jdbc:sqlserver://db:1433;databaseName=app;user=sa;password=Sql$erver1"}, "Sql$erver1", []string{"/args/0 url-query-credential"}},
		{"jdbc postgres query", []string{"jdbc:postgresql://db/app?user=app&password=pgpass12"}, "pgpass12", []string{"/args/0 url-query-credential"}},
		{"jdbc oracle thin", []string{"jdbc:oracle:thin:scott/tiger99@db:1521:orcl"}, "tiger99", []string{"/args/0 url-password"}},
		{"default in reference", []string{"postgres://u:${DB_PASSWORD:-devpass1}@db/app"}, "devpass1", []string{"/args/0 url-password"}},
		{"bare reference default", []string{"${OPENAI_API_KEY:-" + fake.randomKey + "}"}, fake.randomKey, []string{"/args/0 credential-assignment"}},
		{"reference default after a plain flag", []string{"--db", "${DB_PASSWORD:-devpass1}"}, "devpass1", []string{"/args/1 credential-assignment"}},
		{"reference default, no colon", []string{"${DB_PASSWORD-devpass1}"}, "devpass1", []string{"/args/0 credential-assignment"}},
		{"reference default, :=", []string{"${DB_PASSWORD:=devpass1}"}, "devpass1", []string{"/args/0 credential-assignment"}},
		{"reference default after a credential flag", []string{"--api-key", "${API_KEY:-devpass1}"}, "devpass1", []string{"/args/1 credential-flag"}},
		{"token as user name", []string{"https://" + rep("0123456789abcdef", 2) + "01234567" + "@github.com/org/repo.git"}, "0123456789abcdef01234567", []string{"/args/0 url-user-token"}},
		{"github token as user", []string{"https://" + fake.github + "@github.com/org/repo.git"}, fake.github, []string{"/args/0 token/github"}},
		{"schemeless proxy", []string{"--proxy", "user:pr0xypass@proxy.example.com:3128"}, "pr0xypass", []string{"/args/1 url-password"}},

		// A credential in a URL's query or fragment.
		{"api_key query", []string{"https://api.example.com/v1?api_key=abc123def"}, "abc123def", []string{"/args/0 url-query-credential"}},
		{"apikey semicolon", []string{"https://api.example.com/v1?x=1;apiKey=abc123def"}, "abc123def", []string{"/args/0 url-query-credential"}},
		{"key query", []string{"https://maps.example.com/api?key=k3y-v4lue-9"}, "k3y-v4lue-9", []string{"/args/0 url-query-credential"}},
		{"token query", []string{"--url=https://mcp.example.com/sse?token=t0kenvalue"}, "t0kenvalue", []string{"/args/0 url-query-credential"}},
		{"access_token fragment", []string{"https://app.example.com/cb#access_token=fr4gment&token_type=bearer"}, "fr4gment", []string{"/args/0 url-query-credential"}},
		{"client_secret", []string{"https://auth.example.com/token?client_id=app&client_secret=cl1entsecret"}, "cl1entsecret", []string{"/args/0 url-query-credential"}},
		{"password query", []string{"https://h.example.com/?user=a&PASSWORD=qu3rypass"}, "qu3rypass", []string{"/args/0 url-query-credential"}},
		{"bad escapes", []string{"https://h.example.com/?q=%zz%&token=badesc4pe"}, "badesc4pe", []string{"/args/0 url-query-credential"}},
		{"escaped name", []string{"https://h.example.com/?%74oken=esc4pedname"}, "esc4pedname", []string{"/args/0 url-query-credential"}},
		{"escaped name in the middle", []string{"https://h.example.com/?q=1&tok%65n=esc4pedname"}, "esc4pedname", []string{"/args/0 url-query-credential"}},
		{"s3 presigned", []string{"https://bucket.s3.amazonaws.com/f?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIDEXAMPLE%2F20240101&X-Amz-Signature=" + fit("0123456789abcdef", 64)}, "0123456789abcdef", []string{"/args/0 url-signed"}},
		{"gcs signed", []string{"https://storage.googleapis.com/b/o?X-Goog-Signature=" + fit("abcdef0123456789", 64)}, "abcdef0123456789", []string{"/args/0 url-signed"}},
		{"azure sas", []string{"https://acct.blob.core.windows.net/c/b?sv=2022-11-02&se=2030-01-01&sp=r&sig=AbCdEf%2Bsig1234%3D"}, "AbCdEf%2Bsig1234", []string{"/args/0 url-signed"}},
		{"cloudfront", []string{"https://d111.cloudfront.net/i.jpg?Expires=1700000000&Signature=Ab~Cd-Ef_sig&Key-Pair-Id=K2JCJMDEHXQW5F"}, "Ab~Cd-Ef_sig", []string{"/args/0 url-signed"}},

		// A value after a credential-named flag, any spelling.
		{"--api-key VALUE", []string{"--api-key", "abc123"}, "abc123", []string{"/args/1 credential-flag"}},
		{"--api-key=VALUE", []string{"--api-key=abc123"}, "abc123", []string{"/args/0 credential-flag"}},
		{"--api_key", []string{"--api_key", "abc123"}, "abc123", []string{"/args/1 credential-flag"}},
		{"--apiKey", []string{"--apiKey", "abc123"}, "abc123", []string{"/args/1 credential-flag"}},
		{"--APIKEY", []string{"--APIKEY=abc123"}, "abc123", []string{"/args/0 credential-flag"}},
		{"-token go style", []string{"-token", "tok123"}, "tok123", []string{"/args/1 credential-flag"}},
		{"--password low entropy", []string{"--password", "hunter2"}, "hunter2", []string{"/args/1 credential-flag"}},
		{"--passwd", []string{"--passwd=letmein"}, "letmein", []string{"/args/0 credential-flag"}},
		{"--secret", []string{"--client-secret", "cs-value-1"}, "cs-value-1", []string{"/args/1 credential-flag"}},
		{"--access-key", []string{"--access-key", "AK-value-1"}, "AK-value-1", []string{"/args/1 credential-flag"}},
		{"--secret-access-key", []string{"--aws-secret-access-key", fake.awsSecret}, fake.awsSecret, []string{"/args/1 credential-flag"}},
		{"--private-key inline", []string{"--private-key", "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC"}, "MIIEvQIBADANBgkq", []string{"/args/1 credential-flag"}},
		{"--auth-token", []string{"--auth-token", "at-123"}, "at-123", []string{"/args/1 credential-flag"}},
		{"--bearer", []string{"--bearer", "abc.def"}, "abc.def", []string{"/args/1 credential-flag"}},
		{"--credential", []string{"--credential", "cred-1"}, "cred-1", []string{"/args/1 credential-flag"}},
		{"--github-personal-access-token", []string{"--github-personal-access-token", "pat-value"}, "pat-value", []string{"/args/1 credential-flag"}},
		{"--refresh-token", []string{"--refresh-token", "rt-value"}, "rt-value", []string{"/args/1 credential-flag"}},
		{"--client-key-data", []string{"--client-key-data", "LS0tLS1CRUdJTi"}, "LS0tLS1CRUdJTi", []string{"/args/1 credential-flag"}},
		{"GITHUB_TOKEN_2 style", []string{"--github-token-prod", "gh-prod-1"}, "gh-prod-1", []string{"/args/1 credential-flag"}},
		{"--key random", []string{"--key", "5f4dcc3b5aa765d61d8327deb882cf99"}, "5f4dcc3b5aa765d6", []string{"/args/1 credential-flag"}},
		{"--auth user:pass", []string{"--basic-auth", "admin:adm1npw"}, "adm1npw", []string{"/args/1 credential-flag"}},
		{"placeholder default is a secret", []string{"--api-key", "${API_KEY:-abc123}"}, "abc123", []string{"/args/1 credential-flag"}},
		{"quoted value", []string{`--token="q-tok-1"`}, "q-tok-1", []string{"/args/0 credential-flag"}},
		{"java system property", []string{"-Djavax.net.ssl.keyStorePassword=changeit"}, "changeit", []string{"/args/0 credential-flag"}},
		{"openssl pass:", []string{"-passin", "pass:opensslpw"}, "opensslpw", []string{"/args/1 credential-flag"}},
		{"keytool storepass", []string{"-storepass", "storepw1"}, "storepw1", []string{"/args/1 credential-flag"}},

		// Programs whose short flags take a password.
		{"mysql -pSECRET", []string{"mysql", "-uroot", "-pSECRET", "app"}, "SECRET", []string{"/args/2 credential-flag"}},
		{"mysql -p lowercase", []string{"mysqldump", "-pmysecretpw", "app"}, "mysecretpw", []string{"/args/1 credential-flag"}},
		{"-pSECRET without program", []string{"-uroot", "-pS3cr3t!x"}, "S3cr3t!x", []string{"/args/1 credential-flag"}},
		{"docker exec mysql", []string{"exec", "-i", "db", "mysql", "-pR00tpass", "-e", "select 1"}, "R00tpass", []string{"/args/4 credential-flag"}},
		{"sshpass", []string{"sshpass", "-p", "sshpw1", "ssh", "host"}, "sshpw1", []string{"/args/2 credential-flag"}},
		{"redis-cli -a", []string{"redis-cli", "-h", "cache", "-a", "redispw1"}, "redispw1", []string{"/args/4 credential-flag"}},
		{"mongosh -p", []string{"mongosh", "-u", "admin", "-p", "mongopw1"}, "mongopw1", []string{"/args/4 credential-flag"}},
		{"sqlcmd -P", []string{"sqlcmd", "-S", "db", "-U", "sa", "-P", "Sqlpw123"}, "Sqlpw123", []string{"/args/6 credential-flag"}},
		{"ldapsearch -w", []string{"ldapsearch", "-D", "cn=admin", "-w", "ldappw1"}, "ldappw1", []string{"/args/4 credential-flag"}},
		{"curl -u", []string{"curl", "-u", "admin:curlpw1", "https://x.example.com"}, "curlpw1", []string{"/args/2 credential-flag"}},
		{"docker login -p", []string{"docker", "login", "-u", "me", "-p", "dockerpw1", "registry.example.com"}, "dockerpw1", []string{"/args/5 credential-flag"}},
		{"smbclient -U", []string{"smbclient", "//srv/share", "-Uuser%smbpass1"}, "smbpass1", []string{"/args/2 credential-flag"}},

		// Header-shaped arguments.
		{"-H bearer", []string{"-H", "Authorization: Bearer abcDEF123ghi456"}, "abcDEF123ghi456", []string{"/args/1 header-credential"}},
		{"--header x-api-key", []string{"--header", "X-Api-Key: apikeyvalue1"}, "apikeyvalue1", []string{"/args/1 header-credential"}},
		{"--header=", []string{"--header=X-Auth-Token: authtok1"}, "authtok1", []string{"/args/0 header-credential"}},
		{"header no space", []string{"--header", "Authorization:Bearer abcDEF123ghi456"}, "abcDEF123ghi456", []string{"/args/1 header-credential"}},
		{"header name and value apart", []string{"--header", "Authorization", "Bearer abcDEF123ghi456"}, "abcDEF123ghi456", []string{"/args/2 header-credential"}},
		{"header name with colon apart", []string{"Private-Token:", "gitlabtok1"}, "gitlabtok1", []string{"/args/1 header-credential"}},
		{"basic header", []string{"-H", "Authorization: " + fake.basic}, "dXNlcjpwYXNzd29yZA", []string{"/args/1 header-credential"}},
		{"cookie", []string{"-H", "Cookie: session=abc123def456"}, "abc123def456", []string{"/args/1 header-credential"}},
		{"subscription key", []string{"-H", "Ocp-Apim-Subscription-Key: subkey12345"}, "subkey12345", []string{"/args/1 header-credential"}},
		{"headers json", []string{"--headers", `{"Authorization":"Bearer abcDEF123ghi456"}`}, "abcDEF123ghi456", []string{"/args/1 credential-assignment"}},
		{"bare bearer", []string{"Bearer abcDEF123ghi456jkl"}, "abcDEF123ghi456jkl", []string{"/args/0 auth-scheme"}},
		{"bare basic", []string{fake.basic}, "dXNlcjpwYXNzd29yZA", []string{"/args/0 auth-scheme"}},

		// Env-style and other assignments.
		{"env assignment", []string{"GITHUB_TOKEN=ghtok-value"}, "ghtok-value", []string{"/args/0 credential-assignment"}},
		{"env command", []string{"OPENAI_API_KEY=openai-value", "node", "server.js"}, "openai-value", []string{"/args/0 credential-assignment"}},
		{"docker -e KEY=VALUE", []string{"run", "-i", "--rm", "-e", "BRAVE_API_KEY=brave-value", "mcp/brave-search"}, "brave-value", []string{"/args/4 credential-assignment"}},
		{"docker --env=", []string{"--env=SLACK_BOT_TOKEN=slack-value"}, "slack-value", []string{"/args/0 credential-assignment"}},
		{"aws secret env", []string{"AWS_SECRET_ACCESS_KEY=" + fake.awsSecret}, fake.awsSecret, []string{"/args/0 credential-assignment"}},
		{"kubectl from-literal", []string{"create", "secret", "generic", "db", "--from-literal=password=k8spass1"}, "k8spass1", []string{"/args/4 credential-assignment"}},
		{"helm set", []string{"--set", "auth.rootPassword=helmpw1,image.tag=1"}, "helmpw1", []string{"/args/1 credential-assignment"}},
		{"libpq dsn", []string{"host=db port=5432 user=app password=libpqpw1 dbname=app"}, "libpqpw1", []string{"/args/0 credential-assignment"}},
		{"ado.net", []string{"Server=tcp:db,1433;Database=app;User Id=sa;Password=AdoPw123;"}, "AdoPw123", []string{"/args/0 credential-assignment"}},
		{"odbc pwd", []string{"Driver={ODBC};Server=db;Uid=sa;Pwd=odbcpw12;"}, "odbcpw12", []string{"/args/0 credential-assignment"}},
		{"azure storage", []string{"DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=" + fit("Ab3d+Ef6/", 86) + "==;EndpointSuffix=core.windows.net"}, "Ab3d+Ef6/Ab3d", []string{"/args/0 credential-assignment"}},
		{"json config", []string{"--config", `{"githubPersonalAccessToken":"json-pat-1","debug":true}`}, "json-pat-1", []string{"/args/1 credential-assignment"}},
		{"python dict", []string{`{'api_key': 'dict-key-1'}`}, "dict-key-1", []string{"/args/0 credential-assignment"}},
		{"env default literal", []string{"API_KEY=${API_KEY:-real-default-1}"}, "real-default-1", []string{"/args/0 credential-assignment"}},

		// A shell line given as one argument.
		{"sh -c line", []string{"-c", "mysql -uroot -pShellPw1 app"}, "ShellPw1", []string{"/args/1 credential-flag"}},
		{"flag and value in one argument", []string{"--api-key abc123"}, "abc123", []string{"/args/0 credential-flag"}},
		{"curl line", []string{"-c", "curl -H 'X-Api-Key: shellkey1' https://x.example.com"}, "shellkey1", []string{"/args/1 header-credential"}},

		// Found on real launch lines.
		{"smithery key", []string{"-y", "@smithery/cli@latest", "run", "@org/server", "--key", "550e8400-e29b-41d4-a716-446655440000"}, "550e8400-e29b-41d4", []string{"/args/5 credential-flag"}},
		{"--key short", []string{"--key", "abc123"}, "abc123", []string{"/args/1 credential-flag"}},
		{"--cookie", []string{"--cookie", "session=abc"}, "session=abc", []string{"/args/1 credential-flag"}},
		{"--api-keys", []string{"--api-keys", "k1-abc,k2-def"}, "k1-abc,k2-def", []string{"/args/1 credential-flag"}},
		{"redis auth env", []string{"REDISCLI_AUTH=myredispw"}, "myredispw", []string{"/args/0 credential-assignment"}},
		{"neo4j auth", []string{"-e", "NEO4J_AUTH=neo4j/s3cretpw"}, "s3cretpw", []string{"/args/1 credential-assignment"}},
		{"--auth token", []string{"--auth", "abc123"}, "abc123", []string{"/args/1 credential-flag"}},
		{"go mysql dsn", []string{"--dsn", "app:g0dsnpass@tcp(127.0.0.1:3306)/app"}, "g0dsnpass", []string{"/args/1 url-password"}},
		{"auth header flag", []string{"--auth-header", "Bearer abcDEF123ghi456"}, "abcDEF123ghi456", []string{"/args/1 auth-scheme"}},
		{"header value alone", []string{"--header", "Bearer abcDEF123ghi456"}, "abcDEF123ghi456", []string{"/args/1 header-credential"}},
		{"key in url path", []string{"https://mcp.example.com/api/mcp/s/" + fake.randomKey + "/mcp"}, fake.randomKey, []string{"/args/0 url-path-secret"}},
		{"sentry dsn", []string{"--sentry-dsn", "https://" + fit("0123456789abcdef", 32) + "@o123.ingest.sentry.io/456"}, "0123456789abcdef", []string{"/args/1 url-user-token"}},

		// Credentials inside a base64 blob.
		{"base64 service account", []string{"--credentials-b64", b64(`{"type":"service_account","private_key":"` + fake.pem + `"}`)}, "", []string{"/args/1 private-key"}},
		{"base64 config", []string{"--config", b64(`{"apiKey":"b64-json-key-1","region":"us"}`)}, "", []string{"/args/1 credential-assignment"}},
		{"base64 token", []string{b64("token: " + fake.github)}, "", []string{"/args/0 token/github"}},

		{"base64 user:password bare", []string{"dXNlcjpwYXNzd29yZA=="}, "dXNlcjpwYXNzd29yZA", []string{"/args/0 auth-scheme"}},
		{"double-escaped json", []string{`{\"apiKey\":\"esc-json-key-1\"}`}, "esc-json-key-1", []string{"/args/0 credential-assignment"}},

		// Random key material as a bare argument.
		{"bare random", []string{"server.js", fake.randomKey}, fake.randomKey, []string{"/args/1 high-entropy"}},
		{"base64 key bare", []string{"Zx8/Qm3+Vt7kLp2Rw9Yb4Nc6Hd1Jf5Gs0Ta"}, "Zx8/Qm3+Vt7kLp2Rw9Yb", []string{"/args/0 high-entropy"}},

		// Seed phrases, Oracle logins, setters, Windows flags.
		{"mnemonic in docker -e", []string{"-e", "MNEMONIC=abandon ability able about above absent absorb abstract absurd abuse access accident"}, "abandon ability", []string{"/args/1 credential-assignment"}},
		{"--seed-phrase", []string{"--seed-phrase", "abandon ability able about"}, "abandon ability", []string{"/args/1 credential-flag"}},
		{"ezconnect bare", []string{"scott/Tiger-1234@//db.example.com:1521/ORCLPDB1"}, "Tiger-1234", []string{"/args/0 url-password"}},
		{"ezconnect after a flag", []string{"--connect", "app/Pw1234x@//db:1521/svc"}, "Pw1234x", []string{"/args/1 url-password"}},
		{"sqlplus login after -S", []string{"sqlplus", "-S", "scott/tiger99@db"}, "tiger99", []string{"/args/2 url-password"}},
		{"sqlplus login alone", []string{"sqlplus", "scott/tiger99"}, "tiger99", []string{"/args/1 url-password"}},
		{"sqlldr userid=", []string{"sqlldr", "userid=scott/tiger99", "control=load.ctl"}, "tiger99", []string{"/args/1 url-password"}},
		{"setx in cmd /c", []string{"/c", "setx API_KEY abc123def && npx -y server"}, "abc123def", []string{"/args/1 credential-assignment"}},
		{"setx split", []string{"/c", "setx", "GITHUB_TOKEN", "abc123def"}, "abc123def", []string{"/args/3 credential-assignment"}},
		{"fish set -gx", []string{"-c", "set -gx API_TOKEN abc123def; exec server"}, "abc123def", []string{"/args/1 credential-assignment"}},
		{"git config token", []string{"config", "--global", "github.token", "abc123def"}, "abc123def", []string{"/args/3 credential-assignment"}},
		{"npm config set authToken", []string{"npm", "config", "set", "//registry.npmjs.org/:_authToken", "abc123def"}, "abc123def", []string{"/args/4 credential-assignment"}},
		{"powershell $env: with spaces", []string{"-Command", "$env:API_KEY = 'abc123def'; npx -y server"}, "abc123def", []string{"/args/1 credential-assignment"}},
		{"toml pair in an argument", []string{"--config-text", `api_key = "abc123def"`}, "abc123def", []string{"/args/1 credential-assignment"}},
		{"windows /password:", []string{"/user:svc", "/password:Hunter22"}, "Hunter22", []string{"/args/1 credential-flag"}},
		{"powershell -Password:", []string{"-UserName", "svc", "-Password:Hunter22"}, "Hunter22", []string{"/args/2 credential-flag"}},
		{"--pass", []string{"--pass", "hunter22"}, "hunter22", []string{"/args/1 credential-flag"}},
		{"--pass=", []string{"--pass=hunter22"}, "hunter22", []string{"/args/0 credential-flag"}},
		{"-pass pass: stays refused", []string{"-pass", "pass:hunter22"}, "hunter22", []string{"/args/1 credential-flag"}},
		{"mysql -p with =", []string{"mysql", "-pPass=word1"}, "word1", []string{"/args/1 credential-flag"}},
		{"mysql -p with /", []string{"mysql", "-pPass/word1"}, "word1", []string{"/args/1 credential-flag"}},
		{"-p with = without program", []string{"-uroot", "-pPass=word1"}, "word1", []string{"/args/1 credential-flag"}},
		{"-p with / without program", []string{"-uroot", "-pPass/word1"}, "word1", []string{"/args/1 credential-flag"}},
		{"--from-password is a password", []string{"--from-password", "hunter22"}, "hunter22", []string{"/args/1 credential-flag"}},
		{"alternate value is judged", []string{"--token", "${CI:+abc123def}"}, "abc123def", []string{"/args/1 credential-flag"}},
		{"secret name that is random", []string{"--secret-name", fake.randomKey}, fake.randomKey, []string{"/args/1 credential-flag"}},

		{"python environ", []string{"-c", "import os; os.environ['OPENAI_API_KEY'] = 'abc123def'; import server"}, "abc123def", []string{"/args/1 credential-assignment"}},
		{"node process.env", []string{"-e", `process.env["API_TOKEN"]="abc123def"; require("./server")`}, "abc123def", []string{"/args/1 credential-assignment"}},
		{"gh secret set --body", []string{"secret", "set", "API_KEY", "--body", "abc123def"}, "abc123def", []string{"/args/4 credential-assignment"}},
		{"doppler secrets set", []string{"-c", "doppler secrets set API_KEY abc123def && exec server"}, "abc123def", []string{"/args/1 credential-assignment"}},
		{"password inside a substitution", []string{"-c", "COUNT=$(mysql -uroot -pShellPw1 -N -e 'select 1') exec server"}, "ShellPw1", []string{"/args/1 credential-flag"}},
		{"flag inside backticks", []string{"-c", "DATA=`curl -s --api-key abc123def https://x.example.com` exec server"}, "abc123def", []string{"/args/1 credential-flag"}},
		{"setx with a switch", []string{"/c", "setx /M API_KEY abc123def"}, "abc123def", []string{"/args/1 credential-assignment"}},
		{"SetEnvironmentVariable", []string{"-Command", "[Environment]::SetEnvironmentVariable('OPENAI_API_KEY', 'abc123def456', 'User'); npx -y server"}, "abc123def456", []string{"/args/1 credential-assignment"}},
		{"wallet seed phrase", []string{"--wallet-seed", "abandon ability able about above absent absorb abstract absurd abuse access accident"}, "abandon ability", []string{"/args/1 credential-flag"}},
		{"id:secret pair", []string{"-y", "@twilio-alpha/mcp", "AC" + fit("0123456789abcdef", 32) + "/SK" + fit("0123456789abcdef", 32) + ":" + fake.randomKey}, fake.randomKey, []string{"/args/2 high-entropy"}},

		// Keys in the paths of RPC providers, and ?appid=.
		{"infura", []string{"--rpc-url", "https://mainnet.infura.io/v3/" + fit("0123456789abcdef", 32)}, "0123456789abcdef", []string{"/args/1 url-path-secret"}},
		{"alchemy", []string{"https://eth-mainnet.g.alchemy.com/v2/" + fit("Ex4mpleFake_Key-9", 32)}, "Ex4mpleFake_Key-9", []string{"/args/0 url-path-secret"}},
		{"ankr", []string{"RPC_URL=https://rpc.ankr.com/eth/" + fit("0123456789abcdef", 64)}, "0123456789abcdef", []string{"/args/0 url-path-secret"}},
		{"quicknode", []string{"https://late-frost-1234.quiknode.pro/" + fit("0123456789abcdef", 40) + "/"}, "0123456789abcdef", []string{"/args/0 url-path-secret"}},
		{"blast uuid", []string{"https://eth-mainnet.blastapi.io/550e8400-e29b-41d4-a716-446655440000"}, "550e8400-e29b-41d4", []string{"/args/0 url-path-secret"}},
		{"appid query", []string{"https://api.openweathermap.org/data/2.5/weather?q=Paris&appid=" + fit("0123456789abcdef", 32)}, "0123456789abcdef", []string{"/args/0 url-query-credential"}},

		// Several findings, sorted by pointer.
		{"several", []string{"--token", "t-1", "x", "--password=p-1", "postgres://a:b-pass@h/d"}, "b-pass",
			[]string{"/args/1 credential-flag", "/args/3 credential-flag", "/args/4 url-password"}},
		{"pointer ordering past 9", append(rep10(), "--token", "t-2"), "t-2", []string{"/args/11 credential-flag"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := secrets.CheckArgs("/args", tt.args)
			if got := found(err); !slices.Equal(got, tt.want) {
				t.Errorf("CheckArgs(%q) = %q, want %q", tt.args, got, tt.want)
			}
			checkRefusal(t, tt.name, err, tt.secret)
		})
	}
}

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

func rep10() []string {
	out := make([]string, 10)
	for i := range out {
		out[i] = fmt.Sprintf("arg%d", i)
	}
	return out
}

func TestCheckArgsAccepts(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		{"npx package", []string{"-y", "@modelcontextprotocol/server-github"}},
		{"filesystem paths", []string{"-y", "@modelcontextprotocol/server-filesystem", "/Users/me/Desktop", `C:\Users\me\Documents`, "~/projects"}},
		{"uvx with versions", []string{"mcp-server-fetch@2025.1.17", "--from", "git+https://github.com/org/repo.git@v1.2.3"}},
		{"ports and counts", []string{"--port", "8080", "--max-tokens", "100", "--timeout", "30", "--tokens-per-minute", "9000"}},
		{"ml flags", []string{"--tokenizer", "bert-base-uncased", "--eos-token", "</s>", "--pad-token-id", "0", "--model", "claude-3-5-sonnet-20241022"}},
		{"models and regions", []string{"--model", "gpt-4o-mini", "--region", "us-east-1", "eu-west-2", "o3-mini", "gemini-2.5-pro"}},
		{"commit hash", []string{"git", "checkout", "0123456789abcdef0123456789abcdef01234567"}},
		{"git sha flag", []string{"--revision", "9fceb02d0ae598e95dc970b74767f19372d61af8"}},
		{"uuid", []string{"--workspace", "550e8400-e29b-41d4-a716-446655440000", "6ba7b810-9dad-11d1-80b4-00c04fd430c8"}},
		{"digests", []string{"ghcr.io/org/img@sha256:" + fit("0123456789abcdef", 64), "sha512-" + fit("Ab3d+Ef6/Gh9", 86) + "=="}},
		{"docker env references", []string{"run", "-i", "--rm", "-e", "GITHUB_PERSONAL_ACCESS_TOKEN", "-e", "SLACK_BOT_TOKEN", "ghcr.io/github/github-mcp-server"}},
		{"docker ports and users", []string{"run", "-p", "3000:3000", "-p8080:80", "--user", "1000:1000", "-u", "app:app", "-v", "/var/run/docker.sock:/var/run/docker.sock"}},
		{"docker mounts", []string{"--mount", "type=bind,src=/Users/me/data,dst=/data", "--env-file", ".env"}},
		{"user name only", []string{"git@github.com:org/repo.git", "ssh://git@host/repo", "https://user@host.example.com", "postgresql://app@localhost:5432/db"}},
		{"host port", []string{"localhost:6379", "127.0.0.1:8080", "redis://localhost:6379/0", "http://0.0.0.0:3000/mcp"}},
		{"empty password", []string{"https://user:@host.example.com/"}},
		{"reference defaults that hide nothing", []string{"${OPENAI_API_KEY}", "${OPENAI_API_KEY:-}", "${DB_PASSWORD:?unset}", "${DB_PASSWORD?unset}", "${API_TOKEN:-<your-token>}", "${API_TOKEN:-${FALLBACK}}", "${API_TOKEN:+--token=$API_TOKEN}", "${PORT:-8080}", "--db", "${DB_HOST:-localhost}"}},
		{"references", []string{"${API_KEY}", "$TOKEN", "%TOKEN%", "{{ token }}", "${input:github_token}", "${env:GITHUB_TOKEN}", "$(cat ~/.token)", "{api_key}"}},
		{"reference flags", []string{"--api-key", "${API_KEY}", "--token=$GITHUB_TOKEN", "--password", "%DB_PASSWORD%", "--secret", "{{ secrets.x }}"}},
		{"reference in url", []string{"postgres://user:${DB_PASSWORD}@db/app", "https://api.example.com/?api_key=${KEY}"}},
		{"reference in header", []string{"--header", "Authorization: Bearer ${TOKEN}", "-H", "Authorization:${AUTH_HEADER}", "-H", "X-Api-Key: $API_KEY"}},
		{"reference in assignment", []string{"GITHUB_TOKEN=${GITHUB_TOKEN}", "API_KEY=$API_KEY", "-e", "TOKEN=${input:token}"}},
		{"reference with empty default", []string{"--api-key", "${API_KEY:-}"}},
		{"where the secret lives", []string{"--api-key-file", "/run/secrets/api_key", "--token-file", "./token.txt", "--password-stdin",
			"--api-key-env", "OPENAI_API_KEY", "--token-url", "https://auth.example.com/oauth/token", "--secret-name", "prod/db",
			"--credentials", "./credentials.json", "--private-key", "~/.ssh/id_ed25519", "--client-key", "certs/client.key"}},
		{"how auth works", []string{"--auth-type", "oauth", "--no-auth", "--auth-method", "token", "--token-type", "bearer", "--skip-auth", "--with-token"}},
		{"credential flag without a value", []string{"--verbose", "--api-key"}},
		{"credential flag followed by a flag", []string{"--api-key", "--verbose", "--password", "--port", "1"}},
		{"credential-ish words", []string{"--keyring", "login", "--keyword", "foo", "--token-limit", "5", "--max-tokens", "5", "--passthrough", "--bypass", "x"}},
		{"pagination", []string{"--page-token", "CAESIQDx" + fit("Ab3dEf6h9", 30), "--next-token", "abc"}},
		{"ids and keys that are names", []string{"--client-id", "my-app", "--key-id", "k1", "--access-key-id", "id", "--cache-key", "v2-deps", "--sort-key", "created_at"}},
		{"flag values that are identifiers", []string{"--spreadsheet-id", "1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms", "--document", "1A2b3C4d5E6f7G8h9I0jKlMnOpQrStUvWxYz"}},
		{"ordinary queries", []string{"https://api.example.com/v1/search?q=token&page=2&sort=key&keyword=password", "https://example.com/?key=name", "https://x.example.com/a?max_tokens=100&token_type=bearer&page_token=abc&response_type=token&client_id=app"}},
		{"assignments that are not credentials", []string{"PORT=8080", "NODE_ENV=production", "LOG_LEVEL=info", "AWS_REGION=us-east-1", "NODE_OPTIONS=--max-old-space-size=4096", "PWD=/home/me", "PASSWORD_FILE=/run/secrets/pw"}},
		{"placeholders", []string{"--api-key", "<your-api-key>", "--token", "YOUR_TOKEN_HERE", "--password", "****", "postgres://user:<password>@db/app", "API_KEY=xxxxxxxx", "sk-xxxxxxxxxxxxxxxxxxxxxxxx", "ghp_" + rep("x", 36)}},
		{"publishable keys", []string{"pk_live_" + fit("51Ex4mpleFake", 40), "pk_test_" + fit("51Ex4mpleFake", 40)}},
		{"prose", []string{"--description", "Searches the docs; the token budget is 1000 and the API key goes in env", "--system-prompt", "You are a helpful assistant. Bearer tokens are handled by the server."}},
		{"mcp-remote", []string{"mcp-remote", "https://mcp.example.com/sse", "--header", "Authorization:${AUTH_HEADER}", "--transport", "sse-only"}},
		{"short flag bundles", []string{"-pv", "-prf", "-p", "5432", "-pno:cacheprovider", "-p3.12", "-preview-features", "-profile", "dev"}},
		{"openssl safe pass", []string{"-passin", "env:KEY_PASS", "-passout", "file:/run/pw", "-pass", "stdin"}},
		{"secret managers", []string{"--token", "op://vault/github/token", "--password", "arn:aws:secretsmanager:us-east-1:123456789012:secret:db"}},
		{"docker buildx secret", []string{"--secret", "id=npmrc,src=/Users/me/.npmrc"}},
		{"sk- prose", []string{"sk-learn-style-model-name"}},
		{"well-known ids", []string{"1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms", "1AbCdEfGhIjKlMnOpQrStUvWxYz012345", "QmXoypizjW3WknFiJnKLwHCnL72vedxjQkDDP1mXWo6uco"}},
		{"camel case identifier", []string{"MyLongComponentName2024ForTestingPurposes"}},
		{"package scopes", []string{"@scope/pkg@1.2.3", "github.com/org/repo@v1.2.3", "node:20@sha256:" + fit("0123456789abcdef", 64)}},
		{"urls with paths", []string{"https://storage.googleapis.com/bucket/file.txt", "s3://bucket/key/path", "file:///Users/me/x.db", "git+https://github.com/org/repo.git#egg=x&subdirectory=y"}},
		{"java property", []string{"-Dlog.level=debug", "-Dserver.port=8080", "--set", "image.tag=1.2.3"}},
		{"header-like prose", []string{"--title", "Token: overview of the API", "--description", "Password: see the vault. Key: none needed"}},
		{"bare scheme words", []string{"-H", "Authorization: Bearer", "Basic auth is off"}},
		{"numbers", []string{"12345678901234567890123456789012345678901234567890"}},
		{"base64 without digits", []string{"--system", "VGhpcyBpcyBhIHRlc3Q="}},
		{"header-naming flags", []string{"--api-key-header", "X-Api-Key", "--port", "8080", "--auth-header-name", "Authorization"}},
		{"public keys", []string{"--public-key", "ssh-ed25519", "AAAAC3NzaC1lZDI1NTE5AAAAIGb9ExampleFakePublicKey0123456789abcdefGHIJ", "me@host"}},
		{"keys that are ids", []string{"--file-key", "AbC123dEf456GhI789jKl0", "--issue-key", "PROJ-123", "--idempotency-key", "7d9f0a2b-req", "--site-key", "6LcExampleSiteKey0123456789abcdefGHIJKLMN"}},
		{"ids in url paths", []string{"https://mcp.pipedream.net/550e8400-e29b-41d4-a716-446655440000/gmail", "https://api.notion.com/v1/pages/0123456789abcdef0123456789abcdef", "https://example.com/docs/getting-started/installation-guide"}},
		{"auth methods", []string{"--auth", "oauth", "--auth", "github", "--auth=none", "NEO4J_AUTH=none", "--basic-auth", "false", "--oauth", "true", "--auth", "service-account"}},
		{"key lookup words", []string{"--key", "user-name", "--key", "my-project-key-2024", "--key", "./server.key", "--key", "name"}},

		// Command substitution and other shell units are references.
		{"substitution in sh -c", []string{"-c", "GITHUB_TOKEN=$(gh auth token) exec github-mcp-server stdio"}},
		{"substitution with quotes", []string{"-c", `OPENAI_API_KEY="$(op read 'op://Private/OpenAI/api key')" exec uvx openai-mcp`}},
		{"nested substitution", []string{"-c", "export DB_PASSWORD=$(vault kv get -field=password secret/$(whoami)/db); exec server"}},
		{"backticks", []string{"-c", "API_KEY=`pass show mcp/api-key` exec node server.js", "--token", "`gh auth token`"}},
		{"error-message expansion", []string{"--token", "${GITHUB_TOKEN:?set GITHUB_TOKEN}", "-c", "TOKEN=${TOKEN:?TOKEN is not set} exec server"}},
		{"template with a dotted path", []string{"--api-key={{ secrets.openai }}", "--token", "{{ .Values.token }}"}},
		{"powershell command result", []string{"-Command", "$env:API_KEY = (Get-Secret -Name OpenAI -AsPlainText); npx -y server"}},
		{"shell test", []string{"-c", `[ "$PASSWORD" = "" ] && exit 1; exec server`}},
		{"commit in a shell assignment", []string{"-c", "export GIT_COMMIT=9fceb02d0ae598e95dc970b74767f19372d61af8 && exec node server.js"}},
		{"setter words in prose", []string{"--description", "Please set API_KEY in your environment first", "--help-text", "Run git config to set github.token"}},
		{"powershell cmdlet value", []string{"-Command", "$env:API_KEY = Get-Content C:\\keys\\api.txt; $env:TOKEN = Read-Host -AsSecureString; npx -y server"}},
		{"set in a shell line", []string{"-c", "set -euo pipefail; set -o allexport; source .env; exec server"}},
		{"environ with a reference", []string{"-c", "import os; os.environ['API_KEY'] = os.environ['OPENAI_KEY']"}},
		{"setter with a reference", []string{"/c", "setx API_KEY %API_KEY% && npx -y server", "config", "--global", "user.name", "Alice"}},

		// PEM blocks that hold no private key, and base64 of text.
		{"pem certificate", []string{"--ca-cert", "-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUQm3Vt7kLp2Rw9Yb4Nc6Hd1Jf5GswCgYIKoZIzj0EAwIw\nZx8QmVt7kLp2Rw9Yb4Nc6Hd1Jf5Gs0TaQm3Vt7kLp2Rw9Yb4Nc6Hd1Jf5Gs0TaQm3\n-----END CERTIFICATE-----\n"}},
		{"pem public key", []string{"--public-key", "-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEQm3Vt7kLp2Rw9Yb4Nc6Hd1Jf5GsTa\nQm3Vt7kLp2Rw9Yb4Nc6Hd1Jf5Gs0TaQm3Vt7kLp2Rw9Yb4Nc6Hd1Jf5Gs0TaQm3Vt7\n-----END PUBLIC KEY-----"}},
		{"base64 of a path", []string{b64("/Users/alice/Documents/notes"), b64("/home/bob/projects/mcp-server")}},

		// Placeholders of dots, public keys, identifiers.
		{"ellipsis placeholders", []string{"--api-key", "sk-...", "--token", "ghp_…", "--secret", "...", "--openai-key", "sk-proj-..."}},
		{"publishable keys after credential flags", []string{"--api-key", "pk_live_" + fit("51Ex4mpleFake", 40), "--publishable-key", "pk_test_" + fit("51Ex4mpleFake", 40), "--public-token", "pk.eyJ1IjoiYWNtZSIsImEiOiJ" + fit("Ex4mpleFake0", 20) + "In0." + fit("Ex4mple-Fake_", 22)}},
		{"twilio sids", []string{fake.twilio, "--api-key-sid", fake.twilio, "AC" + fit("0123456789abcdef", 32)}},
		{"secret objects named", []string{"--set", "auth.existingSecret=mcp-credentials", "--from-secret", "mcp-credentials", "--secret-name", "prod/mcp/db", "--token-secret-ref", "github-token", "--set", "externalSecret=mcp-api"}},
		{"rpc urls without keys", []string{"https://rpc.ankr.com/eth", "https://mainnet.infura.io/v3/${INFURA_KEY}", "https://eth-mainnet.g.alchemy.com/v2/<your-api-key>", "https://polygon-mainnet.infura.io/ws/v3"}},
		{"mnemonic words that are not seeds", []string{"--mnemonic-language", "english", "--show-mnemonic", "MNEMONIC_FILE=/run/secrets/seed"}},
		{"oracle without a password", []string{"sqlplus", "/nolog", "@script.sql", "-S", "scott@db", "/ as sysdba"}},
		{"paths and packages after -p", []string{"-p./build/v2", "-p@scope/pkg2", "-pkey=value", "-p/usr/lib64"}},
		{"pgp public key with armor headers", []string{"--pgp-key", "-----BEGIN PGP PUBLIC KEY BLOCK-----\nVersion: GnuPG v2\nComment: alice\n\nmQINBGR4Zx8QmVt7kLp2Rw9Yb4Nc6Hd1Jf5Gs0TaQm3Vt7kLp2Rw9Yb4Nc6Hd1Jf5Gs0TaQ\n=Ab3d\n-----END PGP PUBLIC KEY BLOCK-----"}},
		{"twilio sids after credential names", []string{"--api-key", fake.twilio, "TWILIO_API_KEY=" + fake.twilio}},
		{"seeds that are numbers", []string{"--seed", "42", "--random-seed=1234", "SEED=7"}},
		{"template with spaces in a url", []string{"https://mcp.example.com/sse?token={{ token }}&x=1"}},
		{"pairs that are no secrets", []string{"localhost:6379", "ghcr.io/org/img:v1.2.3", "www-data:www-data", "did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK", "sha512:" + fit("Ab3d+Ef6/Gh9", 86)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := secrets.CheckArgs("/args", tt.args); err != nil {
				t.Errorf("CheckArgs(%q) = %v, want nil", tt.args, err)
			}
		})
	}
}

func TestCheckURL(t *testing.T) {
	tests := []struct {
		url    string
		secret string
		want   string // rule, or "" for none
	}{
		{"https://mcp.example.com/mcp", "", ""},
		{"http://localhost:8080/sse", "", ""},
		{"https://user@mcp.example.com/mcp", "", ""},
		{"https://mcp.example.com/mcp?region=eu&version=2", "", ""},
		{"https://mcp.example.com/mcp?api_key=${API_KEY}", "", ""},
		{"https://mcp.example.com/{tenant}/mcp", "", ""},
		{"ws://localhost:9000/", "", ""},
		{"https://[::1]:8443/mcp", "", ""},
		{"https://:tok3nvalue@mcp.example.com/mcp", "tok3nvalue", "url-password"},
		{"https://me:pw12345@mcp.example.com/mcp", "pw12345", "url-password"},
		{"HTTPS://me:pw12345@mcp.example.com/mcp", "pw12345", "url-password"},
		{"https://mcp.example.com/mcp?token=t0kenval", "t0kenval", "url-query-credential"},
		{"https://mcp.example.com/mcp?access_token=t0kenval&x=1", "t0kenval", "url-query-credential"},
		{"https://mcp.example.com/mcp#id_token=t0kenval", "t0kenval", "url-query-credential"},
		{"https://mcp.example.com/mcp?%zz=1&apikey=t0kenval", "t0kenval", "url-query-credential"},
		{"https://mcp.example.com/mcp?x=%gg%&sig=s1gnature", "s1gnature", "url-signed"},
		{"https://mcp.example.com/sse?key=" + fake.google, fake.google, "token/google"},
		{"https://mcp.example.com/mcp/" + fake.github, fake.github, "token/github"},
		{"me:pw12345@mcp.example.com/mcp", "pw12345", "url-password"},
		{"https://me:pw 12345@mcp.example.com/mcp", "pw 12345", "url-password"},
		{"https://x.example.com/\x00?token=nul-after\x00", "nul-after", "url-query-credential"},
		{"jdbc:sqlserver://db:1433;password=jdbcpw12", "jdbcpw12", "url-query-credential"},
		{fake.slackWebhook, fake.slackWebhook[33:], "token/slack-webhook"},
		{"https://server.smithery.ai/@org/server/mcp?config=" + b64(`{"apiKey":"smithery-cfg-key-1"}`) + "&profile=x", "smithery-cfg-key-1", "credential-assignment"},
	}
	for _, tt := range tests {
		err := secrets.CheckURL("/mcpServers/x/url", tt.url)
		var rules []string
		for _, r := range refusals.All(err) {
			if r.Pointer != "/mcpServers/x/url" {
				t.Errorf("CheckURL(%q): pointer %q", tt.url, r.Pointer)
			}
			rules = append(rules, r.Rule)
		}
		if tt.want == "" {
			if err != nil {
				t.Errorf("CheckURL(%q) = %v, want nil", tt.url, err)
			}
			continue
		}
		if !slices.Contains(rules, tt.want) {
			t.Errorf("CheckURL(%q) = %q, want %s", tt.url, rules, tt.want)
		}
		checkRefusal(t, fmt.Sprintf("CheckURL(%q)", tt.url), err, tt.secret)
	}
}

func TestCheckCommand(t *testing.T) {
	tests := []struct {
		command string
		secret  string
		want    string
	}{
		{"npx", "", ""},
		{"/usr/local/bin/node", "", ""},
		{`C:\Program Files\nodejs\npx.cmd`, "", ""},
		{"uvx", "", ""},
		{"docker", "", ""},
		{"env OPENAI_API_KEY=cmd-key-1 node server.js", "cmd-key-1", "credential-assignment"},
		{"mysql -uroot -pCmdSecret1 app", "CmdSecret1", "credential-flag"},
		{"server --api-key cmdkey12", "cmdkey12", "credential-flag"},
		{"/opt/" + fake.github + "/bin/server", fake.github, "token/github"},
		{"psql postgres://u:cmdpw123@db/app", "cmdpw123", "url-password"},
		{`curl -H "Authorization: Bearer abcDEF123ghi456" https://x.example.com`, "abcDEF123ghi456", "header-credential"},
		{"sh -c 'GITHUB_TOKEN=quoted-tok-1 exec server'", "quoted-tok-1", "credential-assignment"},
	}
	for _, tt := range tests {
		err := secrets.CheckCommand("/mcpServers/x/command", tt.command)
		if tt.want == "" {
			if err != nil {
				t.Errorf("CheckCommand(%q) = %v, want nil", tt.command, err)
			}
			continue
		}
		var rules []string
		for _, r := range refusals.All(err) {
			if r.Pointer != "/mcpServers/x/command" {
				t.Errorf("CheckCommand(%q): pointer %q", tt.command, r.Pointer)
			}
			rules = append(rules, r.Rule)
		}
		if !slices.Contains(rules, tt.want) {
			t.Errorf("CheckCommand(%q) = %q, want %s", tt.command, rules, tt.want)
		}
		checkRefusal(t, fmt.Sprintf("CheckCommand(%q)", tt.command), err, tt.secret)
	}
}

// Hostile input: no panic, and a secret planted anywhere is still refused.
func TestHostileInput(t *testing.T) {
	big := strings.Repeat("a=b&c://d@e:f;", 1<<14)
	inputs := []string{
		"", "\x00", "\xff\xfe", "://", "://@", "a://:@", "https://", "https://@", "https://:@/", "?", "#", "=",
		"${", "${}", "${:-", "$", "%", "%%", "{{", "}}", "-", "--", "---", "-=", "--=", "\"", "'", `"a`, "Authorization:",
		"-----BEGIN ", "eyJ", "eyJ.eyJ.", strings.Repeat("-", 1<<18), strings.Repeat("=", 1<<18), strings.Repeat("a", 1<<18),
		strings.Repeat("://", 1<<16), strings.Repeat(`"k":"`, 1<<15), strings.Repeat(" : ", 1<<15), big,
		strings.Repeat("${", 1<<15), strings.Repeat("Bearer ", 1<<14),
		// Found in review: a word that leaves something pending, then an
		// empty one; an assignment whose quote never closes.
		"setx", `API_KEY="`, `API_KEY='`, "API_KEY=`", "API_KEY=$(", "API_KEY=${", "set -x", "config --global",
		// Reference defaults and escaped parameter names (found by audit).
		strings.Repeat("${API_KEY:-", 1<<15) + "}", strings.Repeat("${API_KEY:-$(", 1<<15) + "}", strings.Repeat("${A:-", 1<<16),
		"https://h/?" + strings.Repeat("%74oken=%zz&", 1<<15), "https://h/?" + strings.Repeat("%41", 1<<17) + "=x",
	}
	for _, args := range [][]string{{"setx", ""}, {"setx", "API_KEY", ""}, {"config", "--global", ""}, {"mysql", "-p", ""}, {"--token", ""}} {
		_ = secrets.CheckArgs("/a", args)
		_ = secrets.CheckStdio("/s", args[0], args[1:])
	}
	for _, in := range inputs {
		_ = secrets.CheckURL("/u", in)
		_ = secrets.CheckCommand("/c", in)
		_ = secrets.CheckArgs("/a", []string{in, in})
	}
	// A secret after invalid UTF-8 and NULs is still found.
	err := secrets.CheckArgs("/a", []string{"\xff\x00 --token=\xffabc " + fake.github})
	if got := found(err); !slices.Contains(got, "/a/0 token/github") {
		t.Errorf("token after invalid UTF-8: %q", got)
	}
	// And inside a megabyte argument.
	err = secrets.CheckArgs("/a", []string{strings.Repeat("x ", 1<<19) + fake.github})
	if got := found(err); !slices.Contains(got, "/a/0 token/github") {
		t.Errorf("token in a megabyte argument: %q", got)
	}
}

func TestPointers(t *testing.T) {
	err := secrets.CheckArgs("/mcpServers/my~1server/args", []string{"--token", "t-1"})
	var re *refusals.Error
	if !errors.As(err, &re) || re.Pointer != "/mcpServers/my~1server/args/1" {
		t.Fatalf("pointer = %v", err)
	}
	if err := secrets.CheckArgs("", []string{"--token", "t-1"}); found(err)[0] != "/1 credential-flag" {
		t.Errorf("empty base pointer: %q", found(err))
	}
	if secrets.CheckArgs("/a", nil) != nil || secrets.CheckURL("/u", "") != nil || secrets.CheckCommand("/c", "") != nil {
		t.Error("empty input refused")
	}
}

func TestRulesAreStableAndUnique(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range secrets.Rules() {
		if r.ID == "" || r.Finds == "" || r.Fix == "" {
			t.Errorf("rule %+v incomplete", r)
		}
		if seen[r.ID] {
			t.Errorf("rule %q twice", r.ID)
		}
		seen[r.ID] = true
	}
	rules := secrets.Rules()
	rules[0].ID = "changed"
	if secrets.Rules()[0].ID == "changed" {
		t.Error("Rules returns shared state")
	}
}

// Every rule ID is documented for users (docs/secrets.md) and in the
// package doc.
func TestRulesDocumented(t *testing.T) {
	for _, file := range []string{"../docs/secrets.md", "doc.go"} {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range secrets.Rules() {
			if !strings.Contains(string(b), "`"+r.ID+"`") && !strings.Contains(string(b), "- "+r.ID+":") {
				t.Errorf("%s does not document rule %s", file, r.ID)
			}
		}
	}
}

// TestCheckText: the token formats are found in prose, wherever they sit in
// it, and prose about credentials is not refused.
func TestCheckText(t *testing.T) {
	for name, tok := range map[string]string{
		"github": fake.github, "githubFine": fake.githubFine, "gitlab": fake.gitlab, "slackBot": fake.slackBot,
		"openAIProj": fake.openAIProj, "anthropic": fake.anthropic, "awsKeyID": fake.awsKeyID, "google": fake.google,
		"huggingFace": fake.huggingFace, "npm": fake.npm, "stripe": fake.stripe, "jwt": fake.jwt, "pem": fake.pem,
		"slackWebhook": fake.slackWebhook,
	} {
		for _, text := range []string{tok, "Use " + tok + " to call it.", "key:\n" + tok + "\n", "(" + tok + ")"} {
			err := secrets.CheckText("/systemPrompt", text)
			if !errors.Is(err, refusals.ErrContainsSecret) {
				t.Errorf("%s: CheckText(%d bytes) = %v, want a refusal", name, len(text), err)
				continue
			}
			for _, r := range refusals.All(err) {
				if r.Pointer != "/systemPrompt" {
					t.Errorf("%s: pointer %q", name, r.Pointer)
				}
			}
			if strings.Contains(err.Error(), tok) {
				t.Errorf("%s: the error quotes the token", name)
			}
		}
	}
	for _, text := range []string{
		"",
		"Never ask the user for a password, a token or an API key.",
		"Set --api-key to your key, or API_KEY=${API_KEY} in the environment.",
		"Search https://docs.example.com/search?key=YOUR_KEY for pages.",
		"Uses scikit-learn (sk-learn) and the AKIA prefix of AWS key ids.",
		"The commit 3f9a2c1e8b7d6a5f4e3d2c1b0a9f8e7d6c5b4a39 fixed it.",
		"postgres://user:password@localhost/db is the URL's shape.",
	} {
		if err := secrets.CheckText("/description", text); err != nil {
			t.Errorf("CheckText(%q) = %v, want nil", text, err)
		}
	}
}
