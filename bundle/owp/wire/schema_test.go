package wire

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
)

const schemaDir = "../../../docs/owp/schemas"

// schemaTypes are the request, response and sealed plaintext types whose
// JSON Schemas docs/owp/schemas publishes.
var schemaTypes = []any{
	ProfileResponse{}, RegistrationRequest{}, Registration{}, RoundRequest{}, RoundResponse{},
	SubscriptionRequest{}, SubscriptionResponse{}, UnsubscribeRequest{}, MatchesResponse{}, MatchResponse{},
	SubmitRequest{}, Content{}, EncryptedContent{}, FailureRequest{}, EventsResponse{},
	ContextPolicyRequest{}, ContextRequest{}, PrivateResultRequest{}, EncryptedResponse{},
	ContextPolicy{}, ContextPolicyReceipt{}, ContextScope{}, ContextGrant{}, WeatherRequest{},
	WeatherObservation{}, WeatherSubmission{}, PrivateResult{}, GardenFacts{}, WeatherFacts{}, ErrorResponse{},
}

// schemaOptions describe raw JSON members (content, data) as any value.
var schemaOptions = &jsonschema.ForOptions{TypeSchemas: map[reflect.Type]*jsonschema.Schema{
	reflect.TypeFor[json.RawMessage](): {Description: "any JSON value; see docs/owp.md for the shapes accepted"},
}}

// TestSchemasMatchTypes fails when docs/owp/schemas drifts from the Go
// types; -update rewrites it.
func TestSchemasMatchTypes(t *testing.T) {
	want := map[string][]byte{}
	for _, v := range schemaTypes {
		typ := reflect.TypeOf(v)
		s, err := jsonschema.ForType(typ, schemaOptions)
		if err != nil {
			t.Fatalf("%s: %v", typ.Name(), err)
		}
		s.Schema = "https://json-schema.org/draft/2020-12/schema"
		s.ID = "https://storyloom.invalid/owp-market-local/0.2/" + typ.Name() + ".json"
		s.Title = typ.Name()
		out, err := json.MarshalIndent(s, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		want[typ.Name()+".json"] = append(out, '\n')
	}
	if *update {
		if err := os.RemoveAll(schemaDir); err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(schemaDir, 0o755); err != nil {
			t.Fatal(err)
		}
		for name, b := range want {
			if err := os.WriteFile(filepath.Join(schemaDir, name), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	entries, err := os.ReadDir(schemaDir)
	if err != nil {
		t.Fatal(err)
	}
	var extra []string
	for _, e := range entries {
		got, err := os.ReadFile(filepath.Join(schemaDir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		w, ok := want[e.Name()]
		switch {
		case !ok:
			extra = append(extra, e.Name())
		case string(got) != string(w):
			t.Errorf("docs/owp/schemas/%s is stale; run go test ./bundle/owp/wire -run Schemas -update", e.Name())
		}
		delete(want, e.Name())
	}
	var missing []string
	for name := range want {
		missing = append(missing, name)
	}
	sort.Strings(missing)
	if len(missing)+len(extra) > 0 {
		t.Fatalf("schemas missing: %s; not from a type: %s", strings.Join(missing, ", "), strings.Join(extra, ", "))
	}
}
