package secrets

// strength is how surely a name (a flag, an env variable, a query parameter,
// a header, a JSON key) says that its value is a credential.
type strength uint8

const (
	// notSecret: the name does not name a credential, or names where one
	// lives (--token-file) or how auth works (--auth-type).
	notSecret strength = iota
	// weak: the name may name a credential (--session, --hmac, --otp):
	// only a random-looking value is refused.
	weak
	// strong: the name names a credential (--password, API_KEY): any
	// literal value is refused.
	strong
	// authorization: the value is an Authorization header value, a scheme
	// and a credential ("Bearer …").
	authorization
	// keyAlone: a name ending in "key" (--key, OPENAI_KEY): a credential
	// unless the value is a plain identifier (?key=name, --sort-key
	// created_at) or a path (--key server.key).
	keyAlone
	// authName: a name ending in "auth" (--auth, REDISCLI_AUTH,
	// --basic-auth): a credential unless the value names a method or a
	// provider (oauth, basic, none, github).
	authName
	// nameRef: a name that names where a secret is kept, not the secret
	// (--secret-name, --token-secret-ref, auth.existingSecret,
	// --from-secret): the value is a name, so only a random-looking one,
	// which no name is, is refused.
	nameRef
)

// maxName bounds the part of a name that is classified; longer names are
// classified by their last maxName bytes, where the deciding word is.
const maxName = 96

// nameWords splits a name into lower-cased words, on separators and
// camelCase boundaries ("apiKey", "API_KEY", "X-Api-Key" give "api key"),
// and returns their concatenation with the word start offsets in it.
type nameWords struct {
	buf    [maxName]byte
	jn     int // len of the joined words in buf
	starts [16]uint8
	n      int
}

func (w *nameWords) joined() []byte { return w.buf[:w.jn] }

func (w *nameWords) split(name string) {
	if len(name) > maxName {
		name = name[len(name)-maxName:]
	}
	w.jn = 0
	w.n = 0
	inWord := false
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !isAlnum(c) {
			inWord = false
			continue
		}
		boundary := !inWord
		if inWord && isUpper(c) {
			prev := name[i-1]
			// fooBar, and the last capital of an acronym before a word: APIKey.
			if isLower(prev) || isDigit(prev) || (isUpper(prev) && i+1 < len(name) && isLower(name[i+1])) {
				boundary = true
			}
		}
		if boundary {
			if w.n < len(w.starts) {
				w.starts[w.n] = uint8(w.jn)
				w.n++
			} // past 16 words, the rest fold into the last one
		}
		inWord = true
		w.buf[w.jn] = toLower(c)
		w.jn++
	}
}

// word returns word i (negative counts from the end). The bytes are w's.
func (w *nameWords) word(i int) []byte {
	if i < 0 {
		i += w.n
	}
	if i < 0 || i >= w.n {
		return nil
	}
	end := w.jn
	if i+1 < w.n {
		end = int(w.starts[i+1])
	}
	return w.buf[w.starts[i]:end]
}

// Descriptor words: a name ending in one says where a credential lives, how
// it is used or what it is about, not the credential (--token-file,
// --api-key-env, --client-id, --password-stdin, --auth-type).
var descriptorWords = map[string]bool{
	"file": true, "files": true, "path": true, "paths": true, "dir": true, "directory": true, "folder": true,
	"env": true, "var": true, "variable": true, "name": true, "names": true, "id": true, "ids": true,
	"url": true, "uri": true, "urls": true, "endpoint": true, "host": true, "hostname": true, "port": true,
	"type": true, "kind": true, "mode": true, "method": true, "scheme": true, "header": true,
	"source": true, "src": true, "stdin": true, "fd": true, "cmd": true, "command": true, "helper": true,
	"provider": true, "store": true, "length": true, "len": true, "size": true, "count": true, "ttl": true,
	"expiry": true, "expires": true, "expiration": true, "lifetime": true, "timeout": true, "limit": true,
	"max": true, "min": true, "prefix": true, "suffix": true, "format": true, "algorithm": true, "alg": true,
	"scope": true, "scopes": true, "audience": true, "issuer": true, "location": true, "ref": true,
	"arn": true, "version": true, "field": true, "label": true, "tag": true, "hint": true, "rotation": true,
	"interval": true, "required": true, "enabled": true, "disabled": true, "policy": true, "strategy": true,
	"budget": true, "usage": true, "rate": true, "separator": true, "template": true, "pattern": true,
	"regex": true, "placeholder": true, "prompt": true, "message": true, "description": true, "help": true,
	"index": true, "offset": true, "encoding": true, "model": true, "service": true, "server": true,
	"realm": true, "domain": true, "region": true, "user": true, "username": true, "login": true,
	"email": true, "owner": true, "role": true, "group": true, "org": true, "team": true, "project": true,
	"level": true, "retries": true, "retry": true, "threshold": true, "window": true, "cache": true,
	"storage": true, "manager": true, "vault": true, "backend": true, "exchange": true,
	"refresh": true, "generation": true, "validation": true, "verification": true, "flow": true,
	"grant": true, "request": true, "response": true, "callback": true, "redirect": true, "text": true,
	"list": true, "tokens": true, "secrets": true, "ring": true, "chain": true, "sid": true,
	"language": true, "lang": true, "reference": true, "refs": true,
}

// Descriptor words that name a secret kept elsewhere: after a credential
// word (--secret-name, --token-secret-ref) the value is a name, and only a
// random-looking one is refused.
var nameRefWords = map[string]bool{"name": true, "names": true, "ref": true, "refs": true, "reference": true}

// Words that, before the word secret, make the name refer to a Secret
// object stored elsewhere (auth.existingSecret, --from-secret,
// externalSecret), not hold one.
var refPrefixWords = map[string]bool{"existing": true, "from": true, "external": true}

// Leading words that make a flag a switch about credentials, not one that
// takes one: --no-auth, --skip-token, --prompt-password, --with-token.
var switchWords = map[string]bool{
	"no": true, "skip": true, "disable": true, "enable": true, "require": true, "allow": true,
	"ignore": true, "without": true, "with": true, "show": true, "print": true, "prompt": true,
	"ask": true, "generate": true, "rotate": true, "hide": true, "mask": true, "redact": true,
	"use": true, "save": true, "insecure": true, "forward": true,
}

// Joined names ending in these are not credentials though they end in a
// credential word: pagination cursors and a tokenizer's special tokens.
var notCredentialSuffixes = []string{
	"pagetoken", "nexttoken", "continuationtoken", "synctoken", "resumetoken", "cursortoken",
	"eostoken", "bostoken", "padtoken", "unktoken", "septoken", "clstoken", "masktoken",
	"starttoken", "endtoken", "stoptoken", "specialtoken", "canceltoken", "cancellationtoken",
	"idempotencytoken", "primarykey", "foreignkey", "sortkey", "partitionkey", "cachekey",
	"hotkey", "shortcutkey", "routingkey", "shardkey", "hashkey", "rangekey", "dedupkey", "groupkey",
	"lookupkey", "objectkey", "s3key", "monkey", "turnkey", "publickey", "pubkey", "sitekey",
	"filekey", "projectkey", "issuekey", "idempotencykey", "rowkey", "tablekey", "indexkey",
	"publishablekey",
}

// Joined names ending in these name a credential.
var strongSuffixes = []string{
	"password", "passwd", "passphrase", "passcode", "pwd", "secret", "token",
	"apikey", "accesskey", "secretkey", "privatekey", "signingkey", "encryptionkey", "masterkey",
	"licensekey", "accountkey", "subscriptionkey", "clientkey", "servicekey", "adminkey", "deploykey",
	"sessionkey", "sharedkey", "appkey", "consumerkey", "writekey", "ingestkey", "ingestionkey",
	"managementkey", "authkey", "authenticationkey", "secretaccesskey", "sharedaccesskey",
	"sharedaccesssignature", "credential", "credentials", "authorization", "bearer",
	"storepass", "keypass", "apikeys", "apitokens", "authtokens", "accesstokens", "passwords",
	"cookie", "cookies", "mnemonic", "seedphrase", "recoveryphrase", "secretphrase", "seedwords",
	"privkey",
}

// The suffix lists by their last byte, so that a name is compared only
// with the suffixes it could end in. Computed once, never changed.
var (
	notCredentialByLast = byLastByte(notCredentialSuffixes)
	strongByLast        = byLastByte(strongSuffixes)
)

func byLastByte(list []string) (idx [256][]string) {
	for _, s := range list {
		c := s[len(s)-1]
		idx[c] = append(idx[c], s)
	}
	return idx
}

// Whole last words that name a credential (too short to match as a
// suffix), and the truncations people and argument parsers accept for
// them (argparse takes any unique prefix: --passw for --password).
var strongLastWords = map[string]bool{
	"pass": true, "pat": true, "cred": true, "creds": true, "pw": true,
	"passw": true, "passwo": true, "passwor": true, "passwrd": true, "pword": true, "pswd": true, "psw": true,
	"tok": true, "toke": true, "tkn": true, "secr": true, "secre": true, "scrt": true,
	"crede": true, "creden": true, "credent": true, "credenti": true, "credentia": true,
}

// Whole last words that may name a credential: only a random value counts.
var weakLastWords = map[string]bool{
	"sig": true, "signature": true, "session": true,
	"hmac": true, "salt": true, "otp": true, "seed": true,
}

// classifyName says how surely name names a credential. It is the one
// place the vocabulary of credential names lives: flags, env variables,
// assignments, query parameters, headers and JSON keys all use it.
func classifyName(name string) strength {
	var w nameWords
	w.split(name)
	return w.classify()
}

func (w *nameWords) classify() strength {
	// Qualifiers after the credential word do not change what it names:
	// GITHUB_TOKEN_2, --github-token-prod, --client-key-data.
	for w.n > 1 && qualifierWord(w.word(-1)) {
		w.jn = int(w.starts[w.n-1])
		w.n--
	}
	if w.n == 0 {
		return notSecret
	}
	// A number run into the last word numbers it too: api_key2, apikey1,
	// TOKEN2 name what api_key, apikey and TOKEN name.
	if last := w.word(-1); len(last) > 0 && isDigit(last[len(last)-1]) {
		d := len(last)
		for d > 0 && isDigit(last[d-1]) {
			d--
		}
		if d > 0 {
			w.jn -= len(last) - d
		}
	}
	last := w.word(-1)
	if w.n > 1 && switchWords[string(w.word(0))] {
		return notSecret
	}
	if descriptorWords[string(last)] {
		if w.n > 1 && nameRefWords[string(last)] {
			// --secret-name, --token-secret-ref: what comes before names a
			// credential; the whole names where it is kept.
			w.jn = int(w.starts[w.n-1])
			w.n--
			if w.classify() != notSecret {
				return nameRef
			}
		}
		return notSecret
	}
	if string(last) == "secret" {
		// A Kubernetes, Vault or cloud Secret object referred to by name:
		// auth.existingSecret, --from-secret, externalSecret. (Not
		// --from-password, which may be the source database's password.)
		for i := 0; i < w.n-1; i++ {
			if refPrefixWords[string(w.word(i))] {
				return nameRef
			}
		}
	}
	return w.classifyCredential()
}

// classifyCredential classifies a name whose last word is no descriptor.
func (w *nameWords) classifyCredential() strength {
	last := w.word(-1)
	joined := w.joined()
	lastByte := joined[len(joined)-1]
	for _, s := range notCredentialByLast[lastByte] {
		if hasSuffix(joined, s) {
			return notSecret
		}
	}
	if string(last) == "authorization" || (w.n == 1 && string(joined) == "proxyauthorization") {
		return authorization
	}
	if strongLastWords[string(last)] {
		return strong
	}
	for _, s := range strongByLast[lastByte] {
		if hasSuffix(joined, s) {
			return strong
		}
	}
	if hasSuffix(joined, "key") {
		// --key, KEY=, OPENAI_KEY=, --ssh-key: a key, unless the value is
		// a plain identifier (a lookup key, a sort key) or a key file's
		// path.
		return keyAlone
	}
	if hasSuffix(joined, "auth") {
		return authName
	}
	if weakLastWords[string(last)] {
		return weak
	}
	// One-word compounds ending in a descriptor (TOKENFILE, apikeyenv)
	// end in no credential word, so they fall through to here.
	return notSecret
}

func isAlnum(c byte) bool { return isLower(c) || isUpper(c) || isDigit(c) }
func isLower(c byte) bool { return 'a' <= c && c <= 'z' }
func isUpper(c byte) bool { return 'A' <= c && c <= 'Z' }
func isDigit(c byte) bool { return '0' <= c && c <= '9' }
func isHex(c byte) bool   { return isDigit(c) || ('a' <= c && c <= 'f') || ('A' <= c && c <= 'F') }
func toLower(c byte) byte {
	if isUpper(c) {
		return c + 'a' - 'A'
	}
	return c
}

func hasSuffix(b []byte, s string) bool {
	return len(b) >= len(s) && string(b[len(b)-len(s):]) == s
}

// qualifierWord: a trailing word that says which credential, not what.
func qualifierWord(w []byte) bool {
	if len(w) == 0 {
		return false
	}
	digits := true
	for i := 0; i < len(w); i++ {
		if !isDigit(w[i]) {
			digits = false
		}
	}
	if digits {
		return true
	}
	switch string(w) {
	case "prod", "production", "dev", "development", "test", "testing", "staging", "stage", "live",
		"sandbox", "value", "val", "base", "old", "new", "primary", "secondary", "backup", "alt", "raw",
		"b64", "base64", "encoded", "hex", "plain", "plaintext", "str", "string", "literal", "data",
		"content", "contents", "override", "main", "local", "global", "v1", "v2", "v3":
		return true
	}
	return false
}
