package cheat

import (
	"strconv"
	"unicode/utf8"

	"github.com/storyloom/storyloom/engine/canon"
)

// Direct canonical encoders for View and the game state: the exact bytes
// canon.Marshal gives for them (keys in canonical order, omitempty as
// encoding/json applies it, nil slices as null), without encoding/json and
// a re-parse. TestEncoders compares them with canon.Marshal over whole
// games.

func appendStr(b []byte, s string) []byte {
	if utf8.ValidString(s) {
		return canon.AppendString(b, s)
	}
	enc, err := canon.Marshal(s)
	if err != nil {
		return canon.AppendString(b, s)
	}
	return append(b, enc...)
}

func appendStrs(b []byte, list []string) []byte {
	if list == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, s := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendStr(b, s)
	}
	return append(b, ']')
}

func appendInt(b []byte, n int) []byte {
	if n > -(1<<53) && n < 1<<53 {
		return strconv.AppendInt(b, int64(n), 10)
	}
	return canon.AppendNumber(b, float64(n))
}

func appendBool(b []byte, v bool) []byte {
	if v {
		return append(b, "true"...)
	}
	return append(b, "false"...)
}

func appendCards(b []byte, cs []CardView) []byte {
	if cs == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, c := range cs {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"id":`...)
		b = appendStr(b, c.ID)
		b = append(b, `,"name":`...)
		b = appendStr(b, c.Name)
		b = append(b, `,"rank":`...)
		b = appendStr(b, c.Rank)
		b = append(b, `,"suit":`...)
		b = appendStr(b, c.Suit)
		b = append(b, '}')
	}
	return append(b, ']')
}

// AppendCanonical appends the view's canonical JSON object, exactly as
// canon.Marshal encodes it (rooms.CanonicalView).
func (v View) AppendCanonical(b []byte) []byte {
	b = append(b, `{"active_player":`...)
	b = appendStr(b, v.ActivePlayer)
	if c := v.Claim; c != nil {
		b = append(b, `,"claim":{"count":`...)
		b = appendInt(b, c.Count)
		if len(c.Passed) > 0 {
			b = append(b, `,"passed":`...)
			b = appendStrs(b, c.Passed)
		}
		b = append(b, `,"player":`...)
		b = appendStr(b, c.Player)
		b = append(b, `,"rank":`...)
		b = appendStr(b, c.Rank)
		b = append(b, '}')
	}
	b = append(b, `,"game":`...)
	b = appendStr(b, v.Game)
	if lc := v.LastCall; lc != nil {
		b = append(b, `,"last_call":{"caller":`...)
		b = appendStr(b, lc.Caller)
		b = append(b, `,"cards":`...)
		b = appendCards(b, lc.Cards)
		b = append(b, `,"picked_up_by":`...)
		b = appendStr(b, lc.PickedUpBy)
		b = append(b, `,"pile_size":`...)
		b = appendInt(b, lc.PileSize)
		b = append(b, `,"play":`...)
		b = appendInt(b, lc.Play)
		b = append(b, `,"player":`...)
		b = appendStr(b, lc.Player)
		b = append(b, `,"rank":`...)
		b = appendStr(b, lc.Rank)
		b = append(b, `,"truthful":`...)
		b = appendBool(b, lc.Truthful)
		b = append(b, '}')
	}
	if len(v.MyHand) > 0 {
		b = append(b, `,"my_hand":`...)
		b = appendCards(b, v.MyHand)
	}
	b = append(b, `,"phase":`...)
	b = appendStr(b, v.Phase)
	b = append(b, `,"pile_size":`...)
	b = appendInt(b, v.PileSize)
	b = append(b, `,"play":`...)
	b = appendInt(b, v.Play)
	b = append(b, `,"players":`...)
	if v.Players == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, p := range v.Players {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"hand_size":`...)
			b = appendInt(b, p.HandSize)
			b = append(b, `,"player_id":`...)
			b = appendStr(b, p.PlayerID)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = append(b, `,"rank":`...)
	b = appendStr(b, v.Rank)
	return append(b, '}')
}

// appendCanonical appends the state's canonical encoding.
func (st *state) appendCanonical(b []byte) []byte {
	b = append(b, `{"count":`...)
	b = appendInt(b, st.Count)
	b = append(b, `,"hands":`...)
	if st.Hands == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, h := range st.Hands {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendStrs(b, h)
		}
		b = append(b, ']')
	}
	if lc := st.LastCall; lc != nil {
		b = append(b, `,"last_call":{"caller":`...)
		b = appendInt(b, lc.Caller)
		b = append(b, `,"cards":`...)
		b = appendStrs(b, lc.Cards)
		b = append(b, `,"claimer":`...)
		b = appendInt(b, lc.Claimer)
		b = append(b, `,"loser":`...)
		b = appendInt(b, lc.Loser)
		b = append(b, `,"pile_size":`...)
		b = appendInt(b, lc.PileSize)
		b = append(b, `,"play":`...)
		b = appendInt(b, lc.Play)
		b = append(b, `,"rank":`...)
		b = appendInt(b, lc.Rank)
		b = append(b, `,"truthful":`...)
		b = appendBool(b, lc.Truthful)
		b = append(b, '}')
	}
	if len(st.Passed) > 0 {
		b = append(b, `,"passed":[`...)
		for i, p := range st.Passed {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendBool(b, p)
		}
		b = append(b, ']')
	}
	b = append(b, `,"phase":`...)
	b = appendStr(b, st.Phase)
	b = append(b, `,"pile":`...)
	b = appendStrs(b, st.Pile)
	b = append(b, `,"play":`...)
	b = appendInt(b, st.Play)
	b = append(b, `,"rank":`...)
	b = appendInt(b, st.Rank)
	b = append(b, `,"turn":`...)
	b = appendInt(b, st.Turn)
	b = append(b, `,"winner":`...)
	b = appendInt(b, st.Winner)
	return append(b, '}')
}
