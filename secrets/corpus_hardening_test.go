package secrets_test

// The classes of issue 14's red team, as corpus sections: credentials the
// scanner missed, and benign values it wrongly refused, each with
// neighbours. Values are generated (corpusGen), never literal.

import (
	"encoding/base64"
	"encoding/binary"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/guardian-agent/guardian-go/secrets"
)

// utf16Base64 is PowerShell's -EncodedCommand encoding of a command.
func utf16Base64(s string) string {
	r := utf16.Encode([]rune(s))
	b := make([]byte, 2*len(r))
	for i, c := range r {
		binary.LittleEndian.PutUint16(b[2*i:], c)
	}
	return base64.StdEncoding.EncodeToString(b)
}

// jsonEscapeAll writes every character of s as a \u escape, as some JSON
// encoders do for characters they consider unsafe.
func jsonEscapeSome(s, chars string) string {
	var b strings.Builder
	for _, c := range s {
		if strings.ContainsRune(chars, c) {
			b.WriteString(`\u00` + strings.ToLower(strings.ToUpper(string("0123456789abcdef"[c>>4])+string("0123456789abcdef"[c&15]))))
		} else {
			b.WriteRune(c)
		}
	}
	return b.String()
}

func corpusHardening(b *corpusBuilder) {
	g := b.g
	key := func() string { return g.rs(csAlnum, 32) }

	b.section("h14-structured")
	b.c("json with \\/ in a URL", "npx", A("-y", "@acme/mcp", "--config", X(`{"db":"postgres:\/\/app:`+g.pwURL()+`@db.example.com\/app"}`)), "")
	b.c("json with \\u escapes in a token", "npx", A("-y", "@acme/mcp", X(`{"note":"`+jsonEscapeSome(g.tk("ghp"), "_")+`"}`)), "")
	b.c("json with \\u escapes in a URL", "npx", A("-y", "@acme/mcp", X(`{"url":"https\u003a//app:`+g.pwURL()+`\u0040db.example.com"}`)), "")
	b.c("js object literal, double quotes", "node", A("-e", X(`start({apiKey: "`+key()+`", region: "eu"})`)), "")
	b.c("js object literal, single quotes", "node", A("-e", X(`start({ password: '`+g.pw()+`' })`)), "")
	b.c("js object literal, template string", "node", A("-e", X("connect({token: `"+key()+"`})")), "")
	b.c("yaml block", "npx", A("-y", "@acme/mcp", "--config-yaml", X("database:\n  host: db\n  password: "+g.pw()+"\n")), "")
	b.c("yaml list item", "npx", A("-y", "@acme/mcp", X("servers:\n  - api_key: "+key()+"\n")), "")
	b.c("ini section", "npx", A("-y", "@acme/mcp", X("[database]\nuser = app\npassword = "+g.pw()+"\n")), "")
	b.c("toml with comment", "npx", A("-y", "@acme/mcp", X("[auth]\ntoken = "+key()+" # rotate monthly\n")), "")
	b.c("properties file", "npx", A("-y", "@acme/mcp", X("db.user=app\ndb.password: "+g.pw()+"\n")), "")
	b.c("xml element", "npx", A("-y", "@acme/mcp", X("<config><password>"+g.pw()+"</password></config>")), "")
	b.c("xml element with attributes", "npx", A("-y", "@acme/mcp", X(`<apiKey type="string">`+key()+"</apiKey>")), "")
	b.c(".NET appSettings", "dotnet", A("run", "--", X(`<appSettings><add key="ApiKey" value="`+key()+`"/></appSettings>`)), "")

	b.section("h14-structured-benign")
	b.c("json with \\/ and no credential", "npx", A("-y", "@acme/mcp", "--config", `{"docs":"https:\/\/docs.example.com\/mcp","timeout":30}`), "")
	b.c("json with \\u escapes, no credential", "npx", A("-y", "@acme/mcp", `{"name":"caf\u00e9","sep":"\u002f"}`), "")
	b.c("js object literal without credentials", "node", A("-e", `start({region: "eu", retries: 3, mode: 'fast'})`), "")
	b.c("js object literal with a reference", "node", A("-e", `start({apiKey: process.env.API_KEY, token: "${TOKEN}"})`), "")
	b.c("yaml block with references", "npx", A("-y", "@acme/mcp", "database:\n  host: db\n  password: ${DB_PASSWORD}\n  password_file: /run/secrets/db\n"), "")
	b.c("ini with placeholders", "npx", A("-y", "@acme/mcp", "[database]\npassword = <your password>\ntoken = YOUR_TOKEN\n"), "")
	b.c("yaml naming a key", "npx", A("-y", "@acme/mcp", "auth:\n  type: api_key\n  header: X-API-Key\n  token_env: ACME_TOKEN\n"), "")
	b.c("xml without credentials", "npx", A("-y", "@acme/mcp", "<config><host>db</host><timeout>30</timeout></config>"), "")
	b.c("xml element with a reference", "npx", A("-y", "@acme/mcp", "<config><password>${DB_PASSWORD}</password></config>"), "")
	b.c(".NET appSettings without credentials", "dotnet", A("run", "--", `<add key="Region" value="eu-west-1"/>`), "")

	b.section("h14-loose-url")
	b.c("https with one slash", "npx", A("-y", "@acme/mcp", X("https:/app:"+g.pwURL()+"@db.example.com/x")), "")
	b.c("https with no slash", "npx", A("-y", "@acme/mcp", "--endpoint", X("https:app:"+g.pwURL()+"@api.example.com")), "")
	b.c("http with backslashes", "npx", A("-y", "@acme/mcp", X(`http:\\app:`+g.pwURL()+`@api.example.com\x`)), "")
	b.c("wss with one slash", "npx", A("-y", "@acme/mcp", X("wss:/u:"+g.pwURL()+"@stream.example.com")), "")
	b.c("token as user, empty password", "npx", A("-y", "@acme/mcp", X("https://"+key()+":@api.example.com/v1")), "")
	b.u("server URL with one slash", X("https:/app:"+g.pwURL()+"@mcp.example.com/mcp"))

	b.section("h14-loose-url-benign")
	b.c("one-slash URL without userinfo", "npx", A("-y", "@acme/mcp", "https:/docs.example.com/a@b"), "")
	b.c("scheme-like word", "npx", A("-y", "@acme/mcp", "--note", "see http:status and mail alice@example.com"), "")
	b.c("user with empty password", "npx", A("-y", "@acme/mcp", "https://alice:@example.com/"), "")
	b.c("one-slash with reference", "npx", A("-y", "@acme/mcp", "https:/app:${DB_PASSWORD}@db.example.com/x"), "")

	b.section("h14-program-password")
	b.c("smbclient -U user%pw detached", "smbclient", A("//srv/share", "-U", X("alice%"+g.pw())), "")
	b.c("curl -uuser:pw attached", "curl", A("-s", X("-ualice:"+g.pw()), "https://api.example.com"), "")
	b.c("sqlcmd -P after -U", "sqlcmd", A("-S", "db", "-U", "sa", "-P", X(g.pw())), "")
	b.c("mssql-cli -P", "mssql-cli", A("-S", "db", "-U", "sa", "-P", X(g.pw())), "")
	b.c("lftp -u user,pw", "lftp", A("-u", X("alice,"+g.pw()), "ftp.example.com"), "")
	b.c("httpie -a user:pw", "http", A("-a", X("alice:"+g.pw()), "https://api.example.com"), "")
	b.c("httpie -auser:pw attached", "https", A(X("-aalice:"+g.pw()), "api.example.com"), "")
	b.c("ipmitool -P", "ipmitool", A("-H", "bmc", "-U", "admin", "-P", X(g.pw()), "power", "status"), "")
	b.c("mosquitto_pub -P", "mosquitto_pub", A("-h", "mq", "-u", "app", "-P", X(g.pw()), "-t", "a/b", "-m", "hi"), "")
	b.c("cqlsh -p", "cqlsh", A("cass", "-u", "app", "-p", X(g.pw())), "")
	b.c("evil-winrm -p", "evil-winrm", A("-i", "10.0.0.5", "-u", "admin", "-p", X(g.pw())), "")
	b.c("xfreerdp /p:", "xfreerdp", A("/v:host", "/u:alice", X("/p:"+g.pw())), "")
	b.c("az login -p", "az", A("login", "-u", "alice@example.com", "-p", X(g.pw())), "")
	b.c("unrar -p attached", "unrar", A("x", X("-p"+g.pw()), "a.rar"), "")
	b.c("program inside sh -c", "sh", A("-c", X("lftp -u alice,"+g.pw()+" ftp.example.com")), "")

	b.section("h14-program-password-benign")
	b.c("smbclient -U user alone", "smbclient", A("//srv/share", "-U", "alice", "-p", "445"), "")
	b.c("curl -u user alone", "curl", A("-u", "alice", "https://api.example.com"), "")
	b.c("lftp -u user alone", "lftp", A("-u", "alice", "ftp.example.com"), "")
	b.c("httpie -a user alone", "http", A("-a", "alice", "https://api.example.com"), "")
	b.c("httpie reference", "http", A("-a", "alice:${API_PASSWORD}", "https://api.example.com"), "")
	b.c("az without login", "az", A("group", "list", "-o", "table"), "")
	b.c("ssh -p port", "ssh", A("-p", "2222", "alice@host.example.com"), "")
	b.c("rdesktop geometry", "rdesktop", A("-g", "1024x768", "host"), "")
	b.c("xfreerdp without a password", "xfreerdp", A("/v:host", "/u:alice", "/size:1280x800"), "")

	b.section("h14-dash")
	b.c("em-dash api key", "npx", A("-y", "@acme/mcp", "\u2014api-key", X(g.rs(csAlnum, 24))), "")
	b.c("en-dash password", "npx", A("-y", "@acme/mcp", "\u2013password", X(g.pw())), "")
	b.c("em-dash password=", "npx", A("-y", "@acme/mcp", X("\u2014password="+g.pw())), "")
	b.c("minus sign token", "npx", A("-y", "@acme/mcp", "\u2212\u2212token", X(g.rs(csAlnum, 20))), "")

	b.section("h14-dash-benign")
	b.c("em-dash flag with a value", "npx", A("-y", "@acme/mcp", "\u2014region", "eu-west-1", "\u2013verbose"), "")
	b.c("em-dash prose", "npx", A("-y", "@acme/mcp", "--title", "Docs \u2014 the token guide"), "")

	b.section("h14-encoded-command")
	b.c("powershell -EncodedCommand with an env assignment", "powershell", A("-NoProfile", "-EncodedCommand", X(utf16Base64("$env:ACME_API_KEY='"+key()+"'; node server.js"))), "")
	b.c("pwsh -enc with a bearer header", "pwsh", A("-enc", X(utf16Base64("iwr -Headers @{Authorization='Bearer "+key()+"'} https://api.example.com"))), "")
	b.c("pwsh -e with a DSN", "pwsh", A("-e", X(utf16Base64("node server.js postgres://app:"+g.pwURL()+"@db.example.com/app"))), "")

	b.section("h14-encoded-command-benign")
	b.c("powershell -EncodedCommand without credentials", "powershell", A("-EncodedCommand", utf16Base64("Set-Location C:\\mcp; node server.js --port 8080")), "")
	b.c("pwsh -enc with a reference", "pwsh", A("-enc", utf16Base64("$env:API_KEY = $env:ACME_KEY; node server.js")), "")

	b.section("h14-ref-default")
	b.c("header default", "npx", A("-y", "@acme/mcp", "--header", X("${AUTH_HEADER:-Authorization: Bearer "+key()+"}")), "")
	b.c("header default, api key header", "npx", A("-y", "@acme/mcp", X("${H:-X-Api-Key: "+key()+"}")), "")
	b.c("nested default under a credential name", "npx", A("-y", "@acme/mcp", X("${API_KEY:-${FALLBACK:-"+g.pw()+"}}")), "")
	b.c("nested default, three deep", "npx", A("-y", "@acme/mcp", X("${DB_PASSWORD:-${A:-${B:-"+g.pw()+"}}}")), "")
	b.c("default in an MCP URL path", "npx", A("-y", "mcp-remote", X("https://mcp.example.com/s/${KEY_SLOT:-"+g.rs(csAlnum, 40)+"}/mcp")), "")

	b.section("h14-ref-default-benign")
	b.c("header default without a credential", "npx", A("-y", "@acme/mcp", "--header", "${ACCEPT:-Accept: application/json}"), "")
	b.c("header default with a reference", "npx", A("-y", "@acme/mcp", "--header", "${H:-Authorization: Bearer $TOKEN}"), "")
	b.c("nested references only", "npx", A("-y", "@acme/mcp", "${API_KEY:-${ACME_API_KEY}}"), "")
	b.c("nested default of a plain name", "npx", A("-y", "@acme/mcp", "${REGION:-${DEFAULT_REGION:-eu-west-1}}"), "")
	b.c("path default word", "npx", A("-y", "mcp-remote", "https://mcp.example.com/${TENANT:-acme}/mcp"), "")

	b.section("h14-query-names")
	b.u("api_key2", X("https://api.example.com/v1?api_key2="+key()))
	b.u("apikey1", X("https://api.example.com/v1?apikey1="+key()))
	b.u("tok", X("https://api.example.com/v1?tok="+key()))
	b.u("passw", X("https://api.example.com/v1?user=alice&passw="+g.pw()))
	b.u("token_2", X("https://api.example.com/v1?token_2="+key()))
	b.u("percent-encoded JSON", X("https://mcp.example.com/mcp?config=%7B%22apiKey%22%3A%22"+key()+"%22%7D"))
	b.c("percent-encoded JSON in an argument", "npx", A("-y", "mcp-remote", X("https://mcp.example.com/mcp?cfg=%7B%22password%22%3A%22"+g.pwURL()+"%22%7D")), "")

	b.section("h14-query-names-benign")
	b.u("page2", "https://api.example.com/v1?page2=3&top=10")
	b.u("keyword2", "https://api.example.com/v1?keyword2=mcp")
	b.u("percent-encoded JSON without credentials", "https://mcp.example.com/mcp?config=%7B%22region%22%3A%22eu%22%7D")
	b.u("percent-encoded JSON with a placeholder", "https://mcp.example.com/mcp?config=%7B%22apiKey%22%3A%22%3Cyour-key%3E%22%7D")

	b.section("h14-prose-bearer")
	b.c("bearer token in a sentence", "npx", A("-y", "@acme/mcp", "--system", X("Call the API with bearer token "+g.rs(csAlnum+"-", 24)+" please")), "")
	b.c("Bearer token: value", "npx", A("-y", "@acme/mcp", "--note", X("Bearer token: "+g.rs(csAlnum, 20))), "")

	b.section("h14-prose-bearer-benign")
	b.c("bearer token is required", "npx", A("-y", "@acme/mcp", "--note", "A bearer token is required for every call"), "")
	b.c("Bearer authentication", "npx", A("-y", "@acme/mcp", "--note", "Uses Bearer authentication with a bearer token from env"), "")

	b.section("h14-placeholders-benign")
	b.c("AWS documentation keys", "uvx", A("aws-mcp", "--aws-access-key-id", "AKIA"+"IOSFODNN7"+"EXAMPLE", "--aws-secret-access-key", "wJalrXUtnFEMI/K7MDENG/"+"bPxRfiCY"+"EXAMPLE"+"KEY"), "")
	b.c("AWS documentation key alone", "npx", A("-y", "@acme/mcp", "AKIA"+"I44QH8DHB"+"EXAMPLE"), "")
	b.c("Slack zero-filled webhook", "npx", A("-y", "@acme/slack-mcp", "--webhook", "https://hooks.slack.com/services/"+"T00000000/B00000000/"+strings.Repeat("X", 24)), "")
	b.c("Slack not-a-real-token", "npx", A("-y", "@acme/slack-mcp", "xoxb-"+"not-a-real-token-this-will-not-work"), "")
	b.c("all-X token body", "npx", A("-y", "@acme/mcp", "ghp_"+strings.Repeat("X", 36), "sk-proj-"+strings.Repeat("x", 40)), "")
	b.c("all-0 token body", "npx", A("-y", "@acme/mcp", "ghp_"+strings.Repeat("0", 36), "xoxb-"+strings.Repeat("0", 12)+"-"+strings.Repeat("0", 13)+"-"+strings.Repeat("0", 24)), "")
	b.c("zero-filled key after a flag", "npx", A("-y", "@acme/mcp", "--api-key", strings.Repeat("0", 32)), "")
	b.c("PEM header as a pattern", "npx", A("-y", "@acme/mcp", "--key-pattern", "^-----BEGIN "+privKey("")+"-----[\\s\\S]+-----END "+privKey("")+"-----$"), "")
	b.c("PEM header in a description", "npx", A("-y", "@acme/mcp", "--help-text", "Paste a key starting with -----BEGIN "+privKey("RSA")+"----- here"), "")

	b.section("h14-placeholders-neighbours")
	b.c("AWS key not ending in EXAMPLE", "npx", A("-y", "@acme/mcp", X(g.tk("akia"))), "")
	b.c("Slack webhook with real-looking IDs", "npx", A("-y", "@acme/slack-mcp", "--webhook", X("https://hooks.slack.com/services/T"+g.pick(csUpAlnum, 8)+"/B"+g.pick(csUpAlnum, 10)+"/"+g.pick(csAlnum, 24))), "")
	b.c("Slack token with digits", "npx", A("-y", "@acme/slack-mcp", X(g.tk("xoxb"))), "")
	b.c("PEM block with a body", "npx", A("-y", "@acme/mcp", "--key", X(g.pem(privKey("RSA"), `\n`, true))), "")
	b.c("PEM header then a body on one line", "npx", A("-y", "@acme/mcp", X("-----BEGIN "+privKey("")+"----- "+g.rs(csB64, 64))), "")
}

// corpusHardeningTexts: prose (descriptions, prompts, schema strings) a
// server could echo a plainly named env value into, and prose that only
// describes credentials, by class.
func corpusHardeningTexts(g *corpusGen) []textCase {
	b := &corpusBuilder{g: g}
	var cs []textCase
	cls := ""
	d := func(name, text string) { cs = append(cs, textCase{cls + ": " + name, text, true}) }
	ok := func(name, text string) { cs = append(cs, textCase{cls + ": " + name, text, false}) }
	key := func() string { return g.rs(csAlnum, 32) }

	b.section("h14-text-echo")
	cls = "echo"
	d("DSN echoed", "Connected to mysql://root:"+g.pwURL()+"@db/app.")
	d("short DSN password echoed", "Using postgres://app:"+g.sec("<5-char password>", "p"+g.pick(csAlnum, 4))+"@db:5432/app")
	d("MONGODB_URI echoed", "Default: mongodb+srv://app:"+g.pwURL()+"@cluster0.example.mongodb.net/db")
	d("connection string echoed", "Connection: Server=db;Database=app;User Id=sa;Password="+g.pw()+";")
	d("Authorization header echoed", "Send Authorization: Bearer "+key()+" with each call.")
	d("JSON headers echoed", `Headers: {"Authorization": "Bearer `+key()+`", "Notion-Version": "2022-06-28"}`)
	d("api key header echoed", "Use X-API-Key: "+key()+" for requests.")
	d("JSON-escaped DSN echoed", `{"default":"postgres:\/\/app:`+g.pwURL()+`@db\/app"}`)

	b.section("h14-text-describe")
	cls = "describe"
	ok("URL shape", "postgres://user:password@host:5432/db is the URL's shape.")
	ok("URL with placeholder", "Set DATABASE_URL to mysql://root:<password>@db/app.")
	ok("URL with reference", "Defaults to postgres://app:${DB_PASSWORD}@db/app.")
	ok("connection string shape", "Format: Server=host;User Id=user;Password=password;")
	ok("Authorization placeholder", "Pass an Authorization: Bearer <token> header.")
	ok("Bearer authentication", "Uses Bearer authentication; the bearer token is read from env.")
	ok("JSON headers placeholder", `Headers as JSON: {"Authorization": "Bearer YOUR_TOKEN"}`)
	ok("header named", "Send it in the X-API-Key: header, never in the query.")
	ok("PEM header in a description", "A PEM key starting with -----BEGIN "+privKey("")+"-----.")
	ok("PEM pattern", "^-----BEGIN "+privKey("RSA")+"-----\\n[A-Za-z0-9+/=\\n]+-----END "+privKey("RSA")+"-----$")
	ok("password=secret", "Example: password=secret")

	b.section("h14-text-placeholders")
	cls = "placeholder"
	ok("AWS doc key id", "e.g. AKIA"+"IOSFODNN7"+"EXAMPLE")
	ok("AWS doc secret", "e.g. wJalrXUtnFEMI/K7MDENG/"+"bPxRfiCY"+"EXAMPLE"+"KEY")
	ok("Slack doc webhook", "Like https://hooks.slack.com/services/"+"T00000000/B00000000/"+strings.Repeat("X", 24))
	ok("Slack doc token", "e.g. xoxb-"+"not-a-real-token-this-will-not-work")
	ok("zero token", "ghp_"+strings.Repeat("0", 36))
	d("real-looking AWS key beside them", "Key: "+g.tk("akia"))
	return cs
}

// TestCorpusHardening runs corpusHardeningTexts through CheckText and
// reports recall and false positives per class (the argument and URL
// classes are in TestCorpus, by section).
func TestCorpusHardening(t *testing.T) {
	g := newCorpusGen()
	type stat struct{ planted, found, benign, fp int }
	by := map[string]*stat{}
	var order []string
	for _, c := range corpusHardeningTexts(g) {
		cls, _, _ := strings.Cut(c.name, ":")
		if by[cls] == nil {
			by[cls] = &stat{}
			order = append(order, cls)
		}
		s := by[cls]
		err := secrets.CheckText("/description", c.text)
		corpusLeaks(t, g, corpusCase{name: c.name, args: []string{c.text}}, []error{err})
		if c.dirty {
			s.planted++
			if err != nil {
				s.found++
			} else {
				t.Errorf("MISS [text] %s: %s", c.name, g.show(c.text))
			}
		} else {
			s.benign++
			if err != nil {
				s.fp++
				t.Errorf("FALSE POSITIVE [text] %s: %s", c.name, g.show(c.text))
			}
		}
	}
	for _, cls := range order {
		s := by[cls]
		t.Logf("text %-12s refused %d of %d credentials, %d of %d benign", cls, s.found, s.planted, s.fp, s.benign)
	}
}
