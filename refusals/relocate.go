package refusals

// Relocate returns copies of the refusals in err, in the order [All] gives
// them, each an *Error moved to the pointer that to returns for its own. A check run
// on a part of a document (an argument, a name, a server) reports where
// the part sits in the whole: under a config's server, say, or at the
// member a name keys. The refusals in err are left as they were; errors in
// err that are not refusals are left out. It returns nil when err holds no
// refusal.
func Relocate(err error, to func(pointer string) string) []error {
	rs := All(err)
	if len(rs) == 0 {
		return nil
	}
	out := make([]error, len(rs))
	for i, r := range rs {
		c := *r
		c.Pointer = to(r.Pointer)
		out[i] = &c
	}
	return out
}
