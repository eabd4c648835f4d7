package main

import (
	"context"
	"fmt"
	"strconv"

	"github.com/storyloom/storyloom/engine/content"
	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/kinds/story"
	"github.com/storyloom/storyloom/engine/session"
)

// mulberry32 is bundle/bench/peer.mjs's choice policy PRNG, bit for bit.
type mulberry32 uint32

// next returns the next draw in [0, 1).
func (m *mulberry32) next() float64 {
	*m += 0x6d2b79f5
	t := uint32(*m)
	t = (t ^ t>>15) * (t | 1)
	t ^= t + (t^t>>7)*(t|61)
	return float64(t^t>>14) / 4294967296
}

// playedSave plays the campaign natively through the session store with
// bundle/bench/peer.mjs's policy (a mulberry32 seeded with seed picks uniformly
// among the available choices) for the given number of choices, from a
// game seeded "seed-<seed>" as the script seeds its own, and returns the
// save document ExportSave writes. It is the same engine the WASM module
// runs, so the game is the one the module would have played; the script
// imports it to time save and restore after many choices without first
// playing them through the bridge.
func playedSave(campaign []byte, choices int, seed uint32) ([]byte, error) {
	ctx := context.Background()
	reg, res := content.Build([]core.Kind{story.Kind{}}, content.Source{Path: "campaign.json", Campaign: campaign})
	if reg == nil {
		return nil, fmt.Errorf("the campaign does not build: %v", res.Errors)
	}
	eng, err := core.New(core.Host{Kinds: []core.Kind{story.Kind{}}, Registry: reg, IDs: &core.CountingIDs{}})
	if err != nil {
		return nil, err
	}
	clock := 0
	st, err := session.New(session.Config{Engine: eng, Records: session.NewMemoryRecords(), Profiles: session.NewMemoryProfiles(),
		Clock: session.ClockFunc(func() string {
			clock++
			return "2026-01-01T00:00:00." + fmt.Sprintf("%09d", clock) + "Z"
		}), IDs: &session.CountingRecordIDs{}})
	if err != nil {
		return nil, err
	}
	h, err := st.CreateSession(ctx, session.CreateSessionConfig{CampaignID: campaignID, Seed: "seed-" + strconv.FormatUint(uint64(seed), 10), ProfileID: "local"})
	if err != nil {
		return nil, err
	}
	rnd := mulberry32(seed)
	scene := h.Scene
	for i := 0; i < choices; i++ {
		var avail []string
		for _, a := range scene.Actions {
			if a.Available {
				avail = append(avail, a.ID)
			}
		}
		if len(avail) == 0 {
			return nil, fmt.Errorf("no choice after %d choices", i)
		}
		r, err := st.SubmitAction(ctx, h.SessionID, avail[int(rnd.next()*float64(len(avail)))], nil)
		if err != nil || !r.OK {
			return nil, fmt.Errorf("choice %d: %v %v", i, err, r.Errors)
		}
		scene = *r.Scene
	}
	sh, err := st.SaveGame(ctx, h.SessionID)
	if err != nil {
		return nil, err
	}
	return st.ExportSave(ctx, "local", sh.SaveID)
}
