package hosting_test

import (
	"encoding/json"
	"testing"

	"github.com/storyloom/storyloom/bundle/hosting"
	"github.com/storyloom/storyloom/bundle/internal/roomsclient"
	"github.com/storyloom/storyloom/engine/cards/deck"
	"github.com/storyloom/storyloom/engine/rooms"
)

// TestPilotSeatPlaysThroughRooms seats a pilot AI beside a human who only
// ever passes, keeps and declares nothing, in a starter duel on the
// hosts' registry: the room machine's settle plays the AI's turns through
// engine/cards/ai, and the pilot wins on damage.
func TestPilotSeatPlaysThroughRooms(t *testing.T) {
	reg, err := hosting.Games()
	if err != nil {
		t.Fatal(err)
	}
	decks := roomsclient.Precons(t, deck.StarterDuel)
	s := rooms.New(reg, rooms.Limits{})
	ids := &rooms.DerivedIDs{Secret: "pilot-seat"}
	now := int64(1_000_000)
	var view json.RawMessage
	feed := func(out []rooms.Outbound, _ rooms.Changes) {
		for _, o := range out {
			if o.Kind == rooms.KindGame && o.Conn == "a" {
				view = o.Frame
			}
		}
	}
	send := func(c rooms.Command) {
		b, err := rooms.EncodeCommand(c)
		if err != nil {
			t.Fatal(err)
		}
		now += 50
		feed(s.Receive("a", b, now, ids))
	}
	feed(s.Connect("a", now, ids))
	send(rooms.CreateRoom{Config: rooms.RoomConfig{Seats: 2, GameSetup: deck.StarterDuel}})
	send(rooms.AddAI{Seat: 1, Kind: "pilot", Cards: decks[0].Cards})
	send(rooms.SubmitDeck{Cards: decks[1].Cards})
	send(rooms.Ready{Ready: true})
	var result *rooms.Result
	for step := 0; step < 500 && result == nil; step++ {
		var v struct {
			ValidActions []rooms.Action `json:"valid_actions"`
			Result       *rooms.Result  `json:"result"`
		}
		if err := json.Unmarshal(view, &v); err != nil {
			t.Fatalf("step %d: view: %v", step, err)
		}
		if result = v.Result; result != nil {
			break
		}
		if len(v.ValidActions) == 0 {
			t.Fatalf("step %d: the human is asked nothing and the game is not over", step)
		}
		a, answer := passive(v.ValidActions)
		send(rooms.ChooseAction{ActionID: a.ID, Token: a.Token, Targets: answer})
	}
	if result == nil {
		t.Fatal("the game did not end")
	}
	if result.Winner != "p1" || result.Reason != "life_zero" {
		t.Fatalf("result %+v, want the pilot (p1) to win on damage", *result)
	}
}

// passive is a human who does nothing: pass, keep, declare no attackers or
// blockers, and the fewest answers anything else needs.
func passive(acts []rooms.Action) (rooms.Action, []rooms.TargetChoice) {
	for _, a := range acts {
		switch a.Type {
		case "pass_priority", "declare_attackers", "declare_blockers":
			return a, nil
		case "mulligan_decision":
			return a, []rooms.TargetChoice{{Slot: "decision", Chosen: []string{"keep"}}}
		}
	}
	for _, a := range acts {
		if a.Type == "concede" || a.Type == "cast_spell" || a.Type == "play_land" || a.Type == "activate_ability" {
			continue
		}
		var out []rooms.TargetChoice
		for _, r := range a.Requirements {
			if !r.Optional && len(r.Candidates) > 0 {
				out = append(out, rooms.TargetChoice{Slot: r.Slot, Chosen: r.Candidates[:1]})
			}
		}
		for _, p := range a.Prompts {
			switch p.Kind {
			case rooms.PromptOption:
				pick := p.Options[0].ID
				for _, o := range p.Options {
					if o.ID == "decline" {
						pick = o.ID
					}
				}
				out = append(out, rooms.TargetChoice{Slot: p.Slot, Chosen: []string{pick}})
			case rooms.PromptOrder:
				out = append(out, rooms.TargetChoice{Slot: p.Slot, Chosen: p.Items})
			case rooms.PromptSelectFromZone:
				lo := p.Least()
				if lo > 0 {
					out = append(out, rooms.TargetChoice{Slot: p.Slot, Chosen: p.Candidates[:lo]})
				}
			}
		}
		return a, out
	}
	return acts[0], nil
}
