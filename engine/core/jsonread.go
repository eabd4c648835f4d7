package core

import (
	"encoding/json"
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/storyloom/storyloom/engine/canon"
)

// reader is a small strict JSON reader for the two documents the engine
// reads on every load: the envelope and its action log. It accepts exactly
// RFC 8259 JSON and decodes without reflection; anything it does not expect
// is an error, never a guess.
type reader struct {
	b []byte
	i int
	// names holds the action ids read so far: a log repeats a handful of
	// them thousands of times, and each is allocated once.
	names map[string]string
}

func (r *reader) errorf(format string, args ...any) error {
	return fmt.Errorf("offset %d: %s", r.i, fmt.Sprintf(format, args...))
}

func (r *reader) ws() { r.i = canon.SkipSpace(r.b, r.i) }

// peek returns the next non-space byte, or 0 at the end.
func (r *reader) peek() byte {
	r.ws()
	if r.i >= len(r.b) {
		return 0
	}
	return r.b[r.i]
}

func (r *reader) expect(c byte) error {
	if r.peek() != c {
		return r.errorf("expected %q", c)
	}
	r.i++
	return nil
}

// members iterates over the object at the cursor: it returns each key in
// turn, with the cursor on its value, which the caller must consume before
// the next call; done is true after the closing brace. The caller refuses
// repeated keys.
func (r *reader) members(first bool) (key string, done bool, err error) {
	if first {
		if err := r.expect('{'); err != nil {
			return "", false, err
		}
		if r.peek() == '}' {
			r.i++
			return "", true, nil
		}
	} else {
		switch r.peek() {
		case ',':
			r.i++
		case '}':
			r.i++
			return "", true, nil
		default:
			return "", false, r.errorf("expected ',' or '}'")
		}
	}
	if key, err = r.str(); err != nil {
		return "", false, err
	}
	return key, false, r.expect(':')
}

// object calls member for every key of the object at the cursor, refusing a
// repeated key; member must consume the value.
func (r *reader) object(member func(key string) error) error {
	var seen []string
	for first := true; ; first = false {
		key, done, err := r.members(first)
		if err != nil || done {
			return err
		}
		for _, k := range seen {
			if k == key {
				return r.errorf("duplicate key %q", key)
			}
		}
		seen = append(seen, key)
		if err := member(key); err != nil {
			return err
		}
	}
}

// array calls elem for every element of the array at the cursor.
func (r *reader) array(elem func() error) error {
	if err := r.expect('['); err != nil {
		return err
	}
	if r.peek() == ']' {
		r.i++
		return nil
	}
	for {
		if err := elem(); err != nil {
			return err
		}
		switch r.peek() {
		case ',':
			r.i++
		case ']':
			r.i++
			return nil
		default:
			return r.errorf("expected ',' or ']'")
		}
	}
}

// str reads a string. Strings without escapes are sliced directly; the rare
// escaped one is decoded by encoding/json.
func (r *reader) str() (string, error) {
	if r.peek() != '"' {
		return "", r.errorf("expected a string")
	}
	start := r.i
	r.i++
	escaped := false
	for r.i < len(r.b) {
		c := r.b[r.i]
		switch {
		case c == '"':
			r.i++
			raw := r.b[start:r.i]
			if escaped {
				var s string
				if err := json.Unmarshal(raw, &s); err != nil {
					return "", r.errorf("bad string: %v", err)
				}
				return s, nil
			}
			if !utf8.Valid(raw) {
				return "", r.errorf("invalid UTF-8 in string")
			}
			return intern(raw[1 : len(raw)-1]), nil
		case c == '\\':
			escaped = true
			r.i += 2
		case c < 0x20:
			return "", r.errorf("control character in string")
		default:
			r.i++
		}
	}
	return "", r.errorf("unterminated string")
}

// intern returns the constant for the strings every log repeats (its field
// names and systems), saving an allocation per occurrence.
func intern(b []byte) string {
	switch string(b) {
	case "seq":
		return "seq"
	case "actionId":
		return "actionId"
	case "params":
		return "params"
	case "system":
		return "system"
	case "from":
		return "from"
	case "to":
		return "to"
	case "content":
		return "content"
	case "migration":
		return "migration"
	}
	return string(b)
}

// number reads a number literal, checking its grammar, and returns it.
func (r *reader) number() ([]byte, error) {
	r.ws()
	start := r.i
	end, ok := canon.SkipNumber(r.b, r.i)
	r.i = end
	if !ok {
		return nil, r.errorf("malformed number")
	}
	return r.b[start:r.i], nil
}

func (r *reader) integer() (int, error) {
	lit, err := r.number()
	if err != nil {
		return 0, err
	}
	n, err := strconv.Atoi(string(lit))
	if err != nil {
		return 0, r.errorf("%s is not an integer", lit)
	}
	return n, nil
}

func (r *reader) literal(word string) bool {
	r.ws()
	if len(r.b)-r.i >= len(word) && string(r.b[r.i:r.i+len(word)]) == word {
		r.i += len(word)
		return true
	}
	return false
}

// skip reads any value, checking its grammar, and returns its bytes.
func (r *reader) skip(depth int) ([]byte, error) {
	if depth > 256 {
		return nil, r.errorf("nesting too deep")
	}
	c := r.peek()
	start := r.i
	var err error
	switch {
	case c == '{':
		err = r.object(func(string) error { _, err := r.skip(depth + 1); return err })
	case c == '[':
		err = r.array(func() error { _, err := r.skip(depth + 1); return err })
	case c == '"':
		_, err = r.str()
	case c == '-' || c >= '0' && c <= '9':
		_, err = r.number()
	case r.literal("true"), r.literal("false"), r.literal("null"):
	default:
		err = r.errorf("unexpected character %q", c)
	}
	return r.b[start:r.i], err
}

// end checks that nothing but space follows the value.
func (r *reader) end() error {
	if r.peek() != 0 {
		return r.errorf("trailing data")
	}
	return nil
}

// params reads an action's params: a flat object of strings, numbers and
// booleans.
func (r *reader) params() (Params, error) {
	p := Params{}
	err := r.object(func(key string) error {
		switch c := r.peek(); {
		case c == '"':
			s, err := r.str()
			p[key] = s
			return err
		case c == '-' || c >= '0' && c <= '9':
			lit, err := r.number()
			if err != nil {
				return err
			}
			f, err := strconv.ParseFloat(string(lit), 64)
			if err != nil {
				return r.errorf("param %q: number out of range", key)
			}
			p[key] = f
		case r.literal("true"):
			p[key] = true
		case r.literal("false"):
			p[key] = false
		default:
			return r.errorf("param %q must be a string, number or boolean", key)
		}
		return nil
	})
	if err == nil && len(p) > MaxParams {
		err = fmt.Errorf("at most %d params, got %d", MaxParams, len(p))
	}
	return p, err
}

// name returns the action id raw, a valid string's bytes without escapes,
// allocating it only the first time the log names it.
func (r *reader) name(raw []byte) string {
	if s, ok := r.names[string(raw)]; ok {
		return s
	}
	if r.names == nil {
		r.names = map[string]string{}
	}
	s := string(raw)
	r.names[s] = s
	return s
}

// canonicalAction reads the entry at the cursor when it is an action
// entry exactly as the engine writes one without params,
// {"actionId":"…","seq":N}, with no space, no escape and N without a
// leading zero: nearly every entry of a log. Anything else leaves the
// cursor where it was and returns ok false, for the general reader.
func (r *reader) canonicalAction() (e entryJSON, ok bool) {
	name, seq, end, ok := scanCanonicalAction(r.b, r.i)
	if !ok {
		return e, false
	}
	r.i = end
	return entryJSON{Seq: seq, ActionID: r.name(name)}, true
}

// scanCanonicalAction reads, at b[i:], an action entry without params in
// its canonical form, {"actionId":"<id>","seq":<n>}, the id without
// escapes; ok is false for anything else. end is just after its brace.
func scanCanonicalAction(b []byte, i int) (name []byte, seq, end int, ok bool) {
	const head, mid = `{"actionId":"`, `","seq":`
	if len(b)-i < len(head) || string(b[i:i+len(head)]) != head {
		return nil, 0, 0, false
	}
	start := i + len(head)
	end = start
	for end < len(b) && b[end] != '"' {
		if c := b[end]; c == '\\' || c < 0x20 {
			return nil, 0, 0, false
		}
		end++
	}
	if len(b)-end < len(mid) || string(b[end:end+len(mid)]) != mid || !utf8.Valid(b[start:end]) {
		return nil, 0, 0, false
	}
	j := end + len(mid)
	digits := 0
	for ; j < len(b) && b[j] >= '0' && b[j] <= '9'; j++ {
		seq = seq*10 + int(b[j]-'0')
		digits++
	}
	if digits == 0 || digits > 9 || (digits > 1 && b[end+len(mid)] == '0') || j >= len(b) || b[j] != '}' {
		return nil, 0, 0, false
	}
	return b[start:end], seq, j + 1, true
}

// entry reads one log entry.
func (r *reader) entry() (LoggedEntry, error) {
	if e, ok := r.canonicalAction(); ok {
		return e.entry()
	}
	e := entryJSON{Seq: -1}
	var seen uint8
	for first := true; ; first = false {
		key, done, err := r.members(first)
		if err != nil {
			return nil, err
		}
		if done {
			return e.entry()
		}
		bit := entryField(key)
		if seen&bit != 0 {
			return nil, r.errorf("duplicate key %q", key)
		}
		seen |= bit
		switch key {
		case "seq":
			e.Seq, err = r.integer()
		case "actionId":
			e.ActionID, err = r.str()
		case "params":
			e.Params, err = r.params()
		case "system":
			e.System, err = r.str()
		case "from":
			e.From, err = r.str()
		case "to":
			e.To, err = r.str()
		default:
			err = r.errorf("unknown field %q", key)
		}
		if err != nil {
			return nil, err
		}
	}
}

// entryField is the bit of a log entry's field name, 0 for an unknown one.
func entryField(key string) uint8 {
	switch key {
	case "seq":
		return 1
	case "actionId":
		return 2
	case "params":
		return 4
	case "system":
		return 8
	case "from":
		return 16
	case "to":
		return 32
	}
	return 0
}

// log reads an action log.
func (r *reader) log() (Log, error) {
	if l, ok := r.prefixLog(); ok {
		return l, nil
	}
	var entries []LoggedEntry
	err := r.array(func() error {
		i := len(entries)
		e, err := r.entry()
		if err != nil {
			return fmt.Errorf("actionLog[%d]: %w", i, err)
		}
		if e.Sequence() != i {
			return fmt.Errorf("actionLog[%d]: seq %d is not its position", i, e.Sequence())
		}
		entries = append(entries, e)
		return nil
	})
	if err != nil {
		return Log{}, err
	}
	return logOf(entries), nil
}

// prefixLog reads the log array at the cursor as a prefix (see logPrefix)
// when every entry is valid, at its position and written canonically, and
// the entries are separated by bare commas: what a serialized state
// holds. Each entry is checked as log does, without keeping it. ok false
// leaves the cursor where it was, for log to read the array entry by
// entry and say what is wrong with it.
func (r *reader) prefixLog() (Log, bool) {
	at := r.i
	if r.peek() != '[' {
		return Log{}, false
	}
	b, start := r.b, r.i+1
	if start < len(b) && b[start] == ']' {
		r.i = start + 1
		return Log{}, true
	}
	var ends []int
	var epochs []epochEntry
	for i, k := start, 0; ; k++ {
		if name, seq, end, ok := scanCanonicalAction(b, i); ok && seq == k && len(name) > 0 {
			i = end
		} else {
			r.i = i
			e, err := r.entry()
			if err != nil || e.Sequence() != k || string(appendEntry(nil, e)) != string(b[i:r.i]) {
				r.i = at
				return Log{}, false
			}
			if _, action := e.(LoggedAction); !action {
				epochs = append(epochs, epochEntry{at: k, e: e})
			}
			i = r.i
		}
		ends = append(ends, i-start)
		if i >= len(b) {
			r.i = at
			return Log{}, false
		}
		switch b[i] {
		case ',':
			i++
			continue
		case ']':
			// The bytes are copied: the caller may reuse its buffer.
			raw := append([]byte(nil), b[start:i]...)
			r.i = i + 1
			return Log{pre: &logPrefix{n: k + 1, raw: raw, ends: ends, epochs: epochs}, n: k + 1}, true
		}
		r.i = at
		return Log{}, false
	}
}
