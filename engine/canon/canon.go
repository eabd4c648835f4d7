package canon

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// MaxDepth bounds the nesting of arrays and objects Canonicalize accepts.
const MaxDepth = 256

// Appender is implemented by a value that writes its canonical form
// itself: AppendCanonical appends exactly the bytes Marshal would return
// for it, so Marshal need not encode and re-parse. A kind state on the
// hot path of every action implements it; a test of the type checks its
// output against Canonicalize.
type Appender interface {
	AppendCanonical(b []byte) ([]byte, error)
}

// Marshal encodes v with encoding/json and returns its canonical form. A
// non-nil v that is an Appender writes its form itself. A non-nil v that
// implements json.Marshaler (a kind state with a direct encoder) is
// canonicalized straight from its MarshalJSON, with the same result and
// the same error for a failing MarshalJSON, without encoding/json's
// reflection and its extra validating pass over the bytes.
func Marshal(v any) ([]byte, error) {
	if a, ok := v.(Appender); ok && !isNilPointer(v) {
		b, err := a.AppendCanonical(nil)
		if err != nil {
			return nil, fmt.Errorf("canon: %w", &json.MarshalerError{Type: reflect.TypeOf(v), Err: err})
		}
		return b, nil
	}
	if m, ok := v.(json.Marshaler); ok && !isNilPointer(v) {
		b, err := m.MarshalJSON()
		if err != nil {
			return nil, fmt.Errorf("canon: %w", &json.MarshalerError{Type: reflect.TypeOf(v), Err: err})
		}
		return Canonicalize(b)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("canon: %w", err)
	}
	return Canonicalize(bytes.TrimSuffix(buf.Bytes(), []byte{'\n'}))
}

// isNilPointer reports whether v is a nil pointer, which encoding/json
// writes as null without calling its methods.
func isNilPointer(v any) bool {
	rv := reflect.ValueOf(v)
	return rv.Kind() == reflect.Pointer && rv.IsNil()
}

// Digest returns the lower-case hex SHA-256 of v's canonical form.
func Digest(v any) (string, error) {
	b, err := Marshal(v)
	if err != nil {
		return "", err
	}
	return DigestBytes(b), nil
}

// DigestBytes returns the lower-case hex SHA-256 of bytes already canonical.
func DigestBytes(canonical []byte) string {
	sum := sha256.Sum256(canonical)
	return hex.EncodeToString(sum[:])
}

// Canonicalize parses one JSON value and returns its canonical form. It
// refuses invalid JSON, duplicate object keys, invalid UTF-8, numbers out of
// float64 range and nesting deeper than MaxDepth.
func Canonicalize(data []byte) ([]byte, error) {
	p := parser{data: data, out: make([]byte, 0, len(data))}
	p.skipSpace()
	if err := p.value(0); err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.pos != len(p.data) {
		return nil, p.errorf("trailing data")
	}
	return p.out, nil
}

type parser struct {
	data []byte
	pos  int
	out  []byte
	tmp  []byte // the members of the object being sorted (object)
}

func (p *parser) errorf(format string, args ...any) error {
	return fmt.Errorf("canon: offset %d: %s", p.pos, fmt.Sprintf(format, args...))
}

// SkipSpace returns the index of the first byte of data at or after i that
// is not JSON white space (space, tab, line feed, carriage return): the one
// white-space rule of every hand-written JSON reader in the engine.
func SkipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}

// SkipNumber reads the number literal at data[i] by JSON's grammar (a
// minus sign, an integer part without leading zeros, then an optional
// fraction and exponent): it returns the index just after it and true, or,
// for a literal that breaks the grammar, the index where it breaks and
// false. The one number rule of the engine's JSON readers that check it.
func SkipNumber(data []byte, i int) (int, bool) {
	if i < len(data) && data[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(data) && data[i] >= '0' && data[i] <= '9' {
			i++
			n++
		}
		return n
	}
	intStart := i
	if n := digits(); n == 0 || (n > 1 && data[intStart] == '0') {
		return i, false
	}
	if i < len(data) && data[i] == '.' {
		i++
		if digits() == 0 {
			return i, false
		}
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		if digits() == 0 {
			return i, false
		}
	}
	return i, true
}

func (p *parser) skipSpace() { p.pos = SkipSpace(p.data, p.pos) }

func (p *parser) value(depth int) error {
	if p.pos >= len(p.data) {
		return p.errorf("unexpected end of input")
	}
	switch c := p.data[p.pos]; {
	case c == '{':
		return p.object(depth + 1)
	case c == '[':
		return p.array(depth + 1)
	case c == '"':
		s, err := p.str()
		if err != nil {
			return err
		}
		p.out = AppendString(p.out, s)
		return nil
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	default:
		for _, lit := range []string{"true", "false", "null"} {
			if bytes.HasPrefix(p.data[p.pos:], []byte(lit)) {
				p.pos += len(lit)
				p.out = append(p.out, lit...)
				return nil
			}
		}
		return p.errorf("unexpected character %q", c)
	}
}

// member is one member of an object being canonicalized: its decoded key,
// and where its canonical form "key":value sits in the output.
type member struct {
	key        string
	start, end int
}

// object writes an object's members to the output in the order they come,
// each canonical; when their keys were not already in order, it re-emits
// them sorted from a copy, so an object that arrives sorted (as a direct
// encoder writes it) costs no copy and no sort.
func (p *parser) object(depth int) error {
	if depth > MaxDepth {
		return p.errorf("nesting deeper than %d", MaxDepth)
	}
	p.pos++ // '{'
	p.skipSpace()
	open := len(p.out)
	p.out = append(p.out, '{')
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
		p.out = append(p.out, '}')
		return nil
	}
	var small [16]member
	members := small[:0]
	sorted := true
	for {
		p.skipSpace()
		if p.pos >= len(p.data) || p.data[p.pos] != '"' {
			return p.errorf("expected object key")
		}
		key, err := p.str()
		if err != nil {
			return err
		}
		p.skipSpace()
		if p.pos >= len(p.data) || p.data[p.pos] != ':' {
			return p.errorf("expected ':'")
		}
		p.pos++
		p.skipSpace()
		if len(members) > 0 {
			p.out = append(p.out, ',')
			sorted = sorted && CompareKeys(members[len(members)-1].key, key) < 0
		}
		start := len(p.out)
		p.out = AppendString(p.out, key)
		p.out = append(p.out, ':')
		if err := p.value(depth); err != nil {
			return err
		}
		members = append(members, member{key: key, start: start, end: len(p.out)})
		p.skipSpace()
		if p.pos >= len(p.data) {
			return p.errorf("unterminated object")
		}
		if p.data[p.pos] == ',' {
			p.pos++
			continue
		}
		if p.data[p.pos] != '}' {
			return p.errorf("expected ',' or '}'")
		}
		p.pos++
		break
	}
	if !sorted {
		slices.SortFunc(members, func(a, b member) int { return CompareKeys(a.key, b.key) })
		for i := 1; i < len(members); i++ {
			if members[i-1].key == members[i].key {
				return p.errorf("duplicate key %q", members[i].key)
			}
		}
		p.tmp = append(p.tmp[:0], p.out[open:]...)
		p.out = append(p.out[:open], '{')
		for i, m := range members {
			if i > 0 {
				p.out = append(p.out, ',')
			}
			p.out = append(p.out, p.tmp[m.start-open:m.end-open]...)
		}
	}
	p.out = append(p.out, '}')
	return nil
}

func (p *parser) array(depth int) error {
	if depth > MaxDepth {
		return p.errorf("nesting deeper than %d", MaxDepth)
	}
	p.pos++ // '['
	p.out = append(p.out, '[')
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
		p.out = append(p.out, ']')
		return nil
	}
	for first := true; ; first = false {
		if !first {
			p.out = append(p.out, ',')
		}
		p.skipSpace()
		if err := p.value(depth); err != nil {
			return err
		}
		p.skipSpace()
		if p.pos >= len(p.data) {
			return p.errorf("unterminated array")
		}
		if p.data[p.pos] == ',' {
			p.pos++
			continue
		}
		if p.data[p.pos] != ']' {
			return p.errorf("expected ',' or ']'")
		}
		p.pos++
		p.out = append(p.out, ']')
		return nil
	}
}

// str parses a JSON string at p.pos and returns its decoded value.
func (p *parser) str() (string, error) {
	p.pos++ // opening quote
	start := p.pos
	// Fast path: no escapes.
	for p.pos < len(p.data) {
		c := p.data[p.pos]
		if c == '"' {
			s := p.data[start:p.pos]
			if !utf8.Valid(s) {
				return "", p.errorf("invalid UTF-8 in string")
			}
			p.pos++
			return string(s), nil
		}
		if c == '\\' {
			break
		}
		if c < 0x20 {
			return "", p.errorf("control character in string")
		}
		p.pos++
	}
	buf := append([]byte(nil), p.data[start:p.pos]...)
	for p.pos < len(p.data) {
		c := p.data[p.pos]
		switch {
		case c == '"':
			if !utf8.Valid(buf) {
				return "", p.errorf("invalid UTF-8 in string")
			}
			p.pos++
			return string(buf), nil
		case c < 0x20:
			return "", p.errorf("control character in string")
		case c != '\\':
			buf = append(buf, c)
			p.pos++
			continue
		}
		p.pos++
		if p.pos >= len(p.data) {
			break
		}
		e := p.data[p.pos]
		p.pos++
		switch e {
		case '"', '\\', '/':
			buf = append(buf, e)
		case 'b':
			buf = append(buf, '\b')
		case 'f':
			buf = append(buf, '\f')
		case 'n':
			buf = append(buf, '\n')
		case 'r':
			buf = append(buf, '\r')
		case 't':
			buf = append(buf, '\t')
		case 'u':
			r, ok := p.hex4()
			if !ok {
				return "", p.errorf("bad \\u escape")
			}
			if utf16.IsSurrogate(r) {
				if r >= 0xdc00 || p.pos+1 >= len(p.data) || p.data[p.pos] != '\\' || p.data[p.pos+1] != 'u' {
					return "", p.errorf("lone surrogate")
				}
				p.pos += 2
				r2, ok := p.hex4()
				if !ok {
					return "", p.errorf("bad \\u escape")
				}
				if r = utf16.DecodeRune(r, r2); r == utf8.RuneError {
					return "", p.errorf("lone surrogate")
				}
			}
			buf = utf8.AppendRune(buf, r)
		default:
			return "", p.errorf("bad escape \\%c", e)
		}
	}
	return "", p.errorf("unterminated string")
}

func (p *parser) hex4() (rune, bool) {
	if p.pos+4 > len(p.data) {
		return 0, false
	}
	v, err := strconv.ParseUint(string(p.data[p.pos:p.pos+4]), 16, 32)
	if err != nil {
		return 0, false
	}
	p.pos += 4
	return rune(v), true
}

func (p *parser) number() error {
	start := p.pos
	end, ok := SkipNumber(p.data, p.pos)
	p.pos = end
	if !ok {
		return p.errorf("malformed number")
	}
	f, err := strconv.ParseFloat(string(p.data[start:p.pos]), 64)
	if err != nil {
		return p.errorf("number out of range")
	}
	p.out = AppendNumber(p.out, f)
	return nil
}

// AppendNumber appends f in canonical number form. f must be finite.
func AppendNumber(b []byte, f float64) []byte {
	if f == math.Trunc(f) && math.Abs(f) < 1<<53 {
		return strconv.AppendInt(b, int64(f), 10)
	}
	abs := math.Abs(f)
	format := byte('f')
	if abs < 1e-6 || abs >= 1e21 {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// Go writes e-07 where JavaScript writes e-7.
		n := len(b)
		if n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

// AppendString appends s as a canonical JSON string. Bytes that are not
// valid UTF-8 are written as U+FFFD, as encoding/json (and so Marshal)
// writes them.
func AppendString(b []byte, s string) []byte {
	const hexDigits = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			if r, size := utf8.DecodeRuneInString(s[i:]); r != utf8.RuneError || size != 1 {
				i += size
				continue
			}
			b = append(b, s[start:i]...)
			b = utf8.AppendRune(b, utf8.RuneError)
			i++
			start = i
			continue
		}
		if c >= 0x20 && c != '"' && c != '\\' {
			i++
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\b':
			b = append(b, '\\', 'b')
		case '\f':
			b = append(b, '\\', 'f')
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		default:
			b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
		}
		i++
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// CompareKeys orders object keys by their UTF-16 code units, as JavaScript's
// default sort does. For keys without characters above U+FFFF it is the
// ordinary string order.
func CompareKeys(a, b string) int {
	for i, j := 0, 0; i < len(a) && j < len(b); {
		if a[i] < 0x80 && b[j] < 0x80 {
			if a[i] != b[j] {
				return int(a[i]) - int(b[j])
			}
			i++
			j++
			continue
		}
		ra, na := utf8.DecodeRuneInString(a[i:])
		rb, nb := utf8.DecodeRuneInString(b[j:])
		if ra != rb {
			if ra >= 0x10000 && rb >= 0x10000 {
				return int(ra) - int(rb) // surrogate pairs keep code point order
			}
			return int(firstUnit(ra)) - int(firstUnit(rb))
		}
		i += na
		j += nb
	}
	return len(a) - len(b)
}

// firstUnit is the first UTF-16 code unit of r: r itself in the BMP, its high
// surrogate above it.
func firstUnit(r rune) rune {
	if r >= 0x10000 {
		hi, _ := utf16.EncodeRune(r)
		return hi
	}
	return r
}
