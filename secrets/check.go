package secrets

import (
	"strings"

	"github.com/guardian-agent/guardian-go/refusals"
)

// CheckURL refuses a credential in a server URL: a password in the
// userinfo, a token as the user name, a credential-named or signed-URL
// query or fragment parameter, a JDBC password property, and any
// well-known token anywhere in it. It returns nil, or a refusals.Join of
// one *refusals.Error per finding at pointer, with Kind
// refusals.ErrContainsSecret. A URL that net/url would reject is still
// checked: nothing here parses it with net/url.
func CheckURL(pointer, rawURL string) error {
	var f findings
	if k := strings.Index(rawURL, "://"); k >= 0 {
		// The whole string is the URL: spaces and NULs in it do not end it.
		checkURL(rawURL[:k], rawURL[k+3:], true, f.add)
		scanURLs(rawURL, f.add)
	} else if strings.HasPrefix(rawURL, "jdbc:") {
		scanURLs(rawURL, f.add)
	} else {
		// No scheme: read it as authority and the rest, so that
		// user:pass@host/db is not waved through.
		checkURL("", rawURL, true, f.add)
	}
	scanLooseURLs(rawURL, f.add)
	scanTokensDecoded(rawURL, f.add)
	scanAuthSchemes(rawURL, f.add)
	scanBase64(rawURL, f.add) // ?config=<base64 JSON with the key in it>
	scanRefDefaults(rawURL, f.addRefDefault)
	scanDecodedViews(rawURL, f.add) // ?config=%7B%22apiKey%22…
	var errs []error
	f.flush(pointer, &errs)
	return refusals.Join(errs...)
}

// CheckArgs refuses credentials in a server's arguments: tokens of
// well-known formats anywhere, URLs with passwords or credential
// parameters, values after credential-named flags (--api-key VALUE,
// --password=VALUE, -token VALUE), credentials in header-shaped arguments,
// env-style assignments of credential-named variables, and random-looking
// key material given as a bare argument. Each finding is a
// *refusals.Error at pointer + "/" + the argument's index; the result is
// nil or their refusals.Join.
func CheckArgs(pointer string, args []string) error {
	var errs []error
	var st seq
	for i, a := range args {
		var f findings
		st.arg(a, &f)
		if f.any() {
			f.flush(indexPointer(pointer, i), &errs)
		}
	}
	return refusals.Join(errs...)
}

// CheckText refuses the credentials that are credentials wherever they
// appear: tokens of well-known formats, JWTs, PEM private keys and webhook
// URLs (the token/* rules and their kin in Rules), in the text as written
// and in its percent-decoded form (decoded once: key%3Dghp_… and ghp%5F…
// are tokens), and in each base64 run of 40 or more characters that
// decodes to text (a base64 token, or base64 JSON holding one); base64 is
// read for those rules only. It also refuses what a server could echo
// into prose from an env value of any name: a URL's or DSN's password, a
// connection string's Password=, a credential-named assignment, JSON
// member or query parameter, a credential header line, a Bearer or Basic
// credential; each unless the value only describes a credential (a
// placeholder, a reference, or a word such as "password" that names one).
// It is for free text a definition records, such as a system prompt, a
// description or a schema's strings, where CheckArgs' rules about flags
// and positional words would misread prose. Each finding is a
// *refusals.Error at pointer; the result is nil or their refusals.Join.
func CheckText(pointer, text string) error {
	var f findings
	scanTokensDecoded(text, f.add)
	scanBase64Tokens(text, f.add)
	scanPrefixed(text, f.add)
	scanProse(text, f.add)
	if !f.any() {
		return nil
	}
	var errs []error
	f.flush(pointer, &errs)
	return refusals.Join(errs...)
}

// CheckCommand refuses credentials in a server's command: the same rules
// as CheckArgs, applied to the words of the command (a command may be a
// whole command line, "env TOKEN=… node server.js"). Every finding is at
// pointer.
func CheckCommand(pointer, command string) error {
	var errs []error
	var st seq
	if f := checkCommand(command, &st); f.any() {
		f.flush(pointer, &errs)
	}
	return refusals.Join(errs...)
}

// CheckStdio refuses credentials in a stdio server's command and
// arguments, read together: what CheckCommand refuses in the command (at
// pointer + "/command") and CheckArgs in the arguments (at pointer +
// "/args/" + the index), and also what only the command says is a
// password. mysql -pSECRET, sshpass -p SECRET, redis-cli -a SECRET,
// sqlcmd -P SECRET, docker login -p SECRET and sqlplus user/password are
// refused when the command is that program, as they are when the program
// appears earlier in the arguments. It never refuses less than
// CheckCommand and CheckArgs do; with a command such as npx, node or uvx,
// which gives no flag a meaning, it refuses exactly what they do.
func CheckStdio(pointer, command string, args []string) error {
	var errs []error
	var cmd seq
	if f := checkCommand(command, &cmd); f.any() {
		f.flush(refusals.Append(pointer, "command"), &errs)
	}
	// The command's words seed a second reading of the arguments only if
	// they leave something for them: a program or a pending flag.
	seeded := cmd.prog != progNone || cmd.pend != pendNone
	var plain seq
	argsPointer := ""
	for i, a := range args {
		var f findings
		wholeScans(a, &f)
		plain.argWords(a, &f)
		if seeded {
			cmd.argWords(a, &f)
		}
		if f.any() {
			if argsPointer == "" {
				argsPointer = refusals.Append(pointer, "args")
			}
			f.flush(indexPointer(argsPointer, i), &errs)
		}
	}
	return refusals.Join(errs...)
}

// checkCommand checks a command line as CheckCommand does, leaving in st
// what its words leave for the arguments.
func checkCommand(command string, st *seq) (f findings) {
	wholeScans(command, &f)
	st.words(command, &f)
	return f
}

// wholeScans are the scans that read a value as a whole string, wherever
// in it a secret stands.
func wholeScans(s string, f *findings) {
	scanTokensDecoded(s, f.add)
	scanURLs(s, f.add)
	scanAssignments(s, f.add)
	scanAuthSchemes(s, f.add)
	scanBase64(s, f.add)
	scanRefDefaults(s, f.addRefDefault)
	scanDecodedViews(s, f.add)
	scanHeaderLines(s, f.add)
}
