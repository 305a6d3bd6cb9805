package fingerprint

// Part is one piece of a tool's code for Combine: the role it plays (the
// definition package's Role, such as "interceptor" or "auth") and its digest.
type Part struct {
	Role   string
	Digest Digest
}

// Combine gives a tool's sourceHash from the digests of its parts, in the
// order given; the caller fixes the order of roles. The role of each part
// is hashed with it, so moving code from one role to another, or
// reordering parts, changes the result.
//
// Parts whose Digest is zero (code that was skipped, such as mcp-go's or
// the standard library's) are left out, as if not given. Combine of no
// parts, or of parts that are all zero, is the zero Digest: the tool has
// no code to fingerprint, and a definition records no sourceHash for it.
func Combine(parts ...Part) Digest {
	var material []byte
	n := 0
	for _, p := range parts {
		if p.Digest.IsZero() {
			continue
		}
		material = appendString(material, p.Role)
		material = append(material, p.Digest[:]...)
		n++
	}
	if n == 0 {
		return Digest{}
	}
	return derive(ctxCombine, material)
}
