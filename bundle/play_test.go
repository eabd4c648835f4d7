package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/storyloom/storyloom/engine/core"
)

var updatePlayGolden = flag.Bool("update", false, "rewrite the golden transcripts under bundle/testdata/play")

// TestPlayScriptTranscripts plays each kind's sample campaign from a script
// to its end, with a save and a load on the way, checks the lines that show
// the client working and that two runs print the same bytes, and compares
// the story's transcript with its golden file (-update rewrites it). The
// simulation and world transcripts have no golden file: their numbers move
// whenever their kinds are tuned, and their own packages hold golden
// playthroughs of the rules.
func TestPlayScriptTranscripts(t *testing.T) {
	site := writeBuiltSite(t, "")
	tests := []struct {
		name     string
		campaign string
		golden   bool
		// want are lines the transcript must hold whatever the golden says.
		want []string
	}{
		{"story to an ending", "gannet-rock", true, []string{
			"(locked) Go down to the landing  [go_to_rocks] — Without a rope, the rocks would have you too.",
			"refused (requirement_unmet)", "saved save-1 (after 9 actions)", "loaded save-1", "— the game has ended —",
		}},
		{"simulation to its resolution", "first-flat", false, []string{
			"refused (unknown_activity)", "(preview: nothing was taken)", "loaded save-1",
			"— the game has ended —", "refused (session_ended)",
		}},
		{"world graph to its resolution", "pier-fair", false, []string{
			"refused (invalid_tick_count)", "loaded save-1", "branched after 0 actions", "— the game has ended —",
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			script := filepath.Join("testdata", "play", tc.campaign+".script")
			got := runPlayScript(t, site, script, tc.campaign)
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("the transcript lacks %q", w)
				}
			}
			if again := runPlayScript(t, site, script, tc.campaign); again != got {
				t.Errorf("two runs of one script printed different transcripts")
			}
			if !tc.golden {
				return
			}
			golden := filepath.Join("testdata", "play", tc.campaign+".golden")
			if *updatePlayGolden {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./bundle -run Play -update to write it)", err)
			}
			if got != string(want) {
				t.Errorf("the transcript differs from %s (go test ./bundle -run Play -update rewrites it):\n%s", golden, firstDiff(string(want), got))
			}
		})
	}
}

// runPlayScript plays a script on the built site's campaign and returns
// the transcript.
func runPlayScript(t *testing.T, site, script, campaign string) string {
	t.Helper()
	var out, errb bytes.Buffer
	if code := dispatch([]string{"play", "-built", site, "-script", script, campaign}, &out, &errb); code != 0 {
		t.Fatalf("play exited %d: %s", code, errb.String())
	}
	if errb.Len() > 0 {
		t.Errorf("play wrote to stderr: %s", errb.String())
	}
	return out.String()
}

// firstDiff shows the first line where two transcripts part.
func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			return "line " + strconv.Itoa(i+1) + ":\n  want: " + wl + "\n  got:  " + gl
		}
	}
	return "(same lines)"
}

// TestPlayCommandLine covers the client's own refusals and its catalog.
func TestPlayCommandLine(t *testing.T) {
	site := writeBuiltSite(t, "")
	tests := []struct {
		name     string
		args     []string
		code     int
		stdout   []string
		stderrIn string
	}{
		{"no campaign lists them with progress", []string{"play", "-memory", "-built", site}, 0,
			[]string{"gannet-rock", "story-graph", "The Keeper of Gannet Rock", "(0 of 5 endings found)", "first-flat", "pier-fair"}, ""},
		{"an unknown campaign", []string{"play", "-memory", "-built", site, "-script", filepath.Join("testdata", "play", "gannet-rock.script"), "atlantis"}, 1,
			nil, "unknown_campaign"},
		{"two campaigns", []string{"play", "-memory", "-built", site, "gannet-rock", "first-flat"}, 2, nil, "usage"},
		{"a script that is not there", []string{"play", "-built", site, "-script", filepath.Join("testdata", "play", "absent.script"), "gannet-rock"}, 1, nil, "absent.script"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			if code := dispatch(tc.args, &out, &errb); code != tc.code {
				t.Fatalf("exit %d, want %d; stderr: %s", code, tc.code, errb.String())
			}
			for _, w := range tc.stdout {
				if !strings.Contains(out.String(), w) {
					t.Errorf("stdout lacks %q:\n%s", w, out.String())
				}
			}
			if !strings.Contains(errb.String(), tc.stderrIn) {
				t.Errorf("stderr %q lacks %q", errb.String(), tc.stderrIn)
			}
		})
	}
}

// TestPlayParseAction covers the action syntax: numbers, booleans and
// strings, quotes keeping a value a string.
func TestPlayParseAction(t *testing.T) {
	tests := []struct {
		name    string
		line    string
		id      string
		params  core.Params
		wantErr bool
	}{
		{"a bare id", "end_week", "end_week", nil, false},
		{"a number and a string", "plan.add activity=bake_bread count=2", "plan.add", core.Params{"activity": "bake_bread", "count": 2.0}, false},
		{"a boolean", "toggle on=true", "toggle", core.Params{"on": true}, false},
		{"a quoted number stays a string", `name value="12"`, "name", core.Params{"value": "12"}, false},
		{"quotes keep spaces", `sign text="the pier is open"`, "sign", core.Params{"text": "the pier is open"}, false},
		{"a word with no =", "plan.add bake", "", nil, true},
		{"an unclosed quote", `sign text="open`, "", nil, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			id, params, err := parseAction(tc.line)
			if (err != nil) != tc.wantErr {
				t.Fatalf("err %v, want error %v", err, tc.wantErr)
			}
			if tc.wantErr {
				return
			}
			if id != tc.id || !reflect.DeepEqual(params, tc.params) {
				t.Errorf("got %q %v, want %q %v", id, params, tc.id, tc.params)
			}
		})
	}
}
