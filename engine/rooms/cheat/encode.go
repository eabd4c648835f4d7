package cheat

import (
	"github.com/storyloom/storyloom/engine/canon"
)

// Direct canonical encoders for View and the game state: the exact bytes
// canon.Marshal's encoding/json route gives for them (keys in canonical
// order, omitempty as encoding/json applies it, nil slices as null),
// written with package canon's writers. TestEncoders compares them with
// encoding/json over whole games.

func appendCard(b []byte, c *CardView) []byte {
	o := canon.OpenObject(b)
	o.String("id", c.ID)
	o.String("name", c.Name)
	o.String("rank", c.Rank)
	o.String("suit", c.Suit)
	return o.Close()
}

// AppendCanonical appends the view's canonical JSON object (canon.Appender).
func (v View) AppendCanonical(b []byte) ([]byte, error) {
	o := canon.OpenObject(b)
	o.String("active_player", v.ActivePlayer)
	if c := v.Claim; c != nil {
		o.Key("claim")
		co := canon.OpenObject(o.B)
		co.Int("count", int64(c.Count))
		co.OptStrings("passed", c.Passed)
		co.String("player", c.Player)
		co.String("rank", c.Rank)
		o.B = co.Close()
	}
	o.String("game", v.Game)
	if lc := v.LastCall; lc != nil {
		o.Key("last_call")
		lo := canon.OpenObject(o.B)
		lo.String("caller", lc.Caller)
		canon.List(&lo, "cards", lc.Cards, appendCard)
		lo.String("picked_up_by", lc.PickedUpBy)
		lo.Int("pile_size", int64(lc.PileSize))
		lo.Int("play", int64(lc.Play))
		lo.String("player", lc.Player)
		lo.String("rank", lc.Rank)
		lo.Bool("truthful", lc.Truthful)
		o.B = lo.Close()
	}
	canon.OptList(&o, "my_hand", v.MyHand, appendCard)
	o.String("phase", v.Phase)
	o.Int("pile_size", int64(v.PileSize))
	o.Int("play", int64(v.Play))
	o.Key("players")
	o.B = canon.AppendList(o.B, v.Players, func(b []byte, p *PlayerView) []byte {
		po := canon.OpenObject(b)
		po.Int("hand_size", int64(p.HandSize))
		po.String("player_id", p.PlayerID)
		return po.Close()
	})
	o.String("rank", v.Rank)
	return o.Close(), nil
}

// AppendCanonical appends the state's canonical encoding (canon.Appender).
func (st *state) AppendCanonical(b []byte) ([]byte, error) {
	o := canon.OpenObject(b)
	o.Int("count", int64(st.Count))
	o.Key("hands")
	o.B = canon.AppendList(o.B, st.Hands, func(b []byte, h *[]string) []byte { return canon.AppendStrings(b, *h) })
	if lc := st.LastCall; lc != nil {
		o.Key("last_call")
		lo := canon.OpenObject(o.B)
		lo.Int("caller", int64(lc.Caller))
		lo.Strings("cards", lc.Cards)
		lo.Int("claimer", int64(lc.Claimer))
		lo.Int("loser", int64(lc.Loser))
		lo.Int("pile_size", int64(lc.PileSize))
		lo.Int("play", int64(lc.Play))
		lo.Int("rank", int64(lc.Rank))
		lo.Bool("truthful", lc.Truthful)
		o.B = lo.Close()
	}
	if len(st.Passed) > 0 {
		o.Key("passed")
		o.B = canon.AppendList(o.B, st.Passed, func(b []byte, p *bool) []byte { return canon.AppendBool(b, *p) })
	}
	o.String("phase", st.Phase)
	o.Strings("pile", st.Pile)
	o.Int("play", int64(st.Play))
	o.Int("rank", int64(st.Rank))
	o.Int("turn", int64(st.Turn))
	o.Int("winner", int64(st.Winner))
	return o.Close(), nil
}
