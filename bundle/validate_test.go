package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestValidateCommand(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		code   int
		output []string
	}{
		{"shipped campaigns", []string{"../static/campaigns"}, 0, []string{"0 errors"}},
		{"broken campaign", []string{"testdata/validate/broken-tale"}, 1, []string{
			"tier 1 — errors", "testdata/validate/broken-tale/campaign.json: content.nodes.start.choices.window", "unknown_node", "1 campaigns checked: 1 errors"}},
		{"a campaign composing another", []string{"testdata/validate/compose"}, 1, []string{
			"testdata/validate/compose/harbour/campaign.json: includes", "compose_unsupported", "2 campaigns checked: 1 errors"}},
		{"an include of a campaign not given", []string{"testdata/validate/compose-missing"}, 1, []string{
			"testdata/validate/compose-missing/harbour/campaign.json: includes[0].ref.id", "include_missing"}},
		{"missing path", []string{"testdata/none"}, 2, nil},
		{"bad flag", []string{"-max-states", "lots"}, 2, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errs bytes.Buffer
			code := dispatch(append([]string{"validate"}, tt.args...), &out, &errs)
			if code != tt.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tt.code, out.String(), errs.String())
			}
			for _, want := range tt.output {
				if !strings.Contains(out.String(), want) {
					t.Errorf("output lacks %q:\n%s", want, out.String())
				}
			}
		})
	}
}
