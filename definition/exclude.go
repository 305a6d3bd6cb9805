package definition

import (
	"slices"
	"strconv"

	"github.com/guardian-agent/guardian-go/internal/canonjson"
	"github.com/guardian-agent/guardian-go/internal/names"
	"github.com/guardian-agent/guardian-go/refusals"
)

// exclusions are the pointers Options.Exclude leaves out of the document.
type exclusions []exclusion

type exclusion struct {
	pointer string
	tokens  []string
}

// parseExcludes checks each pointer: well formed, and pointing at a field a
// document may go without. Whether it exists is checked when applied. It
// returns the pointers that passed and a refusal for each that did not.
func parseExcludes(ps []string) (exclusions, []error) {
	var out exclusions
	var errs []error
	for _, p := range ps {
		toks, err := refusals.Tokens(p)
		if err != nil {
			errs = append(errs, &refusals.Error{Kind: refusals.ErrInvalid, Rule: "exclude-malformed", Subject: subject(p),
				Detail: "Options.Exclude holds a malformed JSON pointer", Fix: `write RFC 6901 pointers such as "/mcpServers/0/args"`})
			continue
		}
		if !excludable(toks) {
			errs = append(errs, &refusals.Error{Kind: refusals.ErrInvalid, Pointer: names.Pointer(p), Rule: "exclude-required",
				Detail: "a document cannot go without this",
				Fix:    "leave out only optional fields: an agent's description, model or systemPrompt; a tool's title, outputSchema, annotations or parts of its schemas; a server's url, command or args"})
			continue
		}
		out = append(out, exclusion{pointer: p, tokens: toks})
	}
	// Deepest and last first, so removing one never moves another.
	slices.SortFunc(out, func(a, b exclusion) int { return -refusals.ComparePointers(a.pointer, b.pointer) })
	out = slices.CompactFunc(out, func(a, b exclusion) bool { return a.pointer == b.pointer })
	return out, errs
}

// excludable reports whether tokens point at an optional part of an agent.
func excludable(t []string) bool {
	if len(t) == 0 {
		return false
	}
	switch t[0] {
	case keyDescription, keyModel, keySystemPrompt:
		return len(t) == 1
	case keyTools:
		if len(t) < 3 || !isIndex(t[1]) {
			return false
		}
		switch t[2] {
		case keyTitle, keyOutputSchema, keyAnnotations:
			return true
		case keyInputSchema:
			return len(t) > 3 // parts of it, never the whole
		}
	case keyMCPServers:
		if len(t) < 3 || !isIndex(t[1]) {
			return false
		}
		switch t[2] {
		case keyURL, keyCommand:
			return len(t) == 3
		case keyArgs:
			return len(t) == 3 || (len(t) == 4 && isIndex(t[3]))
		}
	case keySubAgents:
		return len(t) > 2 && isIndex(t[1]) && excludable(t[2:])
	}
	return false
}

func isIndex(s string) bool {
	if s == "" || (len(s) > 1 && s[0] == '0') {
		return false
	}
	_, err := strconv.ParseUint(s, 10, 31)
	return err == nil
}

// pointers returns the exclusions in document order, for the record.
func (ex exclusions) pointers() []string {
	if len(ex) == 0 {
		return nil
	}
	out := make([]string, len(ex))
	for i, e := range ex {
		out[len(ex)-1-i] = e.pointer
	}
	return out
}

// apply removes every exclusion from root, refusing pointers that match
// nothing.
func (ex exclusions) apply(root canonjson.Value) (canonjson.Value, []error) {
	var errs []error
	for _, e := range ex {
		v, ok := remove(root, e.tokens)
		if !ok {
			errs = append(errs, &refusals.Error{Kind: refusals.ErrInvalid, Pointer: names.Pointer(e.pointer), Rule: "exclude-not-found",
				Detail: "Options.Exclude names a value the document does not have", Fix: "remove the pointer, or correct it"})
			continue
		}
		root = v
	}
	return root, errs
}

// under returns the exclusions below prefix, relative to it, deepest first.
func (ex exclusions) under(prefix []string) [][]string {
	var out [][]string
	for _, e := range ex {
		if len(e.tokens) > len(prefix) && slices.Equal(e.tokens[:len(prefix)], prefix) {
			out = append(out, e.tokens[len(prefix):])
		}
	}
	return out
}

// remove returns v without the value at tokens, copying only the path to
// it; false if there is none.
func remove(v canonjson.Value, tokens []string) (canonjson.Value, bool) {
	tok := tokens[0]
	switch v.Kind {
	case canonjson.Object:
		i := slices.IndexFunc(v.Members, func(m canonjson.Member) bool { return m.Key == tok })
		if i < 0 {
			return v, false
		}
		members := slices.Clone(v.Members)
		if len(tokens) == 1 {
			members = slices.Delete(members, i, i+1)
		} else {
			c, ok := remove(members[i].Value, tokens[1:])
			if !ok {
				return v, false
			}
			members[i].Value = c
		}
		return canonjson.Value{Kind: canonjson.Object, Members: members}, true
	case canonjson.Array:
		if !isIndex(tok) {
			return v, false
		}
		i, _ := strconv.Atoi(tok)
		if i >= len(v.Items) {
			return v, false
		}
		items := slices.Clone(v.Items)
		if len(tokens) == 1 {
			items = slices.Delete(items, i, i+1)
		} else {
			c, ok := remove(items[i], tokens[1:])
			if !ok {
				return v, false
			}
			items[i] = c
		}
		return canonjson.Value{Kind: canonjson.Array, Items: items}, true
	}
	return v, false
}
