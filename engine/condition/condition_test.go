package condition

import (
	"strings"
	"testing"
)

type mapResolver struct {
	fields      map[string]any
	collections map[string][]Resolver
}

func (m mapResolver) Field(p string) (any, bool) { v, ok := m.fields[p]; return v, ok }
func (m mapResolver) Collection(n string) ([]Resolver, bool) {
	c, ok := m.collections[n]
	return c, ok
}

func item(name string, weight float64) Resolver {
	return mapResolver{fields: map[string]any{"name": name, "weight": weight}}
}

func TestEval(t *testing.T) {
	r := mapResolver{
		fields: map[string]any{
			"var.gold": float64(12), "var.name": "ada", "flag.met_keeper": true,
			"tags": []string{"brave", "tired"}, "visits.gate": int64(2),
		},
		collections: map[string][]Resolver{"items": {item("rope", 2), item("lamp", 5), item("key", 1)}},
	}
	tests := []struct {
		name string
		cond string
		want bool
	}{
		{"equals number", `{"field":"var.gold","operator":"equals","value":12}`, true},
		{"not_equals absent", `{"field":"var.none","operator":"not_equals","value":1}`, true},
		{"absent equals null", `{"field":"var.none","operator":"equals","value":null}`, true},
		{"less_than", `{"field":"var.gold","operator":"less_than","value":12}`, false},
		{"less_or_equal", `{"field":"var.gold","operator":"less_or_equal","value":12}`, true},
		{"greater_than int64", `{"field":"visits.gate","operator":"greater_than","value":1}`, true},
		{"greater_or_equal string", `{"field":"var.name","operator":"greater_or_equal","value":"ab"}`, true},
		{"in", `{"field":"var.name","operator":"in","value":["bob","ada"]}`, true},
		{"not_in", `{"field":"var.name","operator":"not_in","value":["bob","ada"]}`, false},
		{"contains string", `{"field":"var.name","operator":"contains","value":"d"}`, true},
		{"has_tag", `{"field":"tags","operator":"has_tag","value":"brave"}`, true},
		{"has_flag on absent", `{"field":"flags","operator":"has_flag","value":"x"}`, false},
		{"bool equals", `{"field":"flag.met_keeper","operator":"equals","value":true}`, true},
		{"all", `{"all":[{"field":"var.gold","operator":"greater_than","value":1},{"field":"var.name","operator":"equals","value":"ada"}]}`, true},
		{"any", `{"any":[{"field":"var.gold","operator":"less_than","value":1},{"field":"var.name","operator":"equals","value":"x"}]}`, false},
		{"not", `{"not":{"field":"var.gold","operator":"less_than","value":1}}`, true},
		{"exists", `{"exists":{"collection":"items","where":{"field":"weight","operator":"greater_than","value":4}}}`, true},
		{"count", `{"count":{"collection":"items","where":{"field":"weight","operator":"less_than","value":3}},"operator":"equals","value":2}`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Parse([]byte(tt.cond))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			got, err := Eval(c, r)
			if err != nil {
				t.Fatalf("Eval: %v", err)
			}
			if got != tt.want {
				t.Fatalf("Eval(%s) = %v, want %v", tt.cond, got, tt.want)
			}
		})
	}
}

func TestEvalErrors(t *testing.T) {
	r := mapResolver{fields: map[string]any{"var.name": "ada"}}
	for _, cond := range []string{
		`{"field":"var.name","operator":"less_than","value":3}`,
		`{"field":"var.none","operator":"greater_than","value":3}`,
		`{"exists":{"collection":"nope","where":{"field":"x","operator":"equals","value":1}}}`,
	} {
		c, err := Parse([]byte(cond))
		if err != nil {
			t.Fatalf("Parse(%s): %v", cond, err)
		}
		if _, err := Eval(c, r); err == nil {
			t.Errorf("Eval(%s) gave no error", cond)
		}
	}
}

func TestParseRefusesBadShapes(t *testing.T) {
	for _, cond := range []string{
		`{}`,
		`{"field":"a","operator":"between","value":1}`,
		`{"field":"a","operator":"equals","value":1,"all":[]}`,
		`{"field":"a","operator":"in","value":1}`,
		`{"count":{"collection":"c","where":{"field":"a","operator":"equals","value":1}},"operator":"contains","value":1}`,
		`{"count":{"collection":"c","where":{"field":"a","operator":"equals","value":1}},"operator":"equals","value":"two"}`,
		`{"field":"a","operator":"equals","value":1,"extra":true}`,
		strings.Repeat(`{"not":`, MaxDepth+2) + `{"field":"a","operator":"equals","value":1}` + strings.Repeat(`}`, MaxDepth+2),
	} {
		if _, err := Parse([]byte(cond)); err == nil {
			t.Errorf("Parse(%s) accepted", cond)
		}
	}
}

func TestFieldsVisitsEveryRead(t *testing.T) {
	c, err := Parse([]byte(`{"all":[{"field":"a","operator":"equals","value":1},{"not":{"field":"b","operator":"equals","value":1}},{"any":[{"exists":{"collection":"c","where":{"field":"inner","operator":"equals","value":1}}}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	c.Fields(func(name string, coll bool) {
		if coll {
			name = "@" + name
		}
		got = append(got, name)
	})
	if strings.Join(got, ",") != "a,b,@c" {
		t.Fatalf("Fields visited %v", got)
	}
}
