package secrets_test

import "strings"

// Fake credentials, built in code so that no literal token sits in the
// repository for push-protection scanners (or our own scan) to find. Each
// has the shape of the real thing, so the rules fire, and none is live.

func rep(s string, n int) string { return strings.Repeat(s, n) }

// fit repeats s to exactly n characters.
func fit(s string, n int) string { return rep(s, n/len(s)+1)[:n] }

var fake = struct {
	github, githubFine, githubOAuth, gitlab, slackBot, slackUser, openAI, openAIProj, anthropic,
	openRouter, awsKeyID, awsSecret, google, googleOAuth, huggingFace, npm, pypi, stripe, stripeTest,
	stripeRestricted, sendGrid, shopify, digitalOcean, docker, databricks, linear, notion, groq,
	replicate, perplexity, xai, tavily, firecrawl, vault, pulumi, figma, sentry, grafana, doppler,
	langSmith, pinecone, supabase, telegram, twilio, mailgun, azure, age, jwt, pem, pemEC, openSSH,
	slackWebhook, discordWebhook, basic, randomKey, elevenLabs, planetScale, postman, atlassian,
	terraform, airtable, mapbox, resend, brave string
}{
	github:           "ghp_" + fit("EXAMPLE0fake1token2", 36),
	githubFine:       "github_pat_" + fit("11EXAMPLE0", 22) + "_" + fit("fakeFineGrained9Token8", 59),
	githubOAuth:      "gho_" + fit("Ab3dEf6hIj9k", 36),
	gitlab:           "glpat-" + fit("Ex4mpleFakeTok3n", 20),
	slackBot:         "xoxb-" + "123456789012-1234567890123-" + fit("Ex4mpleFake", 24),
	slackUser:        "xoxp-" + "123456789012-123456789012-123456789012-" + fit("ab3d", 32),
	openAI:           "sk-" + fit("Ex4mpleFakeKey0T3BlbkFJ", 48),
	openAIProj:       "sk-proj-" + fit("Ex4mple_Fake-Key9", 64),
	anthropic:        "sk-ant-api03-" + fit("Ex4mple-Fake_Key7", 95) + "AA",
	openRouter:       "sk-or-v1-" + fit("0123456789abcdef", 64),
	awsKeyID:         "AKIA" + "IOSFODNN7" + "FAKE9Q2",
	awsSecret:        "wJalrXUtnFEMI/K7MDENG/" + "bPxRfiCYFAKESECRETKEY",
	google:           "AIza" + fit("SyEx4mple-Fake_Key0", 35),
	googleOAuth:      "GOCSPX-" + fit("Ex4mpleFakeSecret", 28),
	huggingFace:      "hf_" + fit("ExampleFakeTokenAbCdEfGh", 34),
	npm:              "npm_" + fit("Ex4mpleFakeToken", 36),
	pypi:             "pypi-AgEIcHlwaS5vcmc" + fit("CJDExampleFake0", 60),
	stripe:           "sk_live_" + fit("51Ex4mpleFake", 99),
	stripeTest:       "sk_test_" + fit("51Ex4mpleFake", 99),
	stripeRestricted: "rk_live_" + fit("51Ex4mpleFake", 99),
	sendGrid:         "SG." + fit("Ex4mpleFakeKey", 22) + "." + fit("Ex4mpleFakeKeySecondPart", 43),
	shopify:          "shpat_" + fit("0123456789abcdef", 32),
	digitalOcean:     "dop_v1_" + fit("0123456789abcdef", 64),
	docker:           "dckr_pat_" + fit("Ex4mpleFake-Tok", 27),
	databricks:       "dapi" + fit("0123456789abcdef", 32),
	linear:           "lin_api_" + fit("Ex4mpleFakeKey", 40),
	notion:           "ntn_" + fit("Ex4mpleFakeToken", 46),
	groq:             "gsk_" + fit("Ex4mpleFakeKey", 52),
	replicate:        "r8_" + fit("Ex4mpleFakeToken", 37),
	perplexity:       "pplx-" + fit("Ex4mpleFakeKey", 48),
	xai:              "xai-" + fit("Ex4mpleFakeKey", 80),
	tavily:           "tvly-" + fit("Ex4mpleFakeKey", 32),
	firecrawl:        "fc-" + fit("0123456789abcdef", 32),
	vault:            "hvs." + fit("CAESIEx4mpleFake", 90),
	pulumi:           "pul-" + fit("0123456789abcdef", 40),
	figma:            "figd_" + fit("Ex4mpleFake-Token_", 40),
	sentry:           "sntrys_" + fit("eyJpYXQiOjE3Ex4mple", 80),
	grafana:          "glsa_" + fit("Ex4mpleFakeToken", 32) + "_" + fit("0123456789abcdef", 8),
	doppler:          "dp.pt." + fit("Ex4mpleFakeToken", 43),
	langSmith:        "lsv2_pt_" + fit("0123456789abcdef", 32) + "_" + fit("0123456789", 10),
	pinecone:         "pcsk_" + fit("Ex4mpleFake", 6) + "_" + fit("Ex4mpleFakeKey", 60),
	supabase:         "sbp_" + fit("0123456789abcdef", 40),
	telegram:         "123456789:AA" + fit("Ex4mple-Fake_Token", 33),
	twilio:           "SK" + fit("0123456789abcdef", 32),
	mailgun:          "key-" + fit("0123456789abcdef", 32),
	azure:            "abc8Q~" + fit("Ex4mple.Fake-Secret_", 34),
	age:              "AGE-SECRET-KEY-1" + fit("QYQZ0EXAMPLEFAKE", 58),
	jwt:              "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9" + "." + "eyJzdWIiOiJleGFtcGxlIn0" + "." + fit("Ex4mple-Fake_Sig", 43),
	pem:              "-----BEGIN " + "RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAexample\n-----END RSA PRIVATE KEY-----",
	pemEC:            "-----BEGIN " + "EC PRIVATE KEY-----\\nMHcCAQEEIexample\\n-----END EC PRIVATE KEY-----",
	openSSH:          "-----BEGIN " + "OPENSSH PRIVATE KEY-----\n" + fit("b3BlbnNzaC1rZXktdjEAAAAABG5vbmU", 70),
	slackWebhook:     "https://hooks.slack.com/services/" + "T00000000/B00000000/" + fit("Ex4mpleFakeHook", 24),
	discordWebhook:   "https://discord.com/api/webhooks/" + "123456789012345678/" + fit("Ex4mple-Fake_Hook", 68),
	basic:            "Basic " + "dXNlcjpwYXNzd29yZA==", // user:password
	randomKey:        fit("q7Lk2Vx9Rb4Tz8Mw3Np6Hs1Jd5Gf0Ca", 40),
	elevenLabs:       "sk_" + fit("0123456789abcdef", 48),
	planetScale:      "pscale_tkn_" + fit("Ex4mpleFakeToken", 43),
	postman:          "PMAK-" + fit("0123456789abcdef", 24) + "-" + fit("0123456789abcdef", 34),
	atlassian:        "ATATT3xFfGF0" + fit("Ex4mple-Fake_Token", 180),
	terraform:        fit("Ex4mpleFake0123", 14) + ".atlasv1." + fit("Ex4mpleFakeToken", 67),
	airtable:         "pat" + fit("Ex4mpleFake0123", 14) + "." + fit("0123456789abcdef", 64),
	mapbox:           "sk.eyJ1Ijoi" + fit("Ex4mpleFakeToken", 70),
	resend:           "re_" + fit("Ex4mpleFake_Key", 36),
	brave:            "BSA" + fit("Ex4mple0Fake9Key", 28),
}
