package secrets

import (
	"strconv"

	"github.com/guardian-agent/guardian-go/refusals"
)

// Rule describes one rule of this package: the stable ID a refusal carries
// in refusals.Error.Rule, what it finds, and what to do instead.
type Rule struct {
	// ID is the stable rule ID, such as "url-password" or "token/github".
	ID string
	// Finds says, in a few words, what the rule finds ("a GitHub token").
	Finds string
	// Fix says what to do instead; it is the refusal's Fix.
	Fix string
}

// rule is an index into ruleTable; findings carry it, and refusals are built
// from the table only when something is found.
type rule uint8

const (
	ruleURLPassword rule = iota
	ruleURLUserToken
	ruleURLQueryCredential
	ruleURLSigned
	ruleURLPathSecret
	ruleCredentialFlag
	ruleCredentialAssignment
	ruleHeaderCredential
	ruleAuthScheme
	rulePrivateKey
	ruleHighEntropy
	ruleJWT
	// token rules from here on; isToken reports whether a rule is one
	// (or private-key, which is as specific).
	ruleTokenGitHub
	ruleTokenGitLab
	ruleTokenSlack
	ruleTokenSlackWebhook
	ruleTokenDiscordWebhook
	ruleTokenTeamsWebhook
	ruleTokenOpenAI
	ruleTokenAnthropic
	ruleTokenOpenRouter
	ruleTokenAWS
	ruleTokenGoogle
	ruleTokenHuggingFace
	ruleTokenNPM
	ruleTokenPyPI
	ruleTokenStripe
	ruleTokenSendGrid
	ruleTokenShopify
	ruleTokenDigitalOcean
	ruleTokenDocker
	ruleTokenDatabricks
	ruleTokenLinear
	ruleTokenNotion
	ruleTokenAtlassian
	ruleTokenGroq
	ruleTokenReplicate
	ruleTokenPerplexity
	ruleTokenXAI
	ruleTokenTavily
	ruleTokenFirecrawl
	ruleTokenBrave
	ruleTokenAge
	ruleTokenVault
	ruleTokenTerraform
	ruleTokenPulumi
	ruleTokenPostman
	ruleTokenFigma
	ruleTokenSentry
	ruleTokenGrafana
	ruleTokenDoppler
	ruleTokenLangSmith
	ruleTokenPinecone
	ruleTokenSupabase
	ruleTokenTelegram
	ruleTokenMailgun
	ruleTokenAzure
	ruleTokenAirtable
	ruleTokenMapbox
	ruleTokenPlanetScale
	ruleTokenFly
	ruleTokenHeroku
	ruleTokenDiscord
	ruleTokenElevenLabs
	ruleTokenResend
	ruleTokenOther
	ruleTokenCatalog
	ruleTokenPrefixed
	numRules
)

// isToken reports whether r is a token rule or private-key: a rule that
// says exactly what a value is, beside which the generic ones are left out.
func (r rule) isToken() bool { return r >= ruleJWT || r == rulePrivateKey }

const (
	fixURL   = "drop it from the URL: put it in headers (an Authorization header) or env, or write a reference such as ${NAME}"
	fixArg   = "put it in env or headers, or pass a reference such as ${NAME} or a --*-file flag, so only the reference is recorded"
	fixToken = "remove the token: put it in env or headers, where the server reads it, or pass a reference such as ${NAME}"
)

var ruleTable = [numRules]Rule{
	ruleURLPassword:          {"url-password", "a password in a URL's userinfo", fixURL},
	ruleURLUserToken:         {"url-user-token", "a token standing as the user name in a URL", fixURL},
	ruleURLQueryCredential:   {"url-query-credential", "a credential in a URL's query or fragment", fixURL},
	ruleURLSigned:            {"url-signed", "a signed URL's signature", "do not record a signed URL: pass it at run time through env, or record the unsigned URL"},
	ruleURLPathSecret:        {"url-path-secret", "random-looking key material in a URL's path", "give the server's URL without the key in its path, and pass the key in headers or env"},
	ruleCredentialFlag:       {"credential-flag", "a value after a credential-named flag", "pass a reference such as ${NAME}, a --*-file or --*-env flag, or put the value in env"},
	ruleCredentialAssignment: {"credential-assignment", "a value assigned to a credential-named key", "put the variable in the server's env instead of the command line, or assign a reference such as ${NAME}"},
	ruleHeaderCredential:     {"header-credential", "a credential in a header-shaped argument", "put the header in the server's headers (or env), or give its value as a reference such as ${NAME}"},
	ruleAuthScheme:           {"auth-scheme", "a Bearer or Basic credential", "put the Authorization header in the server's headers, or give the credential as a reference such as ${NAME}"},
	rulePrivateKey:           {"private-key", "a PEM private key block", "pass the key's file path (a --*-file flag) or put the key in env"},
	ruleHighEntropy:          {"high-entropy", "a random-looking value that is most likely a key", "put the key in env or pass a reference such as ${NAME}; if it is an identifier, give it after a flag that names it (--id VALUE)"},
	ruleJWT:                  {"token/jwt", "a JSON Web Token", fixToken},
	ruleTokenGitHub:          {"token/github", "a GitHub token", fixToken},
	ruleTokenGitLab:          {"token/gitlab", "a GitLab token", fixToken},
	ruleTokenSlack:           {"token/slack", "a Slack token", fixToken},
	ruleTokenSlackWebhook:    {"token/slack-webhook", "a Slack webhook URL", fixToken},
	ruleTokenDiscordWebhook:  {"token/discord-webhook", "a Discord webhook URL", fixToken},
	ruleTokenTeamsWebhook:    {"token/teams-webhook", "a Microsoft Teams webhook URL", fixToken},
	ruleTokenOpenAI:          {"token/openai", "an OpenAI-style sk- API key", fixToken},
	ruleTokenAnthropic:       {"token/anthropic", "an Anthropic API key", fixToken},
	ruleTokenOpenRouter:      {"token/openrouter", "an OpenRouter API key", fixToken},
	ruleTokenAWS:             {"token/aws", "an AWS access key ID", fixToken},
	ruleTokenGoogle:          {"token/google", "a Google API key or OAuth credential", fixToken},
	ruleTokenHuggingFace:     {"token/huggingface", "a Hugging Face token", fixToken},
	ruleTokenNPM:             {"token/npm", "an npm token", fixToken},
	ruleTokenPyPI:            {"token/pypi", "a PyPI token", fixToken},
	ruleTokenStripe:          {"token/stripe", "a Stripe-style secret key", fixToken},
	ruleTokenSendGrid:        {"token/sendgrid", "a SendGrid API key", fixToken},
	ruleTokenShopify:         {"token/shopify", "a Shopify access token", fixToken},
	ruleTokenDigitalOcean:    {"token/digitalocean", "a DigitalOcean token", fixToken},
	ruleTokenDocker:          {"token/docker", "a Docker Hub access token", fixToken},
	ruleTokenDatabricks:      {"token/databricks", "a Databricks token", fixToken},
	ruleTokenLinear:          {"token/linear", "a Linear API key", fixToken},
	ruleTokenNotion:          {"token/notion", "a Notion integration token", fixToken},
	ruleTokenAtlassian:       {"token/atlassian", "an Atlassian API token", fixToken},
	ruleTokenGroq:            {"token/groq", "a Groq API key", fixToken},
	ruleTokenReplicate:       {"token/replicate", "a Replicate API token", fixToken},
	ruleTokenPerplexity:      {"token/perplexity", "a Perplexity API key", fixToken},
	ruleTokenXAI:             {"token/xai", "an xAI API key", fixToken},
	ruleTokenTavily:          {"token/tavily", "a Tavily API key", fixToken},
	ruleTokenFirecrawl:       {"token/firecrawl", "a Firecrawl API key", fixToken},
	ruleTokenBrave:           {"token/brave", "a Brave Search API key", fixToken},
	ruleTokenAge:             {"token/age", "an age secret key", fixToken},
	ruleTokenVault:           {"token/vault", "a HashiCorp Vault token", fixToken},
	ruleTokenTerraform:       {"token/terraform", "a Terraform Cloud token", fixToken},
	ruleTokenPulumi:          {"token/pulumi", "a Pulumi access token", fixToken},
	ruleTokenPostman:         {"token/postman", "a Postman API key", fixToken},
	ruleTokenFigma:           {"token/figma", "a Figma access token", fixToken},
	ruleTokenSentry:          {"token/sentry", "a Sentry auth token", fixToken},
	ruleTokenGrafana:         {"token/grafana", "a Grafana token", fixToken},
	ruleTokenDoppler:         {"token/doppler", "a Doppler token", fixToken},
	ruleTokenLangSmith:       {"token/langsmith", "a LangSmith API key", fixToken},
	ruleTokenPinecone:        {"token/pinecone", "a Pinecone API key", fixToken},
	ruleTokenSupabase:        {"token/supabase", "a Supabase access token", fixToken},
	ruleTokenTelegram:        {"token/telegram", "a Telegram bot token", fixToken},
	ruleTokenMailgun:         {"token/mailgun", "a Mailgun API key", fixToken},
	ruleTokenAzure:           {"token/azure", "an Azure client secret", fixToken},
	ruleTokenAirtable:        {"token/airtable", "an Airtable personal access token", fixToken},
	ruleTokenMapbox:          {"token/mapbox", "a Mapbox secret token", fixToken},
	ruleTokenPlanetScale:     {"token/planetscale", "a PlanetScale token or password", fixToken},
	ruleTokenFly:             {"token/fly", "a Fly.io token", fixToken},
	ruleTokenHeroku:          {"token/heroku", "a Heroku API key", fixToken},
	ruleTokenDiscord:         {"token/discord", "a Discord bot token", fixToken},
	ruleTokenElevenLabs:      {"token/elevenlabs", "an ElevenLabs API key", fixToken},
	ruleTokenResend:          {"token/resend", "a Resend API key", fixToken},
	ruleTokenOther:           {"token/other", "a token of a well-known prefixed format", fixToken},
	ruleTokenCatalog:         {"token/catalog", "a token of a format in gitleaks' catalogue", fixToken},
	ruleTokenPrefixed:        {"token/prefixed", "a token shaped as a vendor's prefix and a generated body", fixToken},
}

// Rules returns every rule of this package, in a fixed order. The IDs are
// stable: a refusal's Rule is always one of them.
func Rules() []Rule {
	out := make([]Rule, len(ruleTable))
	copy(out, ruleTable[:])
	return out
}

// refusal builds the located error for one finding. Only rule text and the
// pointer go in: never the value.
func (r rule) refusal(pointer string) *refusals.Error {
	t := &ruleTable[r]
	return &refusals.Error{
		Kind:    refusals.ErrContainsSecret,
		Pointer: pointer,
		Rule:    t.ID,
		Detail:  t.Finds,
		Fix:     t.Fix,
	}
}

// indexPointer is pointer + "/" + i, built only when there is a finding.
func indexPointer(pointer string, i int) string {
	return refusals.Append(pointer, strconv.Itoa(i))
}
