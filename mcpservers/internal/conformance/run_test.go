package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/guardian-agent/guardian-go/mcpservers"
)

func TestRunUsage(t *testing.T) {
	env := func(scenario string) func(string) string {
		return func(k string) string {
			if k == scenarioEnv {
				return scenario
			}
			return ""
		}
	}
	// A URL that might carry a secret must never be printed.
	secretURL := "http://user:" + strings.Repeat("p", 12) + "@[::1"
	for _, tc := range []struct {
		name     string
		args     []string
		scenario string
		wantCode int
		wantErr  string
	}{
		{"no url", nil, "initialize", 2, "want one argument"},
		{"two urls", []string{"http://a", "http://b"}, "initialize", 2, "want one argument"},
		{"bad flag", []string{"-nope", "http://127.0.0.1:1"}, "initialize", 2, "flag provided but not defined"},
		{"not a url", []string{secretURL}, "initialize", 2, "not an http or https URL"},
		{"not http", []string{"ftp://127.0.0.1/mcp"}, "initialize", 2, "not an http or https URL"},
		{"no scenario", []string{"http://127.0.0.1:1/mcp"}, "", 2, `unknown scenario ""`},
		{"unknown scenario", []string{"http://127.0.0.1:1/mcp"}, "sse-retry", 2, `unknown scenario "sse-retry"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), tc.args, env(tc.scenario), &stdout, &stderr)
			if code != tc.wantCode || !strings.Contains(stderr.String(), tc.wantErr) {
				t.Errorf("run(%q) = %d, stderr %q; want %d and %q", tc.args, code, stderr.String(), tc.wantCode, tc.wantErr)
			}
			if strings.Contains(stderr.String(), "pppp") {
				t.Errorf("stderr quotes the URL's password: %q", stderr.String())
			}
		})
	}
}

func TestRunUnreachableServer(t *testing.T) {
	var stdout, stderr bytes.Buffer
	// Port 1 on loopback: nothing listens there.
	code := run(context.Background(), []string{"-timeout", "5s", "http://127.0.0.1:1/mcp"},
		func(string) string { return "initialize" }, &stdout, &stderr)
	if code != 1 || !strings.Contains(stderr.String(), "scenario initialize") {
		t.Errorf("run against nothing = %d, stderr %q; want 1 and the scenario's failure", code, stderr.String())
	}
}

func TestSchemaDefaults(t *testing.T) {
	for _, tc := range []struct {
		name, schema, want string
	}{
		{"sep1034", `{"type":"object","properties":{
			"name":{"type":"string","default":"John Doe"},
			"age":{"type":"integer","default":30},
			"score":{"type":"number","default":95.5},
			"status":{"type":"string","enum":["active","inactive"],"default":"active"},
			"verified":{"type":"boolean","default":true},
			"nickname":{"type":"string"}}}`,
			`{"age":30,"name":"John Doe","score":95.5,"status":"active","verified":true}`},
		{"big numbers as written", `{"properties":{"n":{"default":12345678901234567890}}}`, `{"n":12345678901234567890}`},
		{"array default", `{"properties":{"tags":{"type":"array","default":["a","b"]}}}`, `{"tags":["a","b"]}`},
		{"no properties", `{"type":"object"}`, `{}`},
		{"not an object", `[1,2]`, `{}`},
		{"not json", `{"properties":`, `{}`},
		{"empty", ``, `{}`},
		{"property not an object", `{"properties":{"a":3,"b":{"default":1}}}`, `{"b":1}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := json.Marshal(schemaDefaults(json.RawMessage(tc.schema)))
			if err != nil || string(got) != tc.want {
				t.Errorf("schemaDefaults(%s) = %s (%v), want %s", tc.schema, got, err, tc.want)
			}
		})
	}
}

func TestDefaultsElicitor(t *testing.T) {
	ctx := context.Background()
	r, err := defaultsElicitor{}.Elicit(ctx, &mcpservers.ElicitationRequest{
		Mode: "form", RequestedSchema: json.RawMessage(`{"properties":{"ok":{"type":"boolean","default":false}}}`),
	})
	if err != nil || r.Action != mcpservers.ElicitationAccept || fmt.Sprint(r.Content) != "map[ok:false]" {
		t.Errorf("form: %+v, %v; want accept with ok=false", r, err)
	}
	r, err = defaultsElicitor{}.Elicit(ctx, &mcpservers.ElicitationRequest{Mode: "url", URL: "https://example.com/auth"})
	if err != nil || r.Action != mcpservers.ElicitationDecline {
		t.Errorf("url: %+v, %v; want decline", r, err)
	}
}

// FuzzSchemaDefaults: any bytes give a map (never nil, never a panic) whose
// keys are properties of the schema and which encodes as JSON.
func FuzzSchemaDefaults(f *testing.F) {
	for _, s := range []string{
		`{"properties":{"a":{"default":1},"b":{"default":"x"},"c":{}}}`,
		`{"properties":{"a":{"default":null}}}`,
		`{"properties":[]}`, `null`, `{"properties":{"":{"default":{"x":[1e400]}}}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, schema []byte) {
		got := schemaDefaults(schema)
		if got == nil {
			t.Fatal("nil map")
		}
		if _, err := json.Marshal(got); err != nil {
			t.Fatalf("defaults do not encode: %v", err)
		}
		if len(got) == 0 {
			return
		}
		var s struct {
			Properties map[string]json.RawMessage `json:"properties"`
		}
		if err := json.Unmarshal(schema, &s); err != nil {
			t.Fatalf("defaults %v from a schema that does not decode: %v", got, err)
		}
		for k := range got {
			if _, ok := s.Properties[k]; !ok {
				t.Fatalf("default for %q, which is not a property", k)
			}
		}
	})
}

func Example_schemaDefaults() {
	content := schemaDefaults(json.RawMessage(`{"type":"object","properties":{
		"name":{"type":"string","default":"John Doe"},
		"age":{"type":"integer","default":30},
		"email":{"type":"string"}}}`))
	b, _ := json.Marshal(content)
	fmt.Println(string(b))
	// Output: {"age":30,"name":"John Doe"}
}
