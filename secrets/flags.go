package secrets

import "strings"

// This file reads command-line flags: --name VALUE, --name=VALUE and
// -name VALUE (Go style), whose name decides (names.go) whether the value
// is a credential; header flags (-H, --header); and the short password
// flags of well-known programs (mysql -pSECRET, sshpass -p, redis-cli -a),
// which only mean "password" after that program's name.

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
