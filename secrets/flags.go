package secrets

import "strings"

// This file reads command-line flags: --name VALUE, --name=VALUE and
// -name VALUE (Go style), whose name decides (names.go) whether the value
// is a credential; header flags (-H, --header); and the short password
// flags of well-known programs (mysql -pSECRET, sshpass -p, redis-cli -a),
// which only mean "password" after that program's name. judgeWord and
// takePending apply these rules to each word of the walk in sequence.go.

// program is a tool whose short flags take a password.
type program uint8

const (
	progNone       program = iota
	progMySQL              // mysql, mysqldump, mariadb, …: -pSECRET (attached only)
	progMongo              // mongo, mongosh, mongodump, …: -p SECRET
	progSSHPass            // sshpass -p SECRET
	progRedis              // redis-cli -a SECRET
	progSQLCmd             // sqlcmd, bcp, osql: -P SECRET
	progLDAP               // ldapsearch, …: -w SECRET
	progZip                // zip, unzip: -P SECRET
	prog7z                 // 7z: -pSECRET
	progCurl               // curl, wget: -u user:password
	progSMB                // smbclient, rpcclient: -U user%password
	progDocker             // docker, podman, nerdctl, helm: login -p SECRET
	progOracle             // sqlplus, rman, expdp, …: user/password[@connect]
	progSQLcl              // sql (SQLcl): user/password@connect
	progLFTP               // lftp: -u user,password
	progHTTPie             // http, https (HTTPie): -a user:password
	progPassP              // -p SECRET and -pSECRET: cqlsh, hdbsql, ncftp, rdesktop, evil-winrm, netexec, psexec, smbmap, …
	progPassUpperP         // -P SECRET: ipmitool, mosquitto_pub, mosquitto_sub
	progRar                // rar, unrar: -pSECRET
	progAz                 // az: login -p SECRET
	progFreeRDP            // xfreerdp, wfreerdp: /p:SECRET
)

// programOf recognises a program by a word's base name (a path and .exe
// stripped).
func programOf(w string) program {
	for i := len(w) - 1; i >= 0; i-- {
		if w[i] == '/' || w[i] == '\\' {
			w = w[i+1:]
			break
		}
	}
	w = strings.TrimSuffix(strings.TrimSuffix(w, ".exe"), ".EXE")
	if len(w) < 2 || len(w) > len("mssql-scripter") {
		return progNone // no program's name is this short or long
	}
	switch strings.ToLower(w) {
	case "mysql", "mysqldump", "mysqladmin", "mysqlimport", "mysqlcheck", "mysqlpump", "mysqlsh",
		"mysqlshow", "mysqlslap", "mysqlbinlog", "mariadb", "mariadb-dump", "mariadb-admin", "mycli":
		return progMySQL
	case "mongo", "mongosh", "mongodump", "mongorestore", "mongoexport", "mongoimport", "mongostat",
		"mongotop", "mongofiles":
		return progMongo
	case "sshpass":
		return progSSHPass
	case "redis-cli", "valkey-cli", "keydb-cli":
		return progRedis
	case "sqlcmd", "bcp", "osql", "isql", "mssql-cli", "mssql-scripter", "sqlpackage":
		return progSQLCmd
	case "lftp":
		return progLFTP
	case "http", "https", "httpie":
		return progHTTPie
	case "cqlsh", "hdbsql", "ncftp", "ncftpget", "ncftpput", "rdesktop", "evil-winrm", "crackmapexec",
		"cme", "netexec", "nxc", "psexec", "psexec.py", "paexec", "smbmap":
		return progPassP
	case "ipmitool", "mosquitto_pub", "mosquitto_sub", "mosquitto_rr":
		return progPassUpperP
	case "rar", "unrar":
		return progRar
	case "az":
		return progAz
	case "xfreerdp", "wfreerdp", "xfreerdp3", "sdl-freerdp":
		return progFreeRDP
	case "ldapsearch", "ldapmodify", "ldapadd", "ldapdelete", "ldapwhoami", "ldappasswd", "ldapcompare", "ldapmodrdn", "vsql":
		return progLDAP
	case "zip", "unzip", "zipcloak":
		return progZip
	case "7z", "7za", "7zr":
		return prog7z
	case "curl", "wget":
		return progCurl
	case "smbclient", "rpcclient":
		return progSMB
	case "docker", "podman", "nerdctl", "helm", "oras", "crane", "skopeo", "buildah":
		return progDocker
	case "sqlplus", "rman", "expdp", "impdp", "sqlldr", "dgmgrl", "orapki", "wrap", "tkprof":
		return progOracle
	case "sql", "sqlcl":
		return progSQLcl
	}
	return progNone
}

// shortPassword reports whether the single-letter flag c takes a password
// for program p, as a separate argument (sep) or attached (-pSECRET).
func shortPassword(p program, c byte, login bool) (sep, attached bool) {
	switch p {
	case progMySQL:
		return false, c == 'p'
	case progMongo, progSSHPass:
		return c == 'p', c == 'p'
	case progRedis:
		return c == 'a', false
	case progSQLCmd, progZip:
		return c == 'P', c == 'P'
	case progLDAP:
		return c == 'w', false
	case prog7z:
		return false, c == 'p'
	case progDocker, progAz:
		return login && c == 'p', false
	case progPassP:
		return c == 'p', c == 'p'
	case progPassUpperP:
		return c == 'P', c == 'P'
	case progRar:
		return false, c == 'p'
	}
	return false, false
}

// attachedPasswordGuess judges -pVALUE when no program says what -p means:
// ports (-p8080, -p127.0.0.1:80:80), versions (-p3.12), pytest plugins
// (-pno:cacheprovider), bundles of switches (-pv, -prf), paths and
// package specs (-p./build, -p@scope/pkg) and key=value settings made of
// plain words (-pkey=value) are not passwords; anything else six or more
// characters long, with a capital, digit or symbol in it, is taken for
// mysql's -pSECRET.
func attachedPasswordGuess(v string) bool {
	if len(v) < 6 || strings.HasPrefix(v, "no:") {
		return false
	}
	if strings.ContainsAny(v, "=/") {
		if strings.IndexByte("/.~@$", v[0]) >= 0 {
			return false
		}
		plain := true
		for rest := v; rest != "" && plain; {
			part := rest
			if j := strings.IndexAny(rest, "=/"); j >= 0 {
				part, rest = rest[:j], rest[j+1:]
			} else {
				rest = ""
			}
			plain = identifierLike(part)
		}
		if plain {
			return false
		}
	}
	allLower, portish := true, true
	for i := 0; i < len(v); i++ {
		c := v[i]
		if !isLower(c) && c != '-' && c != '_' {
			allLower = false
		}
		if !isDigit(c) && c != '.' && c != ':' && c != '/' && c != '-' {
			portish = false
		}
	}
	if allLower || portish {
		return false
	}
	if ok, _ := reference(v); ok {
		return false
	}
	return !placeholder(v)
}

// flagName splits a flag word into its name (dashes dropped) and value.
// ok is false for words that are not flags: "-", "--", negative numbers.
// A flag typed with an en or em dash, as word processors and chat clients
// turn "--" into (—api-key, –password), is read as the flag it stands for.
func flagName(w string) (name, value string, hasValue, ok bool) {
	if n := typographicDashes(w); n > 0 {
		w = "--" + w[n:] // only classified and judged, never printed
	}
	if len(w) < 2 || w[0] != '-' || w == "--" {
		return "", "", false, false
	}
	n := strings.TrimLeft(w, "-")
	if n == "" || isDigit(n[0]) || n[0] == '.' {
		return "", "", false, false
	}
	if i := strings.IndexByte(n, '='); i >= 0 {
		return n[:i], n[i+1:], true, true
	}
	return n, "", false, true
}

// isHeaderFlag: curl's -H, and --header, --headers, --http-header,
// --add-header, --extra-headers and the like.
//
// A flag whose name puts a credential word before "header" is not one:
// --api-key-header names the header (X-Api-Key), --auth-header gives a
// value; the name vocabulary judges those.
func isHeaderFlag(name string) bool {
	if name == "H" {
		return true
	}
	var prefix string
	switch {
	case hasSuffixFold(name, "headers"):
		prefix = name[:len(name)-len("headers")]
	case hasSuffixFold(name, "header"):
		prefix = name[:len(name)-len("header")]
	default:
		return false
	}
	return classifyName(prefix) == notSecret
}

// openSSLPassFlag: openssl's -passin/-passout, whose value is pass:SECRET,
// env:VAR, file:PATH, fd:N or stdin. (openssl enc's -pass takes the same
// forms, but --pass is also the password flag of many tools, so "pass" is
// read as a credential name, which refuses pass:SECRET and any literal
// and accepts env:, file:, fd: and stdin alike.)
func openSSLPassFlag(name string) bool {
	switch name {
	case "passin", "passout", "kpass", "srcpass", "dstpass":
		return true
	}
	return false
}

// openSSLPassSecret: pass:SECRET is the password itself; env:, file:, fd:
// and stdin say where it is.
func openSSLPassSecret(v string) bool {
	if !strings.HasPrefix(v, "pass:") {
		return false
	}
	return literalSecret(strong, v[len("pass:"):])
}

// typographicDashes returns the length of the run of dashes w starts with
// if any of them is a typographic dash (hyphen U+2010, non-breaking
// hyphen, figure dash, en dash, em dash, horizontal bar, minus sign, small
// and fullwidth hyphen-minus), else 0.
func typographicDashes(w string) int {
	n, typo := 0, false
	for n < len(w) {
		if w[n] == '-' {
			n++
			continue
		}
		if k := dashRune(w[n:]); k > 0 {
			n, typo = n+k, true
			continue
		}
		break
	}
	if !typo {
		return 0
	}
	return n
}

// dashRune returns the UTF-8 length of the typographic dash s starts
// with, or 0.
func dashRune(s string) int {
	if len(s) < 3 {
		return 0
	}
	switch {
	case s[0] == 0xE2 && s[1] == 0x80 && s[2] >= 0x90 && s[2] <= 0x95: // U+2010..U+2015
		return 3
	case s[0] == 0xE2 && s[1] == 0x88 && s[2] == 0x92: // U+2212 minus sign
		return 3
	case s[0] == 0xEF && s[1] == 0xB9 && s[2] == 0xA3: // U+FE63 small hyphen-minus
		return 3
	case s[0] == 0xEF && s[1] == 0xBC && s[2] == 0x8D: // U+FF0D fullwidth hyphen-minus
		return 3
	}
	return 0
}

// takePending consumes what the previous word left pending, if anything,
// with w as the value: a credential flag's value, a header, a program's
// password. It reports whether w was consumed.
func (s *seq) takePending(w string, f *findings) bool {
	p, st := s.pend, s.strength
	s.pend, s.strength = pendNone, notSecret
	if shellOperator(w) {
		// && ; | exec: the command ends, and with it what was pending (a
		// credential flag with no value, like one followed by a flag).
		s.cmdPos, s.prev = 0, ""
		return true
	}
	switch p {
	case pendNone:
		return false
	case pendFlagValue:
		if isFlagWord(w) {
			return false
		}
		if pw := schemelessPassword(w); pw != "" {
			f.add(ruleURLPassword, pw) // --proxy user:pw@proxy.example.com
		}
		if pw := s.oraclePassword(w); pw != "" {
			f.add(ruleURLPassword, pw) // sqlplus -S scott/tiger@db
		}
	case pendCredential:
		if isFlagWord(w) {
			return false // a credential flag with no value: a switch
		}
		if literalSecret(st, w) {
			f.add(ruleCredentialFlag, judged(st, w))
		} else if st == strong && openSSLPassSecret(w) {
			f.add(ruleCredentialFlag, w[len("pass:"):])
		}
	case pendHeader:
		if name, v, ok := splitHeader(w); ok {
			hs := headerStrength(name)
			if v == "" && hs != notSecret {
				s.pend, s.strength = pendHeaderVal, hs
			} else if sec, ok := headerSecretOf(hs, v); ok {
				f.add(ruleHeaderCredential, sec)
			}
		} else if hs := headerStrength(w); hs != notSecret && !strings.ContainsAny(w, "= ") {
			s.pend, s.strength = pendHeaderVal, hs // --header Authorization "Bearer …"
		} else if authSchemeValue(w) {
			f.add(ruleHeaderCredential, authCredential(w)) // --header "Bearer …": the value alone
		}
	case pendHeaderVal:
		if isFlagWord(w) {
			return false
		}
		if sec, ok := headerSecretOf(st, w); ok {
			f.add(ruleHeaderCredential, sec)
		}
	case pendPassword:
		if isFlagWord(w) {
			return false
		}
		if sec, ok := judge(strong, w); ok {
			f.add(ruleCredentialFlag, sec)
		}
	case pendOpenSSL:
		if openSSLPassSecret(w) {
			f.add(ruleCredentialFlag, w[len("pass:"):])
		}
	case pendUserPass:
		if pw := userPasswordOf(w); pw != "" {
			f.add(ruleCredentialFlag, pw)
		}
	case pendSMBUser:
		if pw := smbPassword(w); pw != "" {
			f.add(ruleCredentialFlag, pw)
		}
	case pendLFTPUser:
		if pw := lftpPassword(w); pw != "" {
			f.add(ruleCredentialFlag, pw)
		}
	case pendUserPassGuess:
		if isFlagWord(w) {
			return false
		}
		// Without the program's name, -u may be docker's user:group: only
		// a password that is neither a number nor a plain name counts.
		if c := strings.IndexByte(w, ':'); c > 0 && userPassword(w) && !identifierLike(w[c+1:]) {
			f.add(ruleCredentialFlag, w[c+1:])
		}
	case pendSetName:
		if w == "" {
			return false
		}
		if len(w) <= 3 && w[0] == '/' {
			s.pend = pendSetName // setx /M NAME VALUE
			return true
		}
		if name, _, _, ok := flagName(w); ok {
			if classifyName(name) != notSecret {
				return false // set --api-key …: the flag speaks for itself
			}
			s.pend = pendSetName // set -gx NAME VALUE, git config --global NAME VALUE
			return true
		}
		if !variableName(w) {
			return false
		}
		s.cmdPos, s.prev = s.cmdPos+1, w
		if st := classifyName(w); st != notSecret {
			s.pend, s.strength = pendSetValue, st // setx API_KEY VALUE
		}
	case pendSetValue:
		if name, v, hasVal, ok := flagName(w); ok {
			// gh secret set API_KEY --body VALUE, az … --value VALUE.
			switch name {
			case "body", "b", "value", "v":
				if !hasVal {
					s.pend, s.strength = pendSetValue, st
				} else if sec, ok := judge(st, v); ok {
					f.add(ruleCredentialAssignment, sec)
				}
				return true
			}
			return false
		}
		if sec, ok := judge(st, w); ok {
			f.add(ruleCredentialAssignment, sec)
		}
	}
	return true
}

// isFlagWord: a word that is a flag, not a value.
func isFlagWord(w string) bool {
	_, _, _, ok := flagName(w)
	return ok
}

// judgeWord judges one word, its trailing shell operators stripped: as
// the value the previous word left pending, as a header ("Name: value"),
// as a flag (a credential-named one, a program's password flag, a header
// flag), or else as a positional argument.
func (s *seq) judgeWord(w string, f *findings) {
	if s.takePending(w, f) {
		return
	}
	if name, v, ok := splitHeader(w); ok && v == "" && !s.inner {
		// "Authorization:" alone, its value in the next word.
		if hs := headerStrength(name); hs != notSecret {
			s.pend, s.strength = pendHeaderVal, hs
			return
		}
	} else if ok && v != "" {
		if sec, ok := headerSecretOf(headerStrength(name), v); ok {
			f.add(ruleHeaderCredential, sec)
		}
	}
	// Windows and PowerShell spell a flag's value with a colon:
	// /password:VALUE, -Password:VALUE.
	if name, v, ok := colonFlag(w); ok {
		if st := classifyName(name); st != notSecret {
			if sec, ok := judge(st, v); ok {
				f.add(ruleCredentialFlag, sec)
			}
			return
		}
	}
	if s.prog == progFreeRDP && strings.HasPrefix(w, "/p:") {
		if sec, ok := judge(strong, w[3:]); ok {
			f.add(ruleCredentialFlag, sec) // xfreerdp /p:SECRET
		}
		return
	}
	name, val, hasVal, isFlag := flagName(w)
	if !isFlag {
		s.positional(w, f)
		return
	}
	if w[0] == '-' && w[1] != '-' && s.shortFlag(w[1:], f) {
		return
	}
	if isHeaderFlag(name) {
		if hasVal {
			s.pend = pendHeader
			s.takePending(val, f)
		} else {
			s.pend = pendHeader
		}
		return
	}
	if openSSLPassFlag(name) {
		if hasVal {
			if openSSLPassSecret(val) {
				f.add(ruleCredentialFlag, val[len("pass:"):])
			}
		} else {
			s.pend = pendOpenSSL
		}
		return
	}
	if (name == "user" || name == "proxy-user") && s.prog == progNone && !hasVal {
		s.pend = pendUserPassGuess
		return
	}
	if s.prog == progCurl && (name == "user" || name == "proxy-user") {
		if hasVal {
			if pw := userPasswordOf(val); pw != "" {
				f.add(ruleCredentialFlag, pw)
			}
		} else {
			s.pend = pendUserPass
		}
		return
	}
	st := classifyName(name)
	if st == notSecret {
		if !hasVal {
			s.pend = pendFlagValue
		} else if pw := schemelessPassword(val); pw != "" {
			f.add(ruleURLPassword, pw)
		}
		return
	}
	if hasVal {
		if sec, ok := judge(st, val); ok {
			f.add(ruleCredentialFlag, sec)
		} else if st == strong && openSSLPassSecret(val) {
			f.add(ruleCredentialFlag, val[len("pass:"):])
		}
		return
	}
	s.pend, s.strength = pendCredential, st
}

// shortFlag judges a short flag, short being its letter and all that is
// attached to it ('=' and '/' included: mysql takes -pPass=word/1 whole),
// by what the program seen makes of it: a password (mysql -pSECRET,
// sshpass -p SECRET), user:password (curl -u, HTTPie -a), user,password
// (lftp -u) or user%password (smbclient -U). It reports whether the flag
// was one of these.
func (s *seq) shortFlag(short string, f *findings) bool {
	sep, att := shortPassword(s.prog, short[0], s.login)
	if len(short) == 1 && sep {
		s.pend = pendPassword
		return true
	}
	if len(short) > 1 && att {
		if sec, ok := judge(strong, short[1:]); ok {
			f.add(ruleCredentialFlag, sec)
		}
		return true
	}
	if s.prog == progNone && short[0] == 'p' && len(short) > 1 && attachedPasswordGuess(short[1:]) {
		f.add(ruleCredentialFlag, short[1:])
		return true
	}
	if (short[0] == 'u' && s.prog == progCurl) || (short[0] == 'a' && s.prog == progHTTPie) {
		// curl -u user:pw, -uuser:pw; HTTPie -a user:pw, -auser:pw.
		if len(short) == 1 {
			s.pend = pendUserPass
		} else if pw := userPasswordOf(short[1:]); pw != "" {
			f.add(ruleCredentialFlag, pw)
		}
		return true
	}
	if short[0] == 'u' && s.prog == progLFTP {
		if len(short) == 1 {
			s.pend = pendLFTPUser
		} else if pw := lftpPassword(short[1:]); pw != "" {
			f.add(ruleCredentialFlag, pw)
		}
		return true
	}
	if (short == "u" || strings.HasPrefix(short, "u=")) && s.prog == progNone {
		s.pend = pendUserPassGuess // curl -u user:pw, when the command is not seen
		return true
	}
	if s.prog == progSMB && short[0] == 'U' {
		if pw := smbPassword(short[1:]); len(short) > 1 && pw != "" {
			f.add(ruleCredentialFlag, pw)
		} else if len(short) == 1 {
			s.pend = pendSMBUser
		}
		return true
	}
	return false
}

// colonFlag splits /name:value and -Name:value, the Windows and PowerShell
// spelling of a flag with its value.
func colonFlag(w string) (name, value string, ok bool) {
	if len(w) < 4 || (w[0] != '/' && w[0] != '-') {
		return "", "", false
	}
	i := 1
	if w[0] == '-' && w[1] == '-' {
		i = 2
	}
	start := i
	if i >= len(w) || (!isUpper(w[i]) && !isLower(w[i])) {
		return "", "", false
	}
	for i < len(w) && (isAlnum(w[i]) || w[i] == '-' || w[i] == '_') {
		i++
	}
	if i-start < 2 || i >= len(w)-1 || w[i] != ':' {
		return "", "", false
	}
	return w[start:i], w[i+1:], true
}

// oraclePassword returns the password of w if w is an Oracle login with
// one, user/password or user/password@connect, as sqlplus, rman, expdp and
// SQLcl (which needs the @connect) take it once the program is seen; else "".
func (s *seq) oraclePassword(w string) string {
	if s.prog != progOracle && s.prog != progSQLcl {
		return ""
	}
	cred := w
	at := strings.IndexByte(w, '@')
	if at >= 0 {
		cred = w[:at]
	} else if s.prog == progSQLcl {
		return ""
	}
	sl := strings.IndexByte(cred, '/')
	if sl <= 0 || sl == len(cred)-1 || strings.ContainsAny(cred[sl+1:], "/ \t") {
		return ""
	}
	for i := 0; i < sl; i++ {
		if !oracleIdentChar(cred[i]) {
			return ""
		}
	}
	return urlPassword(cred[sl+1:])
}

// oracleIdentChar: a character of an Oracle user name.
func oracleIdentChar(c byte) bool { return isAlnum(c) || c == '_' || c == '$' || c == '#' }

// lftpPassword returns the password of lftp's user,password, or "".
func lftpPassword(v string) string {
	i := strings.IndexByte(v, ',')
	if i <= 0 || i == len(v)-1 {
		return ""
	}
	sec, _ := judge(strong, v[i+1:])
	return sec
}

// smbPassword returns the password of user%password, or "".
func smbPassword(v string) string {
	i := strings.IndexByte(v, '%')
	if i < 0 || i == len(v)-1 {
		return ""
	}
	sec, _ := judge(strong, v[i+1:])
	return sec
}
