package story

import (
	"encoding/json"
	"testing"

	"github.com/storyloom/storyloom/engine/canon"
	"github.com/storyloom/storyloom/engine/core"
)

// FuzzBuildContent: any source builds or is refused with findings, never a
// panic; what builds validates without panicking, encodes, decodes back to
// the same bytes, and, when valid, starts a game.
func FuzzBuildContent(f *testing.F) {
	f.Add([]byte(sampleSource))
	f.Add([]byte(`{"start":"a","nodes":[{"id":"a","type":"random","transitions":[{"to":"a","weight":1}]}]}`))
	f.Add([]byte(`{"start":"a","nodes":[{"id":"a","type":"ending","endingId":"e","title":"T","text":"x","outcome":"win"}]}`))
	f.Add([]byte(`{"start":"a","nodes":[]}`))
	f.Add([]byte(`{`))
	f.Fuzz(func(t *testing.T, src []byte) {
		k := Kind{}
		c, lifted, errs := k.BuildContent(src, "fuzz")
		if len(errs) > 0 {
			if c != nil {
				t.Fatal("content with errors")
			}
			return
		}
		strs := map[core.LocKey]string{}
		for _, a := range lifted {
			strs[a.Key] = a.Text
		}
		camp := &core.Campaign{ID: "fuzz", KindID: KindID, Version: "1", TitleKey: "fuzz.title", Content: c}
		res := k.ValidateCampaign(camp, strs)
		b, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		back, err := k.DecodeContent(b)
		if err != nil {
			t.Fatalf("built content does not decode: %v\n%s", err, b)
		}
		if b2, _ := json.Marshal(back); string(b2) != string(b) {
			t.Fatalf("round trip:\n%s\n%s", b, b2)
		}
		if !res.OK {
			return
		}
		reg := &core.Registry{Order: []string{"fuzz"}, Campaigns: map[string]*core.Campaign{"fuzz": camp}, Strings: strs}
		e, err := core.New(core.Host{Kinds: []core.Kind{k}, Registry: reg})
		if err != nil {
			t.Fatal(err)
		}
		s := e.CreateGame(core.NewGameConfig{CampaignID: "fuzz", Seed: "f"}, "").Value
		for i := 0; i < 8 && s.Status == core.StatusActive; i++ {
			acts, _ := e.AvailableActions(s)
			if len(acts) == 0 {
				break
			}
			if r := e.SubmitAction(s, acts[i%len(acts)].ID, nil); r.OK {
				s = r.Value
			}
		}
		if _, err := e.Scene(s); err != nil {
			t.Fatal(err)
		}
		bs, err := e.Serialize(s)
		if err != nil {
			t.Fatal(err)
		}
		if back := e.Deserialize(bs); !back.OK {
			t.Fatalf("own state refused: %v", back.Errors)
		}
	})
}

// FuzzDecodeContent: arbitrary runtime content decodes or is refused, and
// what decodes validates and explores without panicking.
func FuzzDecodeContent(f *testing.F) {
	c, _, _ := Kind{}.BuildContent(json.RawMessage(sampleSource), "sample")
	b, _ := json.Marshal(c)
	f.Add(b)
	f.Add([]byte(`{"start":"x","nodes":[{"id":"x","type":"choice","choices":[{"id":"c","labelKey":"a.b","to":"nowhere"}]}]}`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		v, err := Kind{}.DecodeContent(raw)
		if err != nil {
			return
		}
		camp := &core.Campaign{ID: "fuzz", KindID: KindID, Version: "1", Content: v}
		Kind{}.ValidateCampaign(camp, nil)
		sp := Kind{}.StateSpace(camp)
		for _, st := range sp.Start() {
			sp.Key(st)
			sp.Moves(st)
		}
	})
}

// FuzzDecodeState: arbitrary kind states are refused or decode to a state
// that re-encodes and decodes to the same bytes.
func FuzzDecodeState(f *testing.F) {
	f.Add([]byte(`{"currentNodeId":"gate","turn":0,"unlockedAchievements":[],"variables":{"has_key":false,"mood":"calm","noise":0,"oil":3},"visitedCounts":{"gate":1}}`))
	f.Add([]byte(`{"currentNodeId":"home","endingId":"home","turn":1,"unlockedAchievements":["locksmith"],"variables":{"has_key":true,"mood":"x","noise":-4,"oil":0},"visitedCounts":{}}`))
	reg := sampleRegistry(f)
	camp := reg.Campaigns["sample"]
	f.Fuzz(func(t *testing.T, raw []byte) {
		st, err := Kind{}.DecodeState(raw, camp)
		if err != nil {
			return
		}
		b, err := canon.Marshal(st)
		if err != nil {
			t.Fatal(err)
		}
		if c, err := canon.Canonicalize(b); err != nil || string(c) != string(b) {
			t.Fatalf("the state writes a form that is not canonical (%v):\n%s\n%s", err, b, c)
		}
		checkViewCanonical(t, st.(*State))
		st2, err := Kind{}.DecodeState(b, camp)
		if err != nil {
			t.Fatalf("re-decode: %v\n%s", err, b)
		}
		if b2, _ := json.Marshal(st2); string(b2) != string(b) {
			t.Fatalf("round trip:\n%s\n%s", b, b2)
		}
	})
}

// FuzzSubmitAction: any action id and params through the engine are
// accepted or refused with a reason, never a panic, and a refusal leaves
// the state's bytes unchanged.
func FuzzSubmitAction(f *testing.F) {
	f.Add("search", []byte(`null`))
	f.Add("fill", []byte(`{}`))
	f.Add("open", []byte(`{"x":1}`))
	f.Add("", []byte(`{"a":"b","c":true}`))
	f.Add("climb", []byte(`{"n":1e308}`))
	reg := sampleRegistry(f)
	e := newEngine(f, reg, nil)
	start := mustCreate(f, e, "sample", "fuzz")
	mid := mustSubmit(f, e, start, "search")
	f.Fuzz(func(t *testing.T, action string, rawParams []byte) {
		var p core.Params
		if json.Unmarshal(rawParams, &p) != nil {
			p = nil
		}
		for _, s := range []*core.GameState{start, mid} {
			before := serialize(t, e, s)
			res := e.SubmitAction(s, action, p)
			if !res.OK {
				if len(res.Errors) == 0 || res.Errors[0].Code == "" {
					t.Fatal("refusal without a reason")
				}
				if after := serialize(t, e, s); string(after) != string(before) {
					t.Fatal("refusal changed the state")
				}
				continue
			}
			if len(p) > 0 {
				t.Fatalf("accepted params %v", p)
			}
		}
	})
}
