package canonjson

// Encode returns the canonical, indented form of v with a trailing newline:
// the bytes of a definition document.
func Encode(v Value) []byte {
	dst := make([]byte, 0, 1024)
	dst = appendIndented(dst, v, 0)
	return append(dst, '\n')
}

// EncodeCompact returns the canonical form of v without whitespace: RFC 8785
// (JCS) bytes.
func EncodeCompact(v Value) []byte {
	return appendCompact(nil, v)
}

func appendIndented(dst []byte, v Value, depth int) []byte {
	switch v.Kind {
	case Array:
		if len(v.Items) == 0 {
			return append(dst, "[]"...)
		}
		dst = append(dst, '[')
		for i, x := range v.Items {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = newline(dst, depth+1)
			dst = appendIndented(dst, x, depth+1)
		}
		dst = newline(dst, depth)
		return append(dst, ']')
	case Object:
		if len(v.Members) == 0 {
			return append(dst, "{}"...)
		}
		dst = append(dst, '{')
		for i, m := range v.Members {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = newline(dst, depth+1)
			dst = AppendString(dst, m.Key)
			dst = append(dst, ": "...)
			dst = appendIndented(dst, m.Value, depth+1)
		}
		dst = newline(dst, depth)
		return append(dst, '}')
	}
	return appendScalar(dst, v)
}

func appendCompact(dst []byte, v Value) []byte {
	switch v.Kind {
	case Array:
		dst = append(dst, '[')
		for i, x := range v.Items {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendCompact(dst, x)
		}
		return append(dst, ']')
	case Object:
		dst = append(dst, '{')
		for i, m := range v.Members {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = AppendString(dst, m.Key)
			dst = append(dst, ':')
			dst = appendCompact(dst, m.Value)
		}
		return append(dst, '}')
	}
	return appendScalar(dst, v)
}

func appendScalar(dst []byte, v Value) []byte {
	switch v.Kind {
	case Bool, Number:
		return append(dst, v.Text...)
	case String:
		return AppendString(dst, v.Text)
	}
	return append(dst, "null"...)
}

func newline(dst []byte, depth int) []byte {
	dst = append(dst, '\n')
	for range depth {
		dst = append(dst, ' ', ' ')
	}
	return dst
}

// AppendString appends s as an RFC 8785 string: only '"', '\\' and control
// characters are escaped (\b \t \n \f \r, else \u00xx in lowercase hex);
// everything else, '<', '>', '&' and U+2028/U+2029 included, is written as
// UTF-8. s must be valid UTF-8 (the parser guarantees it; builders check).
func AppendString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		dst = append(dst, s[start:i]...)
		switch c {
		case '"', '\\':
			dst = append(dst, '\\', c)
		case '\b':
			dst = append(dst, '\\', 'b')
		case '\t':
			dst = append(dst, '\\', 't')
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\f':
			dst = append(dst, '\\', 'f')
		case '\r':
			dst = append(dst, '\\', 'r')
		default:
			dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		}
		start = i + 1
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
