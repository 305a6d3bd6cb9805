// Package secrets refuses credentials in the values an agent's definition
// records: a server's command, its arguments and its URL. Headers and
// environment variables are where credentials belong; they are never
// recorded, and never refused here ([Credentials] says what in them is
// secret).
//
// The checks take the JSON pointer of the value they are given and return
// nil, or a refusals.Join of one *refusals.Error per finding, with Kind
// refusals.ErrContainsSecret, the exact pointer (for arguments, pointer +
// "/" + the argument's index), the ID of the rule that fired and what to do
// instead:
//
//	err := secrets.CheckStdio("/mcpServers/db", command, args)
//	errors.Is(err, refusals.ErrContainsSecret) // something was refused
//	for _, r := range refusals.All(err) { fmt.Println(r.Pointer, r.Rule, r.Fix) }
//
// [CheckStdio] reads a stdio server's command and arguments together, as a
// definition records them: the command says what a flag means (after
// mysql, -pSECRET is a password; after ssh, -p 2222 is a port). It refuses
// everything [CheckCommand] and [CheckArgs] refuse, and more; use it where
// the command is known. [CheckURL] checks a server's URL.
//
// [Credentials] is for the values that are never recorded, env and
// headers: it returns the parts of such a value that the rules take for a
// credential (a DSN's password, a JSON member's token), so that a caller
// can look for an echo of them in what a server sends back.
//
// A refusal never holds the value it refused, a part of it, its length or a
// hash of it. No URL is parsed with net/url, whose errors quote the input
// and whose parser rejects URLs people write; a URL that cannot be parsed
// is still checked, byte by byte. No input makes a check panic, and every
// check runs in time linear in its input.
//
// # What is refused
//
// A password in a URL's userinfo, in any scheme and anywhere in a value
// (--dsn=postgres://u:p@h, DATABASE_URL=redis://:p@h, JDBC); a token as a
// URL's user name; a credential-named or signed-URL parameter in a query,
// fragment or JDBC property list; the value after a credential-named flag
// (--api-key VALUE, --password=VALUE, -token VALUE, in any spelling:
// --api_key, --apiKey, --APIKEY) and after the password flags of programs
// that have them (mysql -pSECRET, sshpass -p, redis-cli -a, sqlplus
// user/password); Windows' /password:VALUE; a credential in a
// header-shaped argument (-H "Authorization: Bearer ..."); a
// credential-named assignment (GITHUB_TOKEN=..., docker -e KEY=VALUE,
// setx API_KEY VALUE, $env:API_KEY = '...', password=... in a connection
// string, {"apiKey": "..."} in a JSON argument); seed phrases; Oracle's
// user/password@//host; keys in the paths of RPC providers' URLs; Bearer
// and Basic credentials; PEM private keys; tokens of well-known formats
// anywhere; and long random key material standing alone as an argument.
// Structured text in an argument is read as what it is: JSON (its escapes
// undone), JavaScript object literals, YAML, INI and TOML lines, XML, and
// base64 of UTF-8 or UTF-16LE (powershell -EncodedCommand). URLs are read
// as browsers read them (https:/user:pw@host has a password), and a flag
// typed with an en or em dash is the flag.
//
// # What is accepted
//
// References to a secret, which is what a definition should record:
// ${NAME}, $NAME, %NAME%, {{ name }}, ${input:id}, ${env:NAME},
// ${NAME:?message}, command substitution ($(gh auth token), `pass show x`),
// op://vault/item and other secret-store references. A reference with a
// literal default (${KEY:-value}) is judged by its default. Names of
// Secret objects (auth.existingSecret=name, --secret-name), publishable
// keys (pk_live_..., pk.eyJ...), Twilio SIDs and placeholders of dots
// (sk-...) are accepted too, as are the example keys vendors publish
// (AWS's …EXAMPLE keys, zero- and X-filled bodies, Slack's zero-filled
// webhook) and a PEM header with no key after it. Flags that say
// where a secret lives or how auth works (--api-key-file, --token-env,
// --password-stdin, --auth-type, --no-auth), a credential flag with no
// value, a user name alone (git@github.com:org/repo.git), placeholders
// (<token>, YOUR_API_KEY, xxxx), file paths after a credential flag, and
// words that merely contain credential letters (--max-tokens, --tokenizer,
// --keyring, ?keyword=). Hex strings such as commit IDs and digests, UUIDs
// and identifiers given after a flag that names them are not taken for
// keys. docs/secrets.md gives every decision with examples.
//
// # Rules
//
// Rule IDs are stable; [Rules] lists them with their texts:
//   - url-password: a password in a URL's userinfo
//   - url-user-token: a token standing as the user name in a URL
//   - url-query-credential: a credential in a URL's query or fragment
//   - url-signed: a signed URL's signature
//   - url-path-secret: random-looking key material in a URL's path
//   - credential-flag: a value after a credential-named flag
//   - credential-assignment: a value assigned to a credential-named key
//   - header-credential: a credential in a header-shaped argument
//   - auth-scheme: a Bearer or Basic credential
//   - private-key: a PEM private key block
//   - high-entropy: a random-looking value that is most likely a key
//
// and one rule per well-known token format, each a token of that service
// or family:
//   - token/jwt: a JSON Web Token
//   - token/github: a GitHub token
//   - token/gitlab: a GitLab token
//   - token/slack: a Slack token
//   - token/slack-webhook: a Slack webhook URL
//   - token/discord-webhook: a Discord webhook URL
//   - token/teams-webhook: a Microsoft Teams webhook URL
//   - token/openai: an OpenAI-style sk- API key
//   - token/anthropic: an Anthropic API key
//   - token/openrouter: an OpenRouter API key
//   - token/aws: an AWS access key ID
//   - token/google: a Google API key or OAuth credential
//   - token/huggingface: a Hugging Face token
//   - token/npm: an npm token
//   - token/pypi: a PyPI token
//   - token/stripe: a Stripe-style secret key
//   - token/sendgrid: a SendGrid API key
//   - token/shopify: a Shopify access token
//   - token/digitalocean: a DigitalOcean token
//   - token/docker: a Docker Hub access token
//   - token/databricks: a Databricks token
//   - token/linear: a Linear API key
//   - token/notion: a Notion integration token
//   - token/atlassian: an Atlassian API token
//   - token/groq: a Groq API key
//   - token/replicate: a Replicate API token
//   - token/perplexity: a Perplexity API key
//   - token/xai: an xAI API key
//   - token/tavily: a Tavily API key
//   - token/firecrawl: a Firecrawl API key
//   - token/brave: a Brave Search API key
//   - token/age: an age secret key
//   - token/vault: a HashiCorp Vault token
//   - token/terraform: a Terraform Cloud token
//   - token/pulumi: a Pulumi access token
//   - token/postman: a Postman API key
//   - token/figma: a Figma access token
//   - token/sentry: a Sentry auth token
//   - token/grafana: a Grafana token
//   - token/doppler: a Doppler token
//   - token/langsmith: a LangSmith API key
//   - token/pinecone: a Pinecone API key
//   - token/supabase: a Supabase access token
//   - token/telegram: a Telegram bot token
//   - token/mailgun: a Mailgun API key
//   - token/azure: an Azure client secret
//   - token/airtable: an Airtable personal access token
//   - token/mapbox: a Mapbox secret token
//   - token/planetscale: a PlanetScale token or password
//   - token/fly: a Fly.io token
//   - token/heroku: a Heroku API key
//   - token/discord: a Discord bot token
//   - token/elevenlabs: an ElevenLabs API key
//   - token/resend: a Resend API key
//   - token/other: a token of a well-known prefixed format
//
// and two for the formats our table does not name: those of gitleaks'
// maintained catalogue (generated from its rule file, see NOTICE), and
// any vendor's prefix with a generated body:
//   - token/catalog: a token of a format in gitleaks' catalogue
//   - token/prefixed: a token shaped as a vendor's prefix and a generated body
package secrets
