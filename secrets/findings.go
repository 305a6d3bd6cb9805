package secrets

// This file holds the set of rules that fired on one value, and how it
// becomes refusals: one per rule, the generic rules left out when a token
// rule says more about the same value.

// report is how a scan tells what it found: the rule that fired, and the
// secret it fired on as it stands in the text the check was given (for a
// secret the scan decoded, the encoded text that holds it). Checks keep
// the rule; Credentials keeps the secret.
type report func(r rule, secret string)

// findings is the set of rules that fired on one value.
type findings struct {
	bits [2]uint64
	// secrets, if not nil, collects the secret of every finding
	// (Credentials); the checks leave it nil.
	secrets *[]string
	// refDefault: a credential-named reference with a literal default
	// (${API_KEY:-VALUE}) stands in the value. It is reported as
	// credential-assignment only if no other rule refused the value, so
	// that --api-key ${API_KEY:-VALUE} and postgres://u:${DB_PASSWORD:-pw}@db
	// give one refusal, not two.
	refDefault bool
}

func (f *findings) add(r rule, secret string) {
	f.bits[r/64] |= 1 << (r % 64)
	f.keep(secret)
}

func (f *findings) has(r rule) bool { return f.bits[r/64]&(1<<(r%64)) != 0 }

func (f *findings) del(r rule) { f.bits[r/64] &^= 1 << (r % 64) }

func (f *findings) any() bool { return f.bits[0]|f.bits[1] != 0 || f.refDefault }

func (f *findings) addRefDefault(secret string) {
	f.refDefault = true
	f.keep(secret)
}

func (f *findings) keep(secret string) {
	if f.secrets != nil && secret != "" {
		*f.secrets = append(*f.secrets, secret)
	}
}

// generic rules say less than a token rule about the same value; when a
// token rule fired on a value, they are left out so one secret gives one
// refusal.
var generic = [...]rule{
	ruleCredentialFlag, ruleCredentialAssignment, ruleHeaderCredential, ruleAuthScheme,
	ruleHighEntropy, ruleURLUserToken, ruleURLQueryCredential, ruleURLPathSecret,
}

func (f *findings) flush(pointer string, errs *[]error) {
	if !f.any() {
		return
	}
	if f.refDefault && f.bits[0]|f.bits[1] == 0 {
		f.bits[ruleCredentialAssignment/64] |= 1 << (ruleCredentialAssignment % 64)
	}
	for r := rule(0); r < numRules; r++ {
		if f.has(r) && r.isToken() {
			for _, g := range generic {
				f.del(g)
			}
			// A format of our own says more than gitleaks' catalogue,
			// and a listed format more than the shape does.
			if r < ruleTokenCatalog {
				f.del(ruleTokenCatalog)
			}
			if r != ruleTokenPrefixed {
				f.del(ruleTokenPrefixed)
			}
			break
		}
	}
	if f.has(ruleHeaderCredential) || f.has(ruleCredentialFlag) || f.has(ruleCredentialAssignment) {
		f.del(ruleAuthScheme)
	}
	for r := rule(0); r < numRules; r++ {
		if f.has(r) {
			*errs = append(*errs, r.refusal(pointer))
		}
	}
}
