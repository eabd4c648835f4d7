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
		{"a campaign composing another", []string{"testdata/validate/compose"}, 0, []string{
			"testdata/validate/compose/lighthouse/campaign.json: content.nodes.stair (as composed into harbour)\n      unreachable_content",
			"testdata/validate/compose/lighthouse/campaign.json: content.nodes.lamp (as composed into harbour)\n      unreachable_ending",
			"2 campaigns checked: 0 errors, 2 warnings, 3 reachability findings"}},
		{"a pack set", []string{"../engine/kinds/story/testdata/compose/lantern-pack", "../engine/kinds/story/testdata/compose/harbour-pack"}, 0, []string{
			"harbour-night: explored", "3 campaigns checked: 0 errors, 0 warnings, 0 reachability findings"}},
		{"a pack whose requirement is not given", []string{"../engine/kinds/story/testdata/compose/lantern-pack"}, 1, []string{
			"compose/lantern-pack/pack.json: requires[0].id", "pack_dependency_missing"}},
		{"packs mixed with campaigns", []string{"../engine/kinds/story/testdata/compose/lantern-pack", "testdata/validate/compose"}, 2, nil},
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
