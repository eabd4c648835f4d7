package cheat

import (
	"strconv"

	"github.com/storyloom/storyloom/engine/rooms"
)

// Direct canonical encoders for View and the game state: the exact bytes
// canon.Marshal gives for them (keys in canonical order, omitempty as
// encoding/json applies it, nil slices as null), without encoding/json and
// a re-parse; package rooms' Append functions write the values.
// TestEncoders compares them with canon.Marshal over whole games.

func appendCard(b []byte, c CardView) []byte {
	b = append(b, `{"id":`...)
	b = rooms.AppendString(b, c.ID)
	b = append(b, `,"name":`...)
	b = rooms.AppendString(b, c.Name)
	b = append(b, `,"rank":`...)
	b = rooms.AppendString(b, c.Rank)
	b = append(b, `,"suit":`...)
	b = rooms.AppendString(b, c.Suit)
	return append(b, '}')
}

// AppendCanonical appends the view's canonical JSON object, exactly as
// canon.Marshal encodes it (rooms.CanonicalView).
func (v View) AppendCanonical(b []byte) []byte {
	b = append(b, `{"active_player":`...)
	b = rooms.AppendString(b, v.ActivePlayer)
	if c := v.Claim; c != nil {
		b = append(b, `,"claim":{"count":`...)
		b = rooms.AppendInt(b, c.Count)
		if len(c.Passed) > 0 {
			b = append(b, `,"passed":`...)
			b = rooms.AppendStrings(b, c.Passed)
		}
		b = append(b, `,"player":`...)
		b = rooms.AppendString(b, c.Player)
		b = append(b, `,"rank":`...)
		b = rooms.AppendString(b, c.Rank)
		b = append(b, '}')
	}
	b = append(b, `,"game":`...)
	b = rooms.AppendString(b, v.Game)
	if lc := v.LastCall; lc != nil {
		b = append(b, `,"last_call":{"caller":`...)
		b = rooms.AppendString(b, lc.Caller)
		b = append(b, `,"cards":`...)
		b = rooms.AppendList(b, lc.Cards, appendCard)
		b = append(b, `,"picked_up_by":`...)
		b = rooms.AppendString(b, lc.PickedUpBy)
		b = append(b, `,"pile_size":`...)
		b = rooms.AppendInt(b, lc.PileSize)
		b = append(b, `,"play":`...)
		b = rooms.AppendInt(b, lc.Play)
		b = append(b, `,"player":`...)
		b = rooms.AppendString(b, lc.Player)
		b = append(b, `,"rank":`...)
		b = rooms.AppendString(b, lc.Rank)
		b = append(b, `,"truthful":`...)
		b = strconv.AppendBool(b, lc.Truthful)
		b = append(b, '}')
	}
	if len(v.MyHand) > 0 {
		b = append(b, `,"my_hand":`...)
		b = rooms.AppendList(b, v.MyHand, appendCard)
	}
	b = append(b, `,"phase":`...)
	b = rooms.AppendString(b, v.Phase)
	b = append(b, `,"pile_size":`...)
	b = rooms.AppendInt(b, v.PileSize)
	b = append(b, `,"play":`...)
	b = rooms.AppendInt(b, v.Play)
	b = append(b, `,"players":`...)
	b = rooms.AppendList(b, v.Players, func(b []byte, p PlayerView) []byte {
		b = append(b, `{"hand_size":`...)
		b = rooms.AppendInt(b, p.HandSize)
		b = append(b, `,"player_id":`...)
		b = rooms.AppendString(b, p.PlayerID)
		return append(b, '}')
	})
	b = append(b, `,"rank":`...)
	b = rooms.AppendString(b, v.Rank)
	return append(b, '}')
}

// appendCanonical appends the state's canonical encoding.
func (st *state) appendCanonical(b []byte) []byte {
	b = append(b, `{"count":`...)
	b = rooms.AppendInt(b, st.Count)
	b = append(b, `,"hands":`...)
	b = rooms.AppendList(b, st.Hands, rooms.AppendStrings)
	if lc := st.LastCall; lc != nil {
		b = append(b, `,"last_call":{"caller":`...)
		b = rooms.AppendInt(b, lc.Caller)
		b = append(b, `,"cards":`...)
		b = rooms.AppendStrings(b, lc.Cards)
		b = append(b, `,"claimer":`...)
		b = rooms.AppendInt(b, lc.Claimer)
		b = append(b, `,"loser":`...)
		b = rooms.AppendInt(b, lc.Loser)
		b = append(b, `,"pile_size":`...)
		b = rooms.AppendInt(b, lc.PileSize)
		b = append(b, `,"play":`...)
		b = rooms.AppendInt(b, lc.Play)
		b = append(b, `,"rank":`...)
		b = rooms.AppendInt(b, lc.Rank)
		b = append(b, `,"truthful":`...)
		b = strconv.AppendBool(b, lc.Truthful)
		b = append(b, '}')
	}
	if len(st.Passed) > 0 {
		b = append(b, `,"passed":`...)
		b = rooms.AppendList(b, st.Passed, strconv.AppendBool)
	}
	b = append(b, `,"phase":`...)
	b = rooms.AppendString(b, st.Phase)
	b = append(b, `,"pile":`...)
	b = rooms.AppendStrings(b, st.Pile)
	b = append(b, `,"play":`...)
	b = rooms.AppendInt(b, st.Play)
	b = append(b, `,"rank":`...)
	b = rooms.AppendInt(b, st.Rank)
	b = append(b, `,"turn":`...)
	b = rooms.AppendInt(b, st.Turn)
	b = append(b, `,"winner":`...)
	b = rooms.AppendInt(b, st.Winner)
	return append(b, '}')
}
