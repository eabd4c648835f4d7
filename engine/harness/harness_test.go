package harness_test

import (
	"strings"
	"testing"

	"github.com/storyloom/storyloom/engine/content"
	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/harness"
	"github.com/storyloom/storyloom/engine/internal/testkind"
)

func engines(t *testing.T) harness.NewEngine {
	kinds := []core.Kind{testkind.Kind{}}
	reg, res := content.Build(kinds, content.Source{Campaign: testkind.Campaign("tally", "1.0.0", 6)})
	if !res.OK {
		t.Fatal(res.Errors)
	}
	return func(em core.Emitter) *core.Engine {
		e, err := core.New(core.Host{Kinds: kinds, Registry: reg, Emitter: em})
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
}

func TestVerifyReproducesAPlayedGame(t *testing.T) {
	newEngine := engines(t)
	e := newEngine(nil)
	s := e.CreateGame(core.NewGameConfig{CampaignID: "tally", Seed: "h"}, "").Value
	for _, a := range []string{"roll", "roll", "inc", "roll", "roll"} {
		if r := e.SubmitAction(s, a, nil); r.OK {
			s = r.Value
		}
	}
	want, _ := e.Serialize(s)
	run, err := harness.Verify(newEngine, harness.FromState("played", s, nil))
	if err != nil {
		t.Fatal(err)
	}
	if string(run.Serialized) != string(want) {
		t.Fatalf("replay differs:\n%s\n%s", run.Serialized, want)
	}
	if len(run.Events) == 0 || run.Events[0].Name != "core.game.created" {
		t.Fatalf("events = %+v", run.Events)
	}
	// Reconstruction under another game id is observably different (§7.4).
	other := newEngine(nil)
	other.CreateGame(core.NewGameConfig{CampaignID: "tally"}, "") // consumes game-1
	f := harness.FromState("played", s, nil)
	again := other.CreateGame(f.Config, "").Value
	if again.GameID == s.GameID {
		t.Fatal("a second game on one engine reused the game id")
	}
}

func TestVerifyRefusesBrokenFixtures(t *testing.T) {
	newEngine := engines(t)
	tests := []struct {
		name string
		log  core.Log
		want string
	}{
		{"rejected action", core.NewLog(core.LoggedAction{Seq: 0, ActionID: "finish"}), "rejected"},
		{"migration entry", core.NewLog(core.LoggedMigration{Seq: 0, From: "0.9.0", To: "1.0.0"}), "migration"},
		{"adoption from another version", core.NewLog(core.LoggedAction{Seq: 0, ActionID: "inc"}, core.LoggedContent{Seq: 1, From: "0.5.0", To: "1.0.0"}), "create"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := harness.Verify(newEngine, harness.Fixture{Name: tt.name, Config: core.NewGameConfig{CampaignID: "tally", Seed: "x"}, ActionLog: tt.log})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want it to mention %q", err, tt.want)
			}
		})
	}
}
