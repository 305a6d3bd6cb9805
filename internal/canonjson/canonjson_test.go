package canonjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestRFC8785Sample(t *testing.T) {
	// The example of RFC 8785 §3.2.3 (also cyberphone/json-canonicalization's README).
	in := `{"numbers":[333333333.33333329,1E30,4.50,2e-3,0.000000000000000000000000001],` +
		`"string":"\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/","literals":[null,true,false]}`
	want := `{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\u000f\nA'B\"\\\\\"/"}`
	v, err := Parse([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(EncodeCompact(v)); got != want {
		t.Errorf("EncodeCompact =\n%s\nwant\n%s", got, want)
	}
}

func TestKeysSortByUTF16(t *testing.T) {
	// RFC 8785 §3.2.3's sorting example: U+1F600 (high surrogate D83D)
	// sorts before U+FB33, unlike in UTF-8 byte order.
	in := `{"\u20ac":"Euro Sign","\r":"Carriage Return","\ufb33":"Hebrew Letter Dalet With Dagesh",` +
		`"1":"One","\ud83d\ude00":"Emoji: Grinning Face","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis"}`
	v, err := Parse([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range v.Members {
		got = append(got, m.Value.Text)
	}
	want := []string{"Carriage Return", "One", "Control", "Latin Small Letter O With Diaeresis",
		"Euro Sign", "Emoji: Grinning Face", "Hebrew Letter Dalet With Dagesh"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("order = %q\nwant %q", got, want)
	}
	for _, k := range []string{"\u20ac", "\U0001F600", "1", "\r"} {
		if _, ok := v.Get(k); !ok {
			t.Errorf("Get(%q) missing", k)
		}
	}
	if _, ok := v.Get("2"); ok {
		t.Error("Get(\"2\") found a missing key")
	}
}

func TestNumbers(t *testing.T) {
	tests := []struct{ in, want string }{
		{"0", "0"}, {"-0", "0"}, {"-0.0", "0"}, {"1.0", "1"}, {"1e2", "100"}, {"1E+2", "100"},
		{"0.000001", "0.000001"}, {"0.0000001", "1e-7"}, {"1e21", "1e+21"}, {"1e20", "100000000000000000000"},
		{"123456789012345678901234", "1.2345678901234569e+23"}, {"9007199254740993", "9007199254740992"},
		{"-1.5e-10", "-1.5e-10"}, {"5e-324", "5e-324"}, {"1.7976931348623157e308", "1.7976931348623157e+308"},
	}
	for _, tt := range tests {
		got, ok := CanonicalNumber(tt.in)
		if !ok || got != tt.want {
			t.Errorf("CanonicalNumber(%q) = %q, %v, want %q", tt.in, got, ok, tt.want)
		}
	}
	if _, ok := CanonicalNumber("1e400"); ok {
		t.Error("CanonicalNumber(1e400) ok, want out of range")
	}
}

func TestIndentedEncoding(t *testing.T) {
	v, err := Parse([]byte(` {"b":[1,{"z":null,"a":"<&>\u2028"}],"a":{},"c":[]} `))
	if err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"a\": {},\n  \"b\": [\n    1,\n    {\n      \"a\": \"<&>\u2028\",\n      \"z\": null\n    }\n  ],\n  \"c\": []\n}\n"
	if got := string(Encode(v)); got != want {
		t.Errorf("Encode =\n%s\nwant\n%s", got, want)
	}
}

func TestParseRefuses(t *testing.T) {
	secret := "hunter2-" + strings.Repeat("x", 10)
	tests := []struct {
		name, in, pointer, msg string
	}{
		{"duplicate key", `{"a":{"k":1,"k":"` + secret + `"}}`, "/a/k", "duplicate key"},
		{"invalid utf8", "{\"a\":[\"" + secret + "\xff\"]}", "/a/0", "invalid UTF-8"},
		{"lone surrogate", `{"a":"` + secret + `\ud800"}`, "/a", "lone surrogate"},
		{"low surrogate first", `["\udc00\ud800"]`, "/0", "lone surrogate"},
		{"trailing", `{} x`, "", "unexpected data"},
		{"trailing comma", `{"a":1,}`, "", "expected a string key"},
		{"bare word", `{"a":` + "hunter" + `}`, "/a", "unexpected character"},
		{"leading zero", `[01]`, "", "expected ',' or ']'"},
		{"control char", "[\"a\tb\"]", "/0", "control character"},
		{"too deep", strings.Repeat("[", MaxDepth+2) + strings.Repeat("]", MaxDepth+2), "", "nested too deeply"},
		{"empty", ``, "", "unexpected end"},
		{"huge number", `{"n":1e999}`, "/n", "out of range"},
		{"bad escape", `["\x"]`, "/0", "invalid escape"},
		{"pointer escaping", `{"a/b~":[1,]}`, "/a~1b~0/1", "unexpected character"},
	}
	for _, tt := range tests {
		_, err := Parse([]byte(tt.in))
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("%s: Parse = %v, want *SyntaxError", tt.name, err)
			continue
		}
		if tt.name != "too deep" && se.Pointer != tt.pointer {
			t.Errorf("%s: pointer = %q, want %q", tt.name, se.Pointer, tt.pointer)
		}
		if !strings.Contains(se.Msg, tt.msg) {
			t.Errorf("%s: msg = %q, want %q", tt.name, se.Msg, tt.msg)
		}
		if strings.Contains(err.Error(), secret) || strings.Contains(err.Error(), "hunter") {
			t.Errorf("%s: error quotes the input: %v", tt.name, err)
		}
	}
}

func TestRoundTripAndAgreement(t *testing.T) {
	in := `{"s":"a\"b\\c\u0001\u001f/é😀","n":[-1,2.5,3e-9],"o":{"y":true,"x":false,"w":null}}`
	v, err := Parse([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	out := Encode(v)
	v2, err := Parse(out)
	if err != nil {
		t.Fatal(err)
	}
	if !v.Equal(v2) || !bytes.Equal(out, Encode(v2)) {
		t.Errorf("round trip changed the value:\n%s", out)
	}
	// encoding/json reads our output as the same data.
	var a, b any
	if err := json.Unmarshal([]byte(in), &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(out, &b); err != nil {
		t.Fatal(err)
	}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if !bytes.Equal(ja, jb) {
		t.Errorf("encoding/json disagrees:\n%s\n%s", ja, jb)
	}
	if v.Get("o"); !v.Equal(v) {
		t.Error("Equal is not reflexive")
	}
}

func TestObjBuilder(t *testing.T) {
	v := Obj(Member{"b", Str("1")}, Member{"a", Boolean(true)}, Member{"b", Str("2")}, Member{"c", Arr()})
	if got := string(EncodeCompact(v)); got != `{"a":true,"b":"2","c":[]}` {
		t.Errorf("Obj = %s", got)
	}
	if got := v.Any().(map[string]any)["a"]; got != true {
		t.Errorf("Any a = %v", got)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{`{}`, `[]`, `{"a":[1,2,{"b":null}]}`, `"\ud83d\ude00"`, `-0.0e-0`, `{"a":1,"a":2}`, "\"\xff\"", `[1e308, 1e-400]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := Parse(data)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) || se.Offset < 0 || se.Offset > len(data) {
				t.Fatalf("bad error %#v", err)
			}
			return
		}
		// Anything we accept, encoding/json accepts too.
		if !json.Valid(data) {
			t.Fatalf("Parse accepted what encoding/json rejects: %q", data)
		}
		out := Encode(v)
		v2, err := Parse(out)
		if err != nil {
			t.Fatalf("Parse(Encode(v)) = %v\n%s", err, out)
		}
		if !v.Equal(v2) {
			t.Fatalf("round trip changed the value")
		}
		if out2 := Encode(v2); !bytes.Equal(out, out2) {
			t.Fatalf("Encode is not idempotent:\n%s\n%s", out, out2)
		}
		if !json.Valid(EncodeCompact(v)) {
			t.Fatalf("EncodeCompact wrote invalid JSON")
		}
	})
}

func BenchmarkParseEncode(b *testing.B) {
	doc := []byte(`{"type":"object","properties":{"query":{"type":"string","description":"search text"},"limit":{"type":"integer","minimum":1,"maximum":100}},"required":["query"],"additionalProperties":false}`)
	b.ReportAllocs()
	for b.Loop() {
		v, err := Parse(doc)
		if err != nil {
			b.Fatal(err)
		}
		_ = Encode(v)
	}
}
