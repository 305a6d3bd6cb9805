package secrets

import "strings"

// This file finds URLs anywhere in a string and judges their userinfo and
// parameters. It does not use net/url: url.Parse rejects many URLs people
// write (bad escapes, passwords with '/' or '#', JDBC properties), and a
// URL the parser rejects must not slip through; its errors also quote the
// input, password included. So the scan is by hand, tolerant, and never
// fails: whatever it cannot read as a URL it reads as text.

// scanURLs reports findings in every URL in s: each "scheme://" it finds,
// Oracle's jdbc:oracle:thin:user/password@host, and, when whole is true and
// s is one word, a scheme-less user:password@host.
func scanURLs(s string, found report) {
	noTpl := false
	for k := range indexes(s, "://") {
		off := k + 3
		start := k
		for start > 0 && schemeChar(s[start-1]) {
			start--
		}
		for start < k && !isAlnum(s[start]) {
			start++
		}
		if start == k {
			continue // "://" with no scheme before it
		}
		// The URL ends at a space or quote, or where the next URL's
		// scheme begins (?next=https://…), which is checked on its own;
		// so each byte is read once however many URLs there are.
		limit := len(s)
		if j := strings.Index(s[off:], "://"); j >= 0 {
			limit = off + j
			for limit > off && schemeChar(s[limit-1]) {
				limit--
			}
		}
		end := off
		for end < limit && !urlStop(s[end]) {
			// A template reference with spaces, ?token={{ token }}, is
			// part of the URL.
			if s[end] == '{' && end+1 < limit && s[end+1] == '{' && !noTpl {
				if j := strings.Index(s[end:limit], "}}"); j > 0 {
					end += j + 2
					continue
				}
				noTpl = true // no "}}" after here: stop looking
			}
			end++
		}
		checkURL(s[start:k], s[off:end], false, found)
	}
	for _, p := range [...]string{"jdbc:oracle:", "JDBC:ORACLE:"} {
		if i := strings.Index(s, p); i >= 0 {
			oracleURL(s[i+len(p):], found)
		}
	}
	if strings.Contains(s, "@//") {
		scanEZConnect(s, found)
	}
	if strings.IndexByte(s, '@') >= 0 {
		scanLooseURLs(s, found)
	}
}

// specialSchemes are the schemes whose URLs the WHATWG URL standard, which
// browsers, Node.js and Deno follow, reads with an authority however many
// slashes or backslashes follow the colon: https:/user:pw@host,
// https:user:pw@host and https:\user:pw@host all carry user:pw.
var specialSchemes = [...]string{"https", "http", "wss", "ws", "ftp"}

// scanLooseURLs judges the userinfo of special-scheme URLs written without
// the two slashes that scanURLs looks for. The authority read is at most
// maxValue bytes, so the scan stays linear.
func scanLooseURLs(s string, found report) {
	for c := range indexes(s, ":") {
		if strings.HasPrefix(s[c:], "://") {
			continue // scanURLs reads it
		}
		special := false
		for _, sc := range specialSchemes {
			if c >= len(sc) && strings.EqualFold(s[c-len(sc):c], sc) && (c == len(sc) || !schemeChar(s[c-len(sc)-1])) {
				special = true
				break
			}
		}
		if !special {
			continue
		}
		rest := s[c+1:]
		for rest != "" && (rest[0] == '/' || rest[0] == '\\') {
			rest = rest[1:]
		}
		end := 0
		for end < len(rest) && end < maxValue && !urlStop(rest[end]) && strings.IndexByte("/?#\\", rest[end]) < 0 {
			end++
		}
		if at := strings.LastIndexByte(rest[:end], '@'); at > 0 {
			checkUserinfo(rest[:at], found)
		}
	}
}

// scanEZConnect finds Oracle's EZConnect login, user/password@//host…,
// whatever program takes it: "@//" follows no user/password pair but an
// Oracle one (org/repo@v1 and package specs have no "//").
func scanEZConnect(s string, found report) {
	for at := range indexes(s, "@//") {
		// The password: back to the '/' that ends the user name. Neither
		// walk passes a '/', so each byte is read once.
		j := at
		for j > 0 && s[j-1] != '/' && !urlStop(s[j-1]) {
			j--
		}
		if j == 0 || j == at || s[j-1] != '/' {
			continue
		}
		u := j - 1
		for u > 0 && oracleIdentChar(s[u-1]) {
			u--
		}
		if u == j-1 || (u > 0 && !urlStop(s[u-1]) && strings.IndexByte("=:(,;", s[u-1]) < 0) {
			continue
		}
		if pw := urlPassword(s[j:at]); pw != "" {
			found(ruleURLPassword, pw)
		}
	}
}

func schemeChar(c byte) bool { return isAlnum(c) || c == '+' || c == '-' || c == '.' }

// urlStop ends a URL inside a longer string.
func urlStop(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', '"', '\'', '<', '>', '`', 0:
		return true
	}
	return false
}

// checkURL judges one URL: scheme and the rest after "://". server says
// the URL is an MCP server's own (CheckURL's); a URL inside an argument is
// judged as one only if it looks like an MCP endpoint, for the path rule.
func checkURL(scheme, rest string, server bool, found report) {
	if strings.EqualFold(scheme, "file") {
		return
	}
	authEnd := len(rest)
	if j := strings.IndexAny(rest, "/?#"); j >= 0 {
		authEnd = j
	}
	authority := rest[:authEnd]
	userinfo, hasUser := "", false
	if at := strings.LastIndexByte(authority, '@'); at >= 0 {
		userinfo, hasUser = authority[:at], true
	} else if c := strings.IndexByte(authority, ':'); c >= 0 && !portLike(authority[c+1:]) {
		// user:pa/ss@host or user:p#ss@host: the password holds a
		// character that ends the authority. Take the userinfo up to the
		// next '@' rather than fail open.
		if at := strings.IndexByte(rest, '@'); at > c {
			userinfo, hasUser = rest[:at], true
			authEnd = at
		}
	}
	hostStart := 0
	if hasUser {
		checkUserinfo(userinfo, found)
		hostStart = len(userinfo) + 1
	}
	tail := rest[authEnd:]
	// JDBC and matrix-style parameters: ;user=sa;password=x before the query.
	q := strings.IndexAny(tail, "?#")
	path := tail
	if q >= 0 {
		path = tail[:q]
	}
	if server || mcpEndpoint(rest[:authEnd+len(path)]) {
		checkPath(path, found)
	}
	if hostStart <= authEnd && keyPathHost(rest[hostStart:authEnd]) {
		checkKeyPath(path, found)
	}
	paramsEnd := len(rest)
	if q >= 0 {
		paramsEnd = authEnd + q
	}
	if hostStart <= paramsEnd {
		if j := strings.IndexByte(rest[hostStart:paramsEnd], ';'); j >= 0 {
			checkParams(rest[hostStart+j+1:paramsEnd], found)
		}
	}
	if q < 0 {
		return
	}
	query := tail[q+1:]
	if tail[q] == '?' {
		if h := strings.IndexByte(query, '#'); h >= 0 {
			checkParams(query[:h], found)
			query = query[h+1:]
		} else {
			checkParams(query, found)
			return
		}
	}
	checkParams(query, found) // the fragment, for #access_token=…
}

// portLike: digits only, maybe followed by the rest of a JDBC authority.
func portLike(s string) bool {
	n := 0
	for n < len(s) && isDigit(s[n]) {
		n++
	}
	return n == len(s) || s[n] == ';' || s[n] == ',' || s[n] == ':'
}

// checkUserinfo: a password, even with an empty user (https://:tok@h), is
// refused unless it is a reference or a placeholder; a user name alone is
// fine unless it looks like a token (https://<token>@github.com).
func checkUserinfo(ui string, found report) {
	if c := strings.IndexByte(ui, ':'); c >= 0 {
		if pw := urlPassword(ui[c+1:]); pw != "" {
			found(ruleURLPassword, pw)
		}
		if c == len(ui)-1 {
			ui = ui[:c] // https://<token>:@host: a token as the user, with an empty password
		} else {
			return
		}
	}
	if looksRandom(ui) {
		found(ruleURLUserToken, ui)
	}
}

// urlPassword returns the secret of a URL's password: pw itself, or a
// reference's literal default; "" for none, a reference or a placeholder.
func urlPassword(pw string) string {
	if pw == "" || placeholder(pw) {
		return ""
	}
	if ok, def := reference(pw); ok {
		if def == "" || placeholder(def) {
			return ""
		}
		return def
	}
	return pw
}

// Signed-URL parameters: the signature, and the credential scope and
// session token that travel with it. CloudFront's Policy and Key-Pair-Id
// are left out on purpose: a policy document and a public key's ID grant
// nothing without the Signature, which is here (docs/secrets.md, decision
// 32).
var signedParams = []string{
	"x-amz-signature", "x-amz-credential", "x-amz-security-token", "x-goog-signature",
	"x-goog-credential", "signature", "sig",
}

// checkParams judges name=value pairs separated by '&' or ';'. A name is
// percent-decoded before it is read, as a server decodes it (?%74oken= is
// ?token=); a name with a malformed escape is read as written. Values are
// not unescaped, and a bad %-escape anywhere cannot make the check fail.
func checkParams(q string, found report) {
	for q != "" {
		var p string
		if j := strings.IndexAny(q, "&;"); j >= 0 {
			p, q = q[:j], q[j+1:]
		} else {
			p, q = q, ""
		}
		eq := strings.IndexByte(p, '=')
		if eq <= 0 {
			continue
		}
		name, value := unescapeName(p[:eq]), p[eq+1:]
		if value == "" {
			continue
		}
		signed := false
		for _, s := range signedParams {
			if strings.EqualFold(name, s) {
				signed = true
				break
			}
		}
		if signed {
			if ok, _ := reference(value); !ok && !placeholder(value) {
				found(ruleURLSigned, value)
			}
			continue
		}
		st := classifyName(name)
		if strings.EqualFold(name, "key") || strings.EqualFold(name, "appid") {
			// ?key= is Google's API key parameter and many others', and
			// ?appid= OpenWeather's and Wolfram Alpha's; only a plain word
			// (?key=name) is taken for a lookup key.
			if !plainWord(value) && literalSecret(strong, value) {
				found(ruleURLQueryCredential, judged(strong, value))
			}
			continue
		}
		if st != notSecret && literalSecret(st, value) {
			found(ruleURLQueryCredential, judged(st, value))
		}
	}
}

// unescapeName percent-decodes a parameter's name once, as a server does
// (%74oken and tok%65n are token, api%5Fkey is api_key). A name with a
// malformed escape (%zz, a '%' at the end) is returned as written. The
// name is only classified, never printed.
func unescapeName(name string) string {
	i := strings.IndexByte(name, '%')
	if i < 0 {
		return name
	}
	buf := make([]byte, 0, len(name))
	buf = append(buf, name[:i]...)
	for ; i < len(name); i++ {
		c := name[i]
		if c != '%' {
			buf = append(buf, c)
			continue
		}
		if i+2 >= len(name) || !isHex(name[i+1]) || !isHex(name[i+2]) {
			return name
		}
		buf = append(buf, unhex(name[i+1])<<4|unhex(name[i+2]))
		i += 2
	}
	return string(buf)
}

func unhex(c byte) byte {
	switch {
	case isDigit(c):
		return c - '0'
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}

// plainWord: letters only (a lookup key, a sort field), or a number.
func plainWord(v string) bool {
	if v == "" || len(v) > 24 {
		return false
	}
	letters, digits := true, true
	for i := 0; i < len(v); i++ {
		if !isLower(v[i]) && !isUpper(v[i]) && v[i] != '-' && v[i] != '_' {
			letters = false
		}
		if !isDigit(v[i]) {
			digits = false
		}
	}
	return letters || digits
}

// oracleURL: after "jdbc:oracle:", a driver ("thin:", "oci:") and then
// user/password@host.
func oracleURL(s string, found report) {
	c := strings.IndexByte(s, ':')
	if c < 0 {
		return
	}
	s = s[c+1:]
	at := strings.IndexByte(s, '@')
	if at <= 0 {
		return
	}
	ui := s[:at]
	if strings.ContainsAny(ui, " \t\"'") {
		return
	}
	if sl := strings.IndexByte(ui, '/'); sl > 0 {
		if pw := urlPassword(ui[sl+1:]); pw != "" {
			found(ruleURLPassword, pw)
		}
	}
}

// schemelessPassword returns the password of a whole word
// user:password@host[:port][/path] with no scheme, as proxies and Redis
// clients take it, or "". The host must look like one (a dot, or
// localhost) so that image references (name:tag@sha256:…) and package
// specs never match.
func schemelessPassword(w string) string {
	at := strings.IndexByte(w, '@')
	c := strings.IndexByte(w, ':')
	if at < 0 || c <= 0 || c > at || strings.Contains(w, "://") {
		return ""
	}
	for i := 0; i < c; i++ {
		ch := w[i]
		if !isAlnum(ch) && strings.IndexByte("._%+-", ch) < 0 {
			return ""
		}
	}
	pw := w[c+1 : at]
	if pw == "" || strings.ContainsAny(pw, "/ \t") {
		return ""
	}
	host := w[at+1:]
	// Go's MySQL driver: user:password@tcp(host:port)/db, @unix(/path).
	for _, p := range [...]string{"tcp(", "tcp6(", "unix("} {
		if strings.HasPrefix(host, p) {
			return urlPassword(pw)
		}
	}
	if j := strings.IndexAny(host, ":/"); j >= 0 {
		if host[j] == ':' && !portLike(strings.SplitN(host[j+1:], "/", 2)[0]) {
			return ""
		}
		host = host[:j]
	}
	if host == "" {
		return ""
	}
	for i := 0; i < len(host); i++ {
		if !isAlnum(host[i]) && host[i] != '.' && host[i] != '-' {
			return ""
		}
	}
	if !strings.Contains(host, ".") && !strings.EqualFold(host, "localhost") {
		return ""
	}
	return urlPassword(pw)
}

// mcpEndpoint: the host or path names MCP or SSE, as the endpoints that
// carry keys in their paths do (mcp.example.com, /api/mcp/s/<key>/mcp).
// Other URLs in arguments (a document's, a repository's) have long IDs in
// their paths that are not credentials.
func mcpEndpoint(hostPath string) bool {
	return indexFold(hostPath, "mcp") >= 0 || indexFold(hostPath, "sse") >= 0
}

// checkPath: hosted MCP endpoints that put the caller's key in the path
// (https://host/api/mcp/s/<key>/mcp). Only a segment that passes the strict
// bare-value test counts: IDs in hex, UUIDs and words never do.
func checkPath(path string, found report) {
	for seg := range strings.SplitSeq(path, "/") {
		if j := strings.IndexByte(seg, ';'); j >= 0 {
			seg = seg[:j]
		}
		if ok, def := reference(seg); ok && def != "" {
			seg = def // /mcp/${KEY:-<key>}/sse: the default is recorded
		}
		if bareRandom(seg) {
			found(ruleURLPathSecret, seg)
			return
		}
	}
}

// Hosts that put the caller's API key in the URL's path: blockchain RPC
// providers (https://mainnet.infura.io/v3/<key>,
// https://eth-mainnet.g.alchemy.com/v2/<key>, https://rpc.ankr.com/eth/<key>).
// Matched as the host or a suffix after a dot.
var keyPathHosts = []string{
	"infura.io", "alchemy.com", "alchemyapi.io", "quiknode.pro", "ankr.com", "blastapi.io",
	"getblock.io", "nodereal.io", "p2pify.com", "chainstack.com", "nownodes.io", "moralis-nodes.com",
	"pokt.network", "chainnodes.org", "allthatnode.com", "onfinality.io",
}

// keyPathHost reports whether authority (host and maybe a port) is one of
// keyPathHosts.
func keyPathHost(authority string) bool {
	host := authority
	if c := strings.LastIndexByte(host, ':'); c >= 0 && !strings.Contains(host[c:], "]") {
		host = host[:c]
	}
	for _, h := range keyPathHosts {
		if len(host) >= len(h) && strings.EqualFold(host[len(host)-len(h):], h) &&
			(len(host) == len(h) || host[len(host)-len(h)-1] == '.') {
			return true
		}
	}
	return false
}

// checkKeyPath: on a keyPathHost, a path segment of 20 or more letters and
// digits (hex and UUIDs included, as these providers' keys are) with
// digits and letters both is the key. Network names (eth, polygon-mainnet)
// and versions (v3) are not.
func checkKeyPath(path string, found report) {
	for seg := range strings.SplitSeq(path, "/") {
		if ok, def := reference(seg); ok && def != "" {
			seg = def
		}
		if len(seg) < 20 || len(seg) > 256 {
			continue
		}
		digits, letters := 0, 0
		ok := true
		for i := 0; i < len(seg); i++ {
			switch c := seg[i]; {
			case isDigit(c):
				digits++
			case isUpper(c), isLower(c):
				letters++
			case c == '-' || c == '_':
			default:
				ok = false
			}
		}
		if ok && digits >= 2 && letters >= 2 && !placeholder(seg) {
			found(ruleURLPathSecret, seg)
			return
		}
	}
}

// indexFold is strings.Index ignoring ASCII case, for short needles.
func indexFold(s, needle string) int {
	n := len(needle)
	for i := 0; i+n <= len(s); i++ {
		if strings.EqualFold(s[i:i+n], needle) {
			return i
		}
	}
	return -1
}
