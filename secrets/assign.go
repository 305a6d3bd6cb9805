package secrets

import "strings"

// This file finds assignments of credential-named keys anywhere in a
// string: env-style NAME=VALUE (GITHUB_TOKEN=…, env OPENAI_API_KEY=… node,
// docker -e KEY=VALUE, --from-literal=password=…, -Ddb.password=…),
// connection-string pairs (host=h password=p, Server=…;Password=…;), and
// JSON or Python-dict pairs ({"apiKey": "…"}) in an argument.

// scanAssignments reports credential-assignment for every credential-named
// key given a literal value in s. Pairs inside a URL are the URL scan's, and
// a flag's own --name=value is the flag scan's.
func scanAssignments(s string, found report) {
	// Where the last URL began and the last word ended, kept up to date as
	// the scan moves right, so telling whether a pair is inside a URL costs
	// nothing extra on long input.
	p, lastStop, lastScheme := 0, -1, -1
	for e := range indexes(s, "=") {
		if e == 0 || s[e-1] == '=' || s[e-1] == '!' || s[e-1] == '<' || s[e-1] == '>' || (e+1 < len(s) && s[e+1] == '=') {
			continue // ==, !=, <=, >=, and base64 padding
		}
		// NAME = VALUE, as PowerShell ($env:API_KEY = '…'), INI and TOML
		// write it: a few spaces may stand around the '='.
		k := e
		for k > 0 && k > e-3 && (s[k-1] == ' ' || s[k-1] == '\t') {
			k--
		}
		spaced, kEnd := k < e, k
		// os.environ['API_KEY'] = …, process.env["API_KEY"] = …: the key
		// is the quoted name in the brackets.
		bracketed := false
		if k >= 4 && s[k-1] == ']' && (s[k-2] == '\'' || s[k-2] == '"') {
			lo := max(0, k-3-maxName)
			if j := strings.LastIndexByte(s[lo:k-2], s[k-2]); j >= 0 && lo+j > 0 && s[lo+j-1] == '[' {
				kEnd, k, bracketed = k-2, lo+j+1, true
			}
		}
		for !bracketed && k > 0 && (isAlnum(s[k-1]) || s[k-1] == '_' || s[k-1] == '.' || s[k-1] == '-') {
			k--
		}
		for ; p < e; p++ {
			if urlStop(s[p]) {
				lastStop = p
			} else if p >= 2 && s[p] == '/' && s[p-1] == '/' && s[p-2] == ':' {
				lastScheme = p
			}
		}
		key := s[k:kEnd]
		if key == "" || key[0] == '-' || lastScheme > lastStop {
			continue
		}
		st := classifyName(key)
		if st == notSecret {
			continue
		}
		v := s[e+1:]
		if spaced || bracketed {
			// Code, not a shell: PowerShell, Python, JavaScript, TOML. A
			// literal there is quoted; unquoted is a variable or a
			// command (os.environ['X'], Get-Content key.txt). Only names
			// that surely hold a credential count, and not a shell test
			// ([ "$PASSWORD" = x ]).
			if (st != strong && st != authorization) || (k > 0 && s[k-1] == '$') {
				continue
			}
			v = strings.TrimLeft(v, " \t")
			if v == "" || (v[0] != '"' && v[0] != '\'') {
				continue
			}
		}
		if sec, ok := pairValueSecret(st, v); ok {
			found(ruleCredentialAssignment, sec)
		}
	}
	if strings.IndexByte(s, ':') >= 0 && (strings.IndexByte(s, '"') >= 0 || strings.IndexByte(s, '\'') >= 0) {
		scanQuotedPairs(s, found)
	}
	if strings.Contains(s, "SetEnvironmentVariable") {
		scanSetEnv(s, found)
	}
	if strings.IndexByte(s, '\n') >= 0 {
		scanConfigLines(s, found)
	}
	if strings.IndexByte(s, '<') >= 0 {
		scanXML(s, found)
	}
}

// scanConfigLines reads each line of a multi-line value as a line of a
// config file: YAML's key: value, INI's, TOML's and .properties' key =
// value, unquoted, to the end of the line (a trailing " #" or " ;"
// comment left out). Quoted values and key=value are the other scans'.
func scanConfigLines(s string, found report) {
	for line := range strings.SplitSeq(s, "\n") {
		line = strings.TrimRight(strings.TrimLeft(line, " \t-"), " \t\r")
		n := 0
		for n < len(line) && n <= maxName && (isAlnum(line[n]) || strings.IndexByte("_.-", line[n]) >= 0) {
			n++
		}
		if n == 0 || n > maxName {
			continue
		}
		rest := strings.TrimLeft(line[n:], " \t")
		if rest == "" || (rest[0] != ':' && rest[0] != '=') {
			continue
		}
		v := strings.TrimLeft(rest[1:], " \t")
		if v == "" || v[0] == '"' || v[0] == '\'' || v[0] == '|' || v[0] == '>' || v[0] == '&' || v[0] == '*' {
			continue // quoted (the pair scans'), a block scalar or an anchor
		}
		for _, c := range [...]string{" #", " ;", "\t#"} {
			if j := strings.Index(v, c); j >= 0 {
				v = strings.TrimRight(v[:j], " \t")
			}
		}
		if st := classifyName(line[:n]); st != notSecret {
			if sec, ok := judge(st, v); ok {
				found(ruleCredentialAssignment, sec)
			}
		}
	}
}

// scanXML finds credentials in XML: an element named for one
// (<password>VALUE</password>) and .NET's appSettings entries
// (<add key="ApiKey" value="VALUE"/>). Attributes (password="VALUE") are
// assignments, which scanAssignments reads.
func scanXML(s string, found report) {
	for end := range indexes(s, "</") {
		off := end + 2
		n := 0
		for off+n < len(s) && n <= maxName && (isAlnum(s[off+n]) || strings.IndexByte("_.-:", s[off+n]) >= 0) {
			n++
		}
		if n == 0 || n > maxName || off+n >= len(s) || s[off+n] != '>' {
			continue
		}
		name := s[off : off+n]
		st := classifyName(name)
		if st == notSecret {
			continue
		}
		// The element's text: back to its opening tag, <name> or <name …>.
		lo := max(0, end-maxValue)
		open := strings.LastIndexByte(s[lo:end], '>')
		if open < 0 {
			continue
		}
		open += lo
		tag := strings.LastIndexByte(s[max(0, open-maxName-64):open], '<')
		if tag < 0 {
			continue
		}
		tag += max(0, open-maxName-64)
		if t := s[tag+1 : open]; !strings.HasPrefix(t, name) || (len(t) > n && t[n] != ' ' && t[n] != '\t') {
			continue
		}
		if sec, ok := judge(st, s[open+1:end]); ok {
			found(ruleCredentialAssignment, sec)
		}
	}
	for k := range indexes(s, `key="`) {
		off := k + len(`key="`)
		name, rest, ok := quotedArg(s[off-1:])
		if !ok {
			continue
		}
		j := strings.Index(rest[:min(len(rest), 64)], `value="`)
		if j < 0 {
			continue
		}
		value, _, ok := quotedArg(rest[j+len(`value=`):])
		if !ok {
			continue
		}
		if st := classifyName(name); st != notSecret {
			if sec, ok := judge(st, value); ok {
				found(ruleCredentialAssignment, sec)
			}
		}
	}
}

// scanSetEnv finds PowerShell's and .NET's
// [Environment]::SetEnvironmentVariable('NAME', 'VALUE', …).
func scanSetEnv(s string, found report) {
	const call = "SetEnvironmentVariable"
	for c := range indexes(s, call) {
		off := c + len(call)
		rest := strings.TrimLeft(s[off:], " \t")
		if !strings.HasPrefix(rest, "(") {
			continue
		}
		name, rest, ok := quotedArg(strings.TrimLeft(rest[1:], " \t"))
		if !ok {
			continue
		}
		rest = strings.TrimLeft(rest, " \t")
		if !strings.HasPrefix(rest, ",") {
			continue
		}
		value, _, ok := quotedArg(strings.TrimLeft(rest[1:], " \t"))
		if !ok {
			continue // a variable or an expression: no literal
		}
		if st := classifyName(name); st != notSecret && literalSecret(st, value) {
			found(ruleCredentialAssignment, judged(st, value))
		}
	}
}

// quotedArg reads a '…' or "…" string at the start of s.
func quotedArg(s string) (arg, rest string, ok bool) {
	if s == "" || (s[0] != '"' && s[0] != '\'') {
		return "", s, false
	}
	end := s[1:]
	if len(end) > maxValue {
		end = end[:maxValue] // a name or value this long is no literal we judge; keeps the scan linear
	}
	j := strings.IndexByte(end, s[0])
	if j < 0 {
		return "", s, false
	}
	return s[1 : 1+j], s[2+j:], true
}

// pairValueSecret takes the value that starts v (quoted, or up to a pair
// separator) and decides it, returning the secret it judged.
func pairValueSecret(st strength, v string) (string, bool) {
	if v == "" {
		return "", false
	}
	if len(v) > maxValue {
		v = v[:maxValue] // see literalSecret: keeps password=password=… linear
	}
	if q := v[0]; q == '"' || q == '\'' {
		if j := strings.IndexByte(v[1:], q); j >= 0 {
			return judge(st, v[1:1+j])
		}
		v = v[1:]
		if v == "" {
			return "", false // KEY=" and nothing after it
		}
	}
	// PowerShell's $env:KEY = (Get-Secret -Name x): a command's output.
	if v[0] == '(' {
		if j := closeParen(v, 0); j > 0 && strings.ContainsAny(v[:j], " \t") {
			return "", false
		}
	}
	// $(gh auth token), `pass show x`, ${TOKEN:?unset}: a shell unit,
	// spaces and all, is one value.
	if n, _ := refAt(v, 0); n > 0 && (v[0] == '`' || strings.HasPrefix(v, "$(") || strings.HasPrefix(v, "${")) {
		if n < len(v) && !strings.ContainsRune(" \t\r\n;&,", rune(v[n])) {
			// $(cmd)suffix: the literal after it is part of the value.
			j := strings.IndexAny(v[n:], " \t\r\n;&,")
			if j < 0 {
				return judge(st, v)
			}
			return judge(st, v[:n+j])
		}
		return judge(st, v[:n])
	}
	stops := " \t\r\n;&,"
	if st == authorization {
		stops = "\r\n;&," // Authorization=Bearer xyz: the scheme and the credential
	}
	if j := strings.IndexAny(v, stops); j >= 0 {
		v = v[:j]
	}
	return judge(st, v)
}

// scanQuotedPairs finds "key": "value" and 'key': 'value' pairs.
func scanQuotedPairs(s string, found report) {
	for c := range indexes(s, ":") {
		// The key: a quoted string ending just before the colon, or a
		// JavaScript object literal's bare identifier ({apiKey: "…"}).
		k := c - 1
		for k >= 0 && (s[k] == ' ' || s[k] == '\t') {
			k--
		}
		var key string
		if k >= 0 && (isAlnum(s[k]) || s[k] == '_' || s[k] == '$') {
			ks := k
			for ks > 0 && k-ks < maxName && (isAlnum(s[ks-1]) || s[ks-1] == '_' || s[ks-1] == '$') {
				ks--
			}
			if ks > 0 && strings.IndexByte("{, \t\n\r", s[ks-1]) < 0 {
				continue
			}
			key = s[ks : k+1]
		} else {
			if k < 1 || (s[k] != '"' && s[k] != '\'') {
				continue
			}
			q := s[k]
			lo := k - maxName - 1
			if lo < 0 {
				lo = 0
			}
			ks := strings.LastIndexByte(s[lo:k], q)
			if ks < 0 {
				continue
			}
			ks += lo
			if k-ks-1 == 0 {
				continue
			}
			key = s[ks+1 : k]
		}
		st := classifyName(key)
		if h := headerStrength(key); h > st {
			st = h
		}
		if st == notSecret {
			continue
		}
		// The value: a quoted string after the colon.
		v := s[c+1:]
		v = strings.TrimLeft(v, " \t")
		if strings.HasPrefix(v, `\"`) {
			v = v[1:] // JSON escaped once too often: {\"apiKey\":\"…\"}
		}
		if v == "" || (v[0] != '"' && v[0] != '\'' && v[0] != '`') {
			continue
		}
		end := closingQuote(v[1:], v[0])
		if end < 0 {
			end = len(v) - 1
		}
		if literalSecret(st, v[1:1+end]) {
			found(ruleCredentialAssignment, judged(st, v[1:1+end]))
		}
	}
}

// closingQuote finds the quote q that ends a string, skipping \-escapes.
func closingQuote(s string, q byte) int {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case q:
			return i
		}
	}
	return -1
}
