package freeport

import (
	"unicode/utf8"

	"github.com/storyloom/storyloom/engine/canon"
)

// The one-pass request decoder. It reads the body once, straight into a
// command, and writes the normalized Command's canonical bytes directly. It
// accepts only the plain spelling of a valid request: strings without
// escapes, integers written as digits, every member once, every field of
// the right type and within its bounds. On anything else — a refusal, an
// escape, 2.0 or 1e2, a duplicate — it gives up and decodeRequest asks
// decodeRequestSlow, the reference decoder, which decides. So it never
// changes an answer; FuzzFastDecoderAgrees checks that it gives the same
// command as the reference decoder whenever it accepts.

// fastMaxMembers bounds the members of a request the fast path reads; no
// action takes more than nine.
const fastMaxMembers = 12

// fastValue is one member's value: a string, a positive integer, null, or
// one side of Terms.
type fastValue struct {
	kind  byte // 's' string, 'n' integer, 'z' null, 'a' items
	s     string
	n     int64
	items []item
}

// fastMember is one member of a request as read, or of the normalized
// Command appendNorm writes.
type fastMember struct {
	key string
	val fastValue
}

type fastParser struct {
	data []byte
	pos  int
}

func (p *fastParser) space() { p.pos = canon.SkipSpace(p.data, p.pos) }

func (p *fastParser) next(c byte) bool {
	p.space()
	if p.pos < len(p.data) && p.data[p.pos] == c {
		p.pos++
		return true
	}
	return false
}

// str reads a string without escapes or control characters that is valid
// UTF-8; the opening quote is at p.pos.
func (p *fastParser) str() (string, bool) {
	p.space()
	if p.pos >= len(p.data) || p.data[p.pos] != '"' {
		return "", false
	}
	start := p.pos + 1
	for i := start; i < len(p.data); i++ {
		c := p.data[i]
		if c == '"' {
			s := p.data[start:i]
			if !utf8.Valid(s) {
				return "", false
			}
			p.pos = i + 1
			return string(s), true
		}
		if c == '\\' || c < 0x20 {
			return "", false
		}
	}
	return "", false
}

// posInt reads an integer from 1 to MaxQuantity written as plain digits.
func (p *fastParser) posInt() (int64, bool) {
	p.space()
	start := p.pos
	var v int64
	for p.pos < len(p.data) && p.data[p.pos] >= '0' && p.data[p.pos] <= '9' {
		v = v*10 + int64(p.data[p.pos]-'0')
		p.pos++
		if p.pos-start > 13 {
			return 0, false
		}
	}
	if p.pos == start || p.data[start] == '0' || v > MaxQuantity {
		return 0, false
	}
	if p.pos < len(p.data) {
		if c := p.data[p.pos]; c == '.' || c == 'e' || c == 'E' {
			return 0, false
		}
	}
	return v, true
}

// items reads one side of Terms: [{"assetId": s, "quantity": n}, …].
func (p *fastParser) items() ([]item, bool) {
	if !p.next('[') {
		return nil, false
	}
	out := make([]item, 0, 2)
	if p.next(']') {
		return out, true
	}
	for {
		if !p.next('{') {
			return nil, false
		}
		var it item
		var haveA, haveQ bool
		for k := 0; k < 2; k++ {
			if k == 1 && !p.next(',') {
				return nil, false
			}
			key, ok := p.str()
			if !ok || !p.next(':') {
				return nil, false
			}
			switch {
			case key == "assetId" && !haveA:
				if it.AssetID, ok = p.str(); !ok || it.AssetID == "" || len(it.AssetID) > 256 {
					return nil, false
				}
				haveA = true
			case key == "quantity" && !haveQ:
				if it.Quantity, ok = p.posInt(); !ok {
					return nil, false
				}
				haveQ = true
			default:
				return nil, false
			}
		}
		if !p.next('}') {
			return nil, false
		}
		out = append(out, it)
		if len(out) > MaxTermsItems {
			return nil, false
		}
		if p.next(']') {
			return out, true
		}
		if !p.next(',') {
			return nil, false
		}
	}
}

func (p *fastParser) value() (fastValue, bool) {
	p.space()
	if p.pos >= len(p.data) {
		return fastValue{}, false
	}
	switch c := p.data[p.pos]; {
	case c == '"':
		s, ok := p.str()
		return fastValue{kind: 's', s: s}, ok
	case c >= '1' && c <= '9':
		n, ok := p.posInt()
		return fastValue{kind: 'n', n: n}, ok
	case c == 'n':
		if len(p.data)-p.pos >= 4 && string(p.data[p.pos:p.pos+4]) == "null" {
			p.pos += 4
			return fastValue{kind: 'z'}, true
		}
	case c == '[':
		items, ok := p.items()
		return fastValue{kind: 'a', items: items}, ok
	}
	return fastValue{}, false
}

// decodeFast decodes body on the fast path, or reports false.
func decodeFast(body []byte) (*command, bool) {
	if len(body) > MaxRequestBytes {
		return nil, false
	}
	p := fastParser{data: body}
	var members [fastMaxMembers]fastMember
	n := 0
	if !p.next('{') {
		return nil, false
	}
	if p.next('}') {
		return nil, false
	}
	for {
		key, ok := p.str()
		if !ok || !p.next(':') || n == fastMaxMembers {
			return nil, false
		}
		for _, m := range members[:n] {
			if m.key == key {
				return nil, false
			}
		}
		members[n].key = key
		if members[n].val, ok = p.value(); !ok {
			return nil, false
		}
		n++
		if p.next('}') {
			break
		}
		if !p.next(',') {
			return nil, false
		}
	}
	p.space()
	if p.pos != len(body) {
		return nil, false
	}
	ms := members[:n]
	get := func(name string) (fastValue, bool) {
		for _, m := range ms {
			if m.key == name {
				return m.val, true
			}
		}
		return fastValue{}, false
	}
	if v, ok := get("protocolVersion"); !ok || v.kind != 'n' || v.n != ProtocolVersion {
		return nil, false
	}
	av, ok := get("action")
	if !ok || av.kind != 's' {
		return nil, false
	}
	spec, ok := specFor(av.s)
	if !ok {
		return nil, false
	}
	for _, m := range ms {
		if m.key == "protocolVersion" || m.key == "action" || (m.key == "commandId" && spec.mutation) {
			continue
		}
		if _, ok := spec.field(m.key); !ok {
			return nil, false
		}
	}
	c := &command{action: av.s, mutation: spec.mutation}
	// The normalized Command's members, to be written in canonical order.
	var norm [fastMaxMembers]fastMember
	nn := 0
	add := func(key string, v fastValue) {
		norm[nn] = fastMember{key, v}
		nn++
	}
	add("action", av)
	add("protocolVersion", fastValue{kind: 'n', n: ProtocolVersion})
	if spec.mutation {
		v, ok := get("commandId")
		if !ok || v.kind != 's' || v.s == "" || len(v.s) > MaxCommandID {
			return nil, false
		}
		c.commandID = v.s
		add("commandId", v)
	}
	for _, f := range spec.fields[:spec.n] {
		v, present := get(f.name)
		isNull := present && v.kind == 'z'
		switch f.kind {
		case fString, fStringOpt:
			if !present || isNull {
				if f.kind == fString {
					return nil, false
				}
				continue
			}
			if v.kind != 's' || v.s == "" || len(v.s) > 256 {
				return nil, false
			}
			c.setS(f.name, v.s)
			add(f.name, v)
		case fNameOrNull:
			if !present {
				return nil, false
			}
			if isNull {
				c.nameNull = true
				add(f.name, v)
				continue
			}
			if v.kind != 's' {
				return nil, false
			}
			c.setS(f.name, v.s)
			add(f.name, v)
		case fPositive, fPositiveOpt:
			if !present || isNull {
				if f.kind == fPositive {
					return nil, false
				}
				continue
			}
			if v.kind != 'n' {
				return nil, false
			}
			c.setN(f.name, v.n)
			add(f.name, v)
		case fItems:
			if !present || v.kind != 'a' {
				return nil, false
			}
			items, ok := normalizeItems(v.items)
			if !ok {
				return nil, false
			}
			c.setItems(f.name, items)
			add(f.name, fastValue{kind: 'a', items: items})
		case fTimeOpt:
			if !present || isNull {
				continue
			}
			if v.kind != 's' {
				return nil, false
			}
			t, err := ParseTime(v.s)
			if err != nil {
				return nil, false
			}
			c.expiresAt, c.hasExpiry = t, true
			add(f.name, fastValue{kind: 's', s: FormatTime(t)})
		}
	}
	if c.hasItems && len(c.offered)+len(c.requested) == 0 {
		return nil, false
	}
	c.norm = appendNorm(make([]byte, 0, len(body)+32), norm[:nn])
	return c, true
}

// appendNorm writes the normalized Command's members as one canonical
// object: keys in canon's order, values as the reference decoder's
// canonical encoding of its map would write them.
func appendNorm(b []byte, ms []fastMember) []byte {
	for i := 1; i < len(ms); i++ { // insertion sort: at most a dozen members
		for j := i; j > 0 && canon.CompareKeys(ms[j-1].key, ms[j].key) > 0; j-- {
			ms[j-1], ms[j] = ms[j], ms[j-1]
		}
	}
	o := canon.OpenObject(b)
	for _, m := range ms {
		switch m.val.kind { // keys: field names of the protocol, plain ASCII
		case 's':
			o.String(m.key, m.val.s)
		case 'n':
			o.Int(m.key, m.val.n)
		case 'z':
			o.Null(m.key)
		case 'a':
			o.Key(m.key)
			o.B = canon.AppendList(o.B, m.val.items, appendItem)
		}
	}
	return o.Close()
}

// normalizeItems sorts one side of Terms by assetId and sums duplicate
// lines, as decodeItems does, reporting false where decodeItems refuses.
func normalizeItems(in []item) ([]item, bool) {
	for i := 1; i < len(in); i++ {
		for j := i; j > 0 && canon.CompareKeys(in[j-1].AssetID, in[j].AssetID) > 0; j-- {
			in[j-1], in[j] = in[j], in[j-1]
		}
	}
	merged := in[:0]
	for _, it := range in {
		if n := len(merged); n > 0 && merged[n-1].AssetID == it.AssetID {
			merged[n-1].Quantity += it.Quantity
			if merged[n-1].Quantity > MaxQuantity {
				return nil, false
			}
			continue
		}
		merged = append(merged, it)
	}
	return merged, true
}
