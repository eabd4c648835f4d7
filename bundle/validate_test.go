package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
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

// compositionCase is a set of small campaigns and packs that does not
// compose or resolve, for one reason code.
type compositionCase struct {
	name  string
	files []caseFile
	args  []string // directories under the case's root
	want  string   // "<file>: <path>" the finding is about
	code  string
}

// caseFile is one file of a compositionCase, under its root.
type caseFile struct {
	path string
	body map[string]any
}

// write writes the case's files under a new directory and returns its
// args as paths under it.
func (c compositionCase) write(t *testing.T) []string {
	t.Helper()
	root := t.TempDir()
	for _, f := range c.files {
		p := filepath.Join(root, filepath.FromSlash(f.path))
		data, err := json.Marshal(f.body)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var paths []string
	for _, a := range c.args {
		paths = append(paths, filepath.Join(root, a))
	}
	return paths
}

// compositionCases are one case per composition and pack reason code.
func compositionCases(t *testing.T) []compositionCase {
	t.Helper()
	story := func(id string, extra map[string]any) map[string]any {
		c := map[string]any{"format": 1, "id": id, "kind": "story-graph", "version": "1.0.0", "title": "Part " + id,
			"content": map[string]any{"start": "a", "nodes": []any{
				map[string]any{"id": "a", "type": "ending", "endingId": "a", "title": "A", "text": "The end.", "outcome": "win"}}}}
		for k, v := range extra {
			c[k] = v
		}
		return c
	}
	include := func(alias, id, version string) map[string]any {
		return map[string]any{"alias": alias, "ref": map[string]any{"id": id, "version": version}}
	}
	includes := func(incs ...map[string]any) map[string]any { return map[string]any{"includes": incs} }
	sim := func() map[string]any {
		var c map[string]any
		data, err := os.ReadFile("../static/campaigns/first-flat/campaign.json")
		if err != nil || json.Unmarshal(data, &c) != nil {
			t.Fatal(err)
		}
		c["id"], c["includes"] = "flat-host", []any{include("m", "first-flat", c["version"].(string))}
		return c
	}
	manifest := func(id string, extra map[string]any) map[string]any {
		m := map[string]any{"format": 1, "id": id, "version": "1.0.0", "kind": "story-graph"}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	requires := func(id, version string) map[string]any {
		return map[string]any{"requires": []any{map[string]any{"id": id, "version": version}}}
	}
	return []compositionCase{
		{"include_version_mismatch", []caseFile{{"m/campaign.json", story("mod", nil)}, {"h/campaign.json", story("host", includes(include("m", "mod", "0.9.0")))}},
			[]string{"."}, "h/campaign.json: includes[0].ref.version", "include_version_mismatch"},
		{"include_kind_mismatch", []caseFile{{"m/campaign.json", story("mod", nil)}, {"h/campaign.json", func() map[string]any { c := sim(); c["includes"] = []any{include("m", "mod", "1.0.0")}; return c }()}},
			[]string{"."}, "h/campaign.json: includes[0].ref.id", "include_kind_mismatch"},
		{"include_cycle", []caseFile{{"a/campaign.json", story("one", includes(include("b", "two", "1.0.0")))}, {"b/campaign.json", story("two", includes(include("a", "one", "1.0.0")))}},
			[]string{"."}, "campaign.json: includes[0].ref.id", "include_cycle"},
		{"include_alias_collision", []caseFile{{"m/campaign.json", story("mod", nil)}, {"h/campaign.json", story("host", includes(include("m", "mod", "1.0.0"), include("m", "mod", "1.0.0")))}},
			[]string{"."}, "h/campaign.json: includes[1].alias", "include_alias_collision"},
		{"a malformed alias", []caseFile{{"m/campaign.json", story("mod", nil)}, {"h/campaign.json", story("host", includes(include("M::x", "mod", "1.0.0")))}},
			[]string{"."}, "h/campaign.json: includes[0].alias", "invalid_identifier"},
		{"compose_unsupported", []caseFile{{"f/campaign.json", sim()}, {"g/campaign.json", func() map[string]any {
			var c map[string]any
			data, _ := os.ReadFile("../static/campaigns/first-flat/campaign.json")
			_ = json.Unmarshal(data, &c)
			return c
		}()}}, []string{"."}, "f/campaign.json: includes", "compose_unsupported"},
		{"attachment_host_missing", []caseFile{{"p/pack.json", manifest("p", map[string]any{"attachments": []any{map[string]any{"hostCampaignId": "nobody", "include": include("m", "mod", "1.0.0"), "payload": map[string]any{"node": "a", "choice": "in"}}}})},
			{"p/campaigns/mod/campaign.json", story("mod", nil)}}, []string{"p"}, "p/pack.json: attachments[0].hostCampaignId", "attachment_host_missing"},
		{"pack_kind_mismatch", []caseFile{{"p/pack.json", manifest("p", nil)}, {"p/campaigns/flat/campaign.json", func() map[string]any { c := sim(); delete(c, "includes"); return c }()}},
			[]string{"p"}, "p/campaigns/flat/campaign.json: kind", "pack_kind_mismatch"},
		{"duplicate_campaign_id_in_pack", []caseFile{{"p/pack.json", manifest("p", nil)}, {"p/campaigns/one/campaign.json", story("same", nil)}, {"p/campaigns/two/campaign.json", story("same", nil)}},
			[]string{"p"}, "p/campaigns/two/campaign.json: id", "duplicate_campaign_id_in_pack"},
		{"pack_dependency_version_conflict", []caseFile{{"base/pack.json", manifest("base", nil)}, {"add/pack.json", manifest("add", requires("base", "2.0.0"))}},
			[]string{"base", "add"}, "add/pack.json: requires[0].version", "pack_dependency_version_conflict"},
		{"pack_dependency_cycle", []caseFile{{"one/pack.json", manifest("one", requires("two", "1.0.0"))}, {"two/pack.json", manifest("two", requires("one", "1.0.0"))}},
			[]string{"one", "two"}, "pack.json: requires[0].id", "pack_dependency_cycle"},
		{"pack_override_unexpected", []caseFile{{"base/pack.json", manifest("base", nil)}, {"base/campaigns/x/campaign.json", story("tale", nil)},
			{"add/pack.json", manifest("add", requires("base", "1.0.0"))}, {"add/campaigns/x/campaign.json", story("tale", nil)}},
			[]string{"base", "add"}, "add/campaigns/x/campaign.json: id", "pack_override_unexpected"},
	}
}

// TestValidateCompositionCodes writes small campaigns and packs to disk and
// validates them with `bundle validate`: every composition and pack reason
// code reaches the author with the file and the path it is about.
func TestValidateCompositionCodes(t *testing.T) {
	for _, tt := range compositionCases(t) {
		t.Run(tt.name, func(t *testing.T) {
			var out, errs bytes.Buffer
			if code := dispatch(append([]string{"validate"}, tt.write(t)...), &out, &errs); code != 1 {
				t.Fatalf("exit %d, want 1\n%s%s", code, out.String(), errs.String())
			}
			if !strings.Contains(out.String(), filepath.FromSlash(tt.want)+"\n      "+tt.code+":") {
				t.Fatalf("the report lacks %s at %s:\n%s", tt.code, tt.want, out.String())
			}
		})
	}
}

// TestHostsCompilingSourceReportCompositionCodes gives each case's source
// to the hosts that compile source when the author asks (`bundle play
// -campaigns`, and `bundle mcp -campaigns` as its own process): neither
// starts on campaigns that do not compose or resolve, and each tells its
// user the reason code with the file and the path it is about.
func TestHostsCompilingSourceReportCompositionCodes(t *testing.T) {
	for _, tt := range compositionCases(t) {
		t.Run(tt.name, func(t *testing.T) {
			list := strings.Join(tt.write(t), ",")
			file, path, _ := strings.Cut(filepath.FromSlash(tt.want), ": ")
			want := file + ": " + tt.code + " at " + path + ":"

			var out, errs bytes.Buffer
			if code := dispatch([]string{"play", "-memory", "-campaigns", list}, &out, &errs); code != 1 {
				t.Fatalf("bundle play exited %d, want 1\n%s%s", code, out.String(), errs.String())
			}
			if !strings.Contains(errs.String(), "bundle play: the campaigns do not build:") || !strings.Contains(errs.String(), want) {
				t.Errorf("bundle play does not say %q:\n%s", want, errs.String())
			}

			cmd := mcpCommand(t, "-memory", "-campaigns", list)
			errs.Reset()
			cmd.Stderr = &errs
			err := cmd.Run()
			if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
				t.Fatalf("bundle mcp ended with %v, want exit status 1\n%s", err, errs.String())
			}
			if !strings.Contains(errs.String(), "bundle mcp: the campaigns do not build:") || !strings.Contains(errs.String(), want) {
				t.Errorf("bundle mcp does not say %q:\n%s", want, errs.String())
			}
		})
	}
}
