// Package names holds the rules for names — an agent's, a sub-agent's, a
// tool's, a server's, and the keys of a config file — that the definition,
// the config reader and the guardian command share:
//
//   - what a name may hold (Check): no credential, as secrets judges text
//     and a lone word, and no control, bidi or invisible character;
//   - how a pointer token or a refusal's subject stands in for a name or
//     key that holds a credential (Token, Append, Pointer, Subject), so that
//     a refusal never quotes one.
//
// It decides nothing about credentials itself: secrets does.
package names
