package story

import (
	"encoding/json"
	"unicode/utf8"
)

// canonicalWire reads raw as the wire form exactly as AppendCanonical
// writes it: its keys in that order, no space, strings without escapes,
// integers in plain digits. ok is false for anything else, which the
// strict decoder then reads (and refuses or accepts as it always has);
// what this reads, it reads as the strict decoder would. A restore reads
// the state its save carries, which the engine wrote: this spares it the
// generic decoder's cost, most of a restore's once the log is not decoded.
func canonicalWire(raw []byte) (w stateJSON, ok bool) {
	p := wireScanner{b: raw}
	if !p.lit(`{"currentNodeId":`) {
		return w, false
	}
	cur, ok := p.str()
	if !ok {
		return w, false
	}
	w.CurrentNodeID = &cur
	if p.lit(`,"endingId":`) {
		e, ok := p.str()
		if !ok {
			return w, false
		}
		w.EndingID = &e
	}
	if !p.lit(`,"turn":`) {
		return w, false
	}
	turn, ok := p.int()
	if !ok || !p.lit(`,"unlockedAchievements":[`) {
		return w, false
	}
	w.Turn = &turn
	w.UnlockedAchievements = []string{}
	for first := true; !p.lit("]"); first = false {
		if !first && !p.lit(",") {
			return w, false
		}
		id, ok := p.str()
		if !ok {
			return w, false
		}
		w.UnlockedAchievements = append(w.UnlockedAchievements, id)
	}
	if !p.lit(`,"variables":{`) {
		return w, false
	}
	w.Variables = map[string]json.RawMessage{}
	for first := true; !p.lit("}"); first = false {
		id, ok := p.key(first)
		if _, dup := w.Variables[id]; dup || !ok {
			return w, false
		}
		start := p.i
		switch {
		case p.lit("true"), p.lit("false"):
		default:
			if _, ok := p.str(); !ok {
				if _, ok := p.int(); !ok {
					return w, false
				}
			}
		}
		w.Variables[id] = json.RawMessage(raw[start:p.i:p.i])
	}
	if !p.lit(`,"visitedCounts":{`) {
		return w, false
	}
	w.VisitedCounts = map[string]int64{}
	for first := true; !p.lit("}"); first = false {
		id, ok := p.key(first)
		if !ok {
			return w, false
		}
		n, ok := p.int()
		if _, dup := w.VisitedCounts[id]; dup || !ok {
			return w, false
		}
		w.VisitedCounts[id] = n
	}
	if !p.lit("}") || p.i != len(raw) {
		return w, false
	}
	return w, true
}

// wireScanner reads the canonical wire form.
type wireScanner struct {
	b []byte
	i int
}

// lit consumes s when the input continues with it.
func (p *wireScanner) lit(s string) bool {
	if len(p.b)-p.i < len(s) || string(p.b[p.i:p.i+len(s)]) != s {
		return false
	}
	p.i += len(s)
	return true
}

// key reads a member's key and its colon, after a comma unless first.
func (p *wireScanner) key(first bool) (string, bool) {
	if !first && !p.lit(",") {
		return "", false
	}
	id, ok := p.str()
	return id, ok && p.lit(":")
}

// str reads a string of valid UTF-8 with no escape and no control
// character (anything else is left to the strict decoder).
func (p *wireScanner) str() (string, bool) {
	if p.i >= len(p.b) || p.b[p.i] != '"' {
		return "", false
	}
	for j := p.i + 1; j < len(p.b); j++ {
		switch c := p.b[j]; {
		case c == '"':
			s := p.b[p.i+1 : j]
			if !utf8.Valid(s) {
				return "", false
			}
			p.i = j + 1
			return string(s), true
		case c == '\\' || c < 0x20:
			return "", false
		}
	}
	return "", false
}

// int reads an integer in plain digits, 0 or without a leading zero, of
// at most 15 digits (within ±(2^53-1)).
func (p *wireScanner) int() (int64, bool) {
	j := p.i
	neg := j < len(p.b) && p.b[j] == '-'
	if neg {
		j++
	}
	start := j
	var n int64
	for ; j < len(p.b) && p.b[j] >= '0' && p.b[j] <= '9'; j++ {
		n = n*10 + int64(p.b[j]-'0')
	}
	digits := j - start
	if digits == 0 || digits > 15 || (digits > 1 && p.b[start] == '0') || (neg && n == 0) {
		return 0, false
	}
	if j < len(p.b) && (p.b[j] == '.' || p.b[j] == 'e' || p.b[j] == 'E') {
		return 0, false
	}
	p.i = j
	if neg {
		n = -n
	}
	return n, true
}
