package canon

import (
	"slices"
	"strconv"
)

// The writers below are how the engine's hand-written encoders write
// canonical JSON: each appends what Marshal gives for the same Go value
// (encoding/json's rules for nil slices, maps and pointers, then the
// canonical form), without reflection and without a re-parse. An encoder
// built of them is an Appender of its type; its test compares it with
// encoding/json and Canonicalize.

// Int is the integer types AppendInt writes.
type Int interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64
}

// AppendInt appends n as Marshal encodes an integer: its decimal digits,
// or, at a magnitude of 2^53 or more, the nearest float64 in canonical
// number form.
func AppendInt[N Int](b []byte, n N) []byte {
	if v := int64(n); v > -(1<<53) && v < 1<<53 {
		return strconv.AppendInt(b, v, 10)
	}
	return AppendNumber(b, float64(n))
}

// AppendBool appends v as true or false.
func AppendBool(b []byte, v bool) []byte { return strconv.AppendBool(b, v) }

// AppendRaw appends raw, a value already in canonical form; an empty one
// is null, as encoding/json writes an empty json.RawMessage.
func AppendRaw(b, raw []byte) []byte {
	if len(raw) == 0 {
		return append(b, "null"...)
	}
	return append(b, raw...)
}

// AppendList appends list as an array, each element written by enc; a nil
// list is null, as encoding/json writes it.
func AppendList[T any](b []byte, list []T, enc func([]byte, *T) []byte) []byte {
	if list == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = enc(b, &list[i])
	}
	return append(b, ']')
}

// AppendStrings appends a list of strings; nil is null.
func AppendStrings(b []byte, list []string) []byte {
	return AppendList(b, list, appendStringAt)
}

func appendStringAt(b []byte, s *string) []byte { return AppendString(b, *s) }

// AppendInts appends a list of integers; nil is null.
func AppendInts[N Int](b []byte, list []N) []byte {
	return AppendList(b, list, func(b []byte, n *N) []byte { return AppendInt(b, *n) })
}

// AppendMap appends m as an object, its keys in canonical order, each
// value written by enc; a nil map is null.
func AppendMap[V any](b []byte, m map[string]V, enc func([]byte, V) []byte) []byte {
	if m == nil {
		return append(b, "null"...)
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, CompareKeys)
	b = append(b, '{')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(AppendString(b, k), ':')
		b = enc(b, m[k])
	}
	return append(b, '}')
}

// Object writes one JSON object member by member, in the order its
// methods are called: canonical when the caller gives the members in
// canonical key order (CompareKeys), as encoding/json's order when it
// gives them in a struct's field order. The Opt… methods leave a member
// out at its zero value, as encoding/json's omitempty does.
//
// A member whose value has no method of its own is written by Key and
// then appended to B:
//
//	o := canon.OpenObject(b)
//	o.Key("config")
//	o.B = appendConfig(o.B, &r.Config)
//	o.String("id", r.ID)
//	return o.Close()
type Object struct {
	// B holds what was appended before the object, then the object so
	// far.
	B    []byte
	some bool
}

// OpenObject starts an object at the end of b.
func OpenObject(b []byte) Object { return Object{B: append(b, '{')} }

// Close ends the object and returns the bytes.
func (o *Object) Close() []byte { return append(o.B, '}') }

// Key starts a member: the comma before it (for every member but the
// first), the key and the colon. Its value is appended to B next.
func (o *Object) Key(k string) {
	if o.some {
		o.B = append(o.B, ',')
	}
	o.B = append(AppendString(o.B, k), ':')
	o.some = true
}

// Member appends an encoded member, `"key":value`; an empty one is left
// out. It lets a member encoded once be copied into many objects.
func (o *Object) Member(m []byte) {
	if len(m) == 0 {
		return
	}
	if o.some {
		o.B = append(o.B, ',')
	}
	o.B = append(o.B, m...)
	o.some = true
}

// String writes a string member.
func (o *Object) String(k, s string) {
	o.Key(k)
	o.B = AppendString(o.B, s)
}

// OptString writes a string member unless s is empty.
func (o *Object) OptString(k, s string) {
	if s != "" {
		o.String(k, s)
	}
}

// StringPtr writes a string member; nil is null.
func (o *Object) StringPtr(k string, s *string) {
	if s == nil {
		o.Null(k)
		return
	}
	o.String(k, *s)
}

// Int writes an integer member.
func (o *Object) Int(k string, n int64) {
	o.Key(k)
	o.B = AppendInt(o.B, n)
}

// OptInt writes an integer member unless n is 0.
func (o *Object) OptInt(k string, n int64) {
	if n != 0 {
		o.Int(k, n)
	}
}

// OptIntPtr writes an integer member unless p is nil.
func (o *Object) OptIntPtr(k string, p *int) {
	if p != nil {
		o.Int(k, int64(*p))
	}
}

// Bool writes a boolean member.
func (o *Object) Bool(k string, v bool) {
	o.Key(k)
	o.B = strconv.AppendBool(o.B, v)
}

// OptBool writes a boolean member unless v is false.
func (o *Object) OptBool(k string, v bool) {
	if v {
		o.Bool(k, true)
	}
}

// OptBoolPtr writes a boolean member unless p is nil.
func (o *Object) OptBoolPtr(k string, p *bool) {
	if p != nil {
		o.Bool(k, *p)
	}
}

// Strings writes a member holding a list of strings; nil is null.
func (o *Object) Strings(k string, list []string) {
	o.Key(k)
	o.B = AppendStrings(o.B, list)
}

// OptStrings writes a list of strings unless it is empty.
func (o *Object) OptStrings(k string, list []string) {
	if len(list) > 0 {
		o.Strings(k, list)
	}
}

// Raw writes a member whose value is already canonical; an empty one is
// null.
func (o *Object) Raw(k string, raw []byte) {
	o.Key(k)
	o.B = AppendRaw(o.B, raw)
}

// Null writes a member whose value is null.
func (o *Object) Null(k string) {
	o.Key(k)
	o.B = append(o.B, "null"...)
}

// The member writers of a generic value (Go methods cannot have type
// parameters of their own) take the object first.

// List writes a member holding list, each element written by enc; nil is
// null.
func List[T any](o *Object, k string, list []T, enc func([]byte, *T) []byte) {
	o.Key(k)
	o.B = AppendList(o.B, list, enc)
}

// OptList writes a list member unless the list is empty.
func OptList[T any](o *Object, k string, list []T, enc func([]byte, *T) []byte) {
	if len(list) > 0 {
		List(o, k, list, enc)
	}
}

// Ints writes a member holding a list of integers; nil is null.
func Ints[N Int](o *Object, k string, list []N) {
	o.Key(k)
	o.B = AppendInts(o.B, list)
}

// OptInts writes a list of integers unless it is empty.
func OptInts[N Int](o *Object, k string, list []N) {
	if len(list) > 0 {
		Ints(o, k, list)
	}
}

// Value writes a member whose value enc writes from p.
func Value[T any](o *Object, k string, p *T, enc func([]byte, *T) []byte) {
	o.Key(k)
	o.B = enc(o.B, p)
}

// OptValue writes a member as Value does unless p is nil.
func OptValue[T any](o *Object, k string, p *T, enc func([]byte, *T) []byte) {
	if p != nil {
		Value(o, k, p, enc)
	}
}
