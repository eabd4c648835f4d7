package rooms

import (
	"bytes"
	"fmt"
	"slices"
	"unicode/utf8"
)

// A checkpoint is kept as the difference from the state after it: a game
// state changes in a few of its members per transition, and a log gains a
// few entries, so sixteen whole copies of both were most of a room's
// record. Only undo, which takes back the newest checkpoint, needs one
// whole again; the state after the newest is the match's own.
//
// A compact checkpoint has Patch and Edits (the state's top-level members
// that differ from the next state's: whole, or as an Edit of the next
// state's member), with Drop naming the members the next state has and
// this one lacks, instead of State, and LogTo (the sequence
// of its log's last entry) with Log holding only the entries the next log
// no longer has: its log is those, then the next log's entries up to
// LogTo. A state that is not a JSON object, or a patch no smaller than
// the state, stays whole.

// compact returns cp as the difference from nextState and nextLog.
func compact(cp Checkpoint, nextState []byte, nextLog []LogEntry) Checkpoint {
	if patch, edits, drop, ok := diffState(cp.State, nextState); ok && len(patch) < len(cp.State) {
		cp.State, cp.Patch, cp.Edits, cp.Drop = nil, patch, edits, drop
	}
	if n := len(cp.Log); n > 0 {
		last := cp.Log[n-1].Sequence
		var kept []LogEntry
		for _, e := range cp.Log {
			if !slices.ContainsFunc(nextLog, func(x LogEntry) bool { return x.Sequence == e.Sequence }) {
				kept = append(kept, e)
			}
		}
		cp.Log, cp.LogTo = kept, last
	}
	return cp
}

// expand returns cp whole, given the state and log after it.
func expand(cp Checkpoint, nextState []byte, nextLog []LogEntry) (Checkpoint, error) {
	if cp.Patch != nil {
		st, err := patchState(nextState, cp.Patch, cp.Edits, cp.Drop)
		if err != nil {
			return cp, err
		}
		cp.State, cp.Patch, cp.Edits, cp.Drop = st, nil, nil, nil
	}
	if cp.LogTo > 0 {
		log := slices.Clone(cp.Log)
		for _, e := range nextLog {
			if e.Sequence <= cp.LogTo && !slices.ContainsFunc(log, func(x LogEntry) bool { return x.Sequence == e.Sequence }) {
				log = append(log, e)
			}
		}
		slices.SortFunc(log, func(a, b LogEntry) int { return int(a.Sequence - b.Sequence) })
		cp.Log, cp.LogTo = log, 0
	}
	return cp, nil
}

// Edit rebuilds one member of a checkpoint's state from the same member
// of the next state: its first Head bytes, then Mid, then its last Tail
// bytes. A member that changed in one place (a permanent tapped, a card
// drawn) costs the bytes around the change, not the whole member.
type Edit struct {
	Key  string `json:"key"`
	Head int    `json:"head"`
	Tail int    `json:"tail"`
	Mid  string `json:"mid"`
}

// diffState returns the members of before that after lacks, or whose
// value differs from after's by more than an edit would save, as a
// canonical object; an edit for each other member that differs; and the
// keys after has that before lacks. ok is false when either is not a
// plain JSON object.
func diffState(before, after []byte) (patch []byte, edits []Edit, drop []string, ok bool) {
	bm, okB := splitMembers(before)
	am, okA := splitMembers(after)
	if !okB || !okA {
		return nil, nil, nil, false
	}
	av := make(map[string][]byte, len(am))
	for _, m := range am {
		av[m.key] = m.val
	}
	var pm []member
	for _, m := range bm {
		v, ok := av[m.key]
		delete(av, m.key)
		switch {
		case !ok:
			pm = append(pm, m)
		case !bytes.Equal(v, m.val):
			head, tail := 0, 0
			for head < len(v) && head < len(m.val) && v[head] == m.val[head] {
				head++
			}
			for tail < len(v)-head && tail < len(m.val)-head && v[len(v)-1-tail] == m.val[len(m.val)-1-tail] {
				tail++
			}
			// Mid travels as a JSON string: cut between characters.
			for head > 0 && !(runeStart(v, head) && runeStart(m.val, head)) {
				head--
			}
			for tail > 0 && !(runeStart(v, len(v)-tail) && runeStart(m.val, len(m.val)-tail)) {
				tail--
			}
			if mid := m.val[head : len(m.val)-tail]; len(mid)+32 < len(m.val) {
				edits = append(edits, Edit{Key: m.key, Head: head, Tail: tail, Mid: string(mid)})
			} else {
				pm = append(pm, m)
			}
		}
	}
	for _, m := range am {
		if _, ok := av[m.key]; ok {
			drop = append(drop, m.key)
		}
	}
	patch, err := object(pm)
	return patch, edits, drop, err == nil
}

// runeStart reports whether b[i:] starts a character (or is empty).
func runeStart(b []byte, i int) bool { return i >= len(b) || utf8.RuneStart(b[i]) }

// patchState rebuilds the state diffState described.
func patchState(after, patch []byte, edits []Edit, drop []string) ([]byte, error) {
	am, okA := splitMembers(after)
	pm, okP := splitMembers(patch)
	if !okA || !okP {
		return nil, fmt.Errorf("rooms: a checkpoint's patch does not apply")
	}
	out := make([]member, 0, len(am)+len(pm))
	for _, m := range am {
		if slices.Contains(drop, m.key) || slices.ContainsFunc(pm, func(p member) bool { return p.key == m.key }) {
			continue
		}
		if i := slices.IndexFunc(edits, func(e Edit) bool { return e.Key == m.key }); i >= 0 {
			e := edits[i]
			if e.Head < 0 || e.Tail < 0 || e.Head+e.Tail > len(m.val) {
				return nil, fmt.Errorf("rooms: a checkpoint's edit of %q does not apply", e.Key)
			}
			v := append(append(append([]byte(nil), m.val[:e.Head]...), e.Mid...), m.val[len(m.val)-e.Tail:]...)
			m = member{m.key, v}
		}
		out = append(out, m)
	}
	return object(append(out, pm...))
}
