// Package strictjson decodes JSON documents exactly as written: unknown
// fields, keys that match a field only in another letter case, and
// trailing data are refused, with the path of the offending key.
package strictjson

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/storyloom/storyloom/engine/canon"
)

// Decode decodes the JSON document data into v, refusing unknown fields,
// keys that name a field only in another letter case ("Start" for
// "start", which encoding/json alone would accept), and anything after the
// one value ("trailing data after JSON value"). Kinds, the content builder
// and Freeport's game file use it for what authors write and for states,
// so that a document either decodes whole, exactly as written, or is
// refused.
func Decode(data []byte, v any) error {
	_, err := decode(data, v, nil)
	return err
}

// A Decoder decodes as Decode does, and keeps the field tables of the
// struct types it has met for the documents it decodes next, which Decode
// builds again for every document: a host that decodes many small
// documents of a few types (the browser bridge's arguments) keeps one.
// Its zero value is ready to use, and it is safe for concurrent use.
type Decoder struct {
	mu     sync.Mutex
	tables []table // never changed once published: only replaced by a longer list
}

// Decode decodes data into v exactly as the package's Decode does.
func (d *Decoder) Decode(data []byte, v any) error {
	d.mu.Lock()
	known := d.tables[:len(d.tables):len(d.tables)] // an append copies
	d.mu.Unlock()
	tables, err := decode(data, v, known)
	if len(tables) > len(known) {
		d.mu.Lock()
		if len(tables) > len(d.tables) {
			d.tables = tables
		}
		d.mu.Unlock()
	}
	return err
}

// decode is Decode starting from the field tables already known, and
// returns them with those the walk built.
func decode(data []byte, v any, tables []table) ([]table, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return tables, err
	}
	if dec.More() {
		return tables, fmt.Errorf("trailing data after JSON value")
	}
	w := keyWalker{data: data, path: make([]step, 0, 8), tables: tables}
	err := w.value(reflect.TypeOf(v))
	return w.tables, err
}

// keyWalker reads a document that has already decoded into its Go type (so
// it is well-formed JSON and its shapes match) byte by byte beside that
// type, and refuses the first object key that names no field exactly. It
// allocates nothing on the way but the field tables of the struct types it
// meets; the path of a key is put into words only for an error.
type keyWalker struct {
	data   []byte
	pos    int
	path   []step  // where the walk is, outermost first
	tables []table // the struct types met so far
}

// table lists the fields of a struct type by their exact JSON names.
type table struct {
	t      reflect.Type
	fields []field
}

// field is one JSON name of a struct type and the type of its value.
type field struct {
	name string
	t    reflect.Type
}

// lookup returns the type of the field named key exactly, if there is one.
func lookup(fields []field, key string) (reflect.Type, bool) {
	for _, f := range fields {
		if f.name == key {
			return f.t, true
		}
	}
	return nil, false
}

// step is one level of a key's path: an object key, or an array index when
// key is nil.
type step struct {
	key   []byte
	index int
}

var unmarshalerType = reflect.TypeFor[json.Unmarshaler]()

// value walks the next JSON value, read as Go type t.
func (w *keyWalker) value(t reflect.Type) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	w.space()
	open := w.data[w.pos]
	if open != '{' && open != '[' {
		w.skipScalar()
		return nil
	}
	if t.Kind() == reflect.Interface || reflect.PointerTo(t).Implements(unmarshalerType) {
		w.skipComposite()
		return nil
	}
	w.pos++ // the opening delimiter
	depth := len(w.path)
	w.path = append(w.path, step{})
	var fields []field
	if open == '{' && t.Kind() == reflect.Struct {
		fields = w.fieldsOf(t)
	}
	for i := 0; ; i++ {
		w.space()
		if c := w.data[w.pos]; c == '}' || c == ']' {
			w.pos++
			w.path = w.path[:depth]
			return nil
		}
		if c := w.data[w.pos]; c == ',' {
			w.pos++
			w.space()
		}
		elem := t
		if open == '[' {
			w.path[depth] = step{index: i}
			elem = t.Elem()
		} else {
			key := w.key()
			w.path[depth] = step{key: key}
			if t.Kind() != reflect.Struct { // a map
				elem = t.Elem()
			} else if ft, ok := lookup(fields, string(key)); ok {
				elem = ft
			} else if ft, ok := lookup(fields, unquote(key)); ok { // written with escapes
				elem = ft
			} else {
				return misspelt(w.where(), unquote(key), fields)
			}
		}
		if err := w.value(elem); err != nil {
			return err
		}
	}
}

// key reads an object key and the colon after it, and returns the key's
// bytes between its quotes, escapes as written.
func (w *keyWalker) key() []byte {
	start := w.pos + 1
	w.skipString()
	key := w.data[start : w.pos-1]
	w.space()
	w.pos++ // the colon
	return key
}

// space skips white space.
func (w *keyWalker) space() { w.pos = canon.SkipSpace(w.data, w.pos) }

// skipString skips a string, its quotes included.
func (w *keyWalker) skipString() {
	for w.pos++; w.data[w.pos] != '"'; w.pos++ {
		if w.data[w.pos] == '\\' {
			w.pos++
		}
	}
	w.pos++
}

// skipScalar skips a string, number, true, false or null.
func (w *keyWalker) skipScalar() {
	if w.data[w.pos] == '"' {
		w.skipString()
		return
	}
	for w.pos < len(w.data) {
		switch w.data[w.pos] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return
		}
		w.pos++
	}
}

// skipComposite skips an object or array, from its opening delimiter to the
// one that closes it.
func (w *keyWalker) skipComposite() {
	for depth := 0; ; {
		switch w.data[w.pos] {
		case '"':
			w.skipString()
			continue
		case '{', '[':
			depth++
		case '}', ']':
			depth--
		}
		w.pos++
		if depth == 0 {
			return
		}
	}
}

// where puts the walk's path into words: "nodes[2].choices[0].Start".
func (w *keyWalker) where() string {
	var b strings.Builder
	for _, s := range w.path {
		if s.key == nil {
			b.WriteString("[" + strconv.Itoa(s.index) + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(unquote(s.key))
	}
	return b.String()
}

// unquote returns the text of a key as read between its quotes, its escapes
// undone.
func unquote(key []byte) string {
	if !bytes.ContainsRune(key, '\\') {
		return string(key)
	}
	var s string
	if json.Unmarshal(append(append([]byte{'"'}, key...), '"'), &s) != nil {
		return string(key)
	}
	return s
}

// fieldsOf lists the JSON names of struct t's fields, embedded structs'
// promoted fields included, with their types, as encoding/json names them.
func (w *keyWalker) fieldsOf(t reflect.Type) []field {
	for _, tb := range w.tables {
		if tb.t == t {
			return tb.fields
		}
	}
	fields := addFields(make([]field, 0, t.NumField()), t)
	w.tables = append(w.tables, table{t, fields})
	return fields
}

// addFields appends to fields those of struct t that no field already in
// it hides, and returns the longer list.
func addFields(fields []field, t reflect.Type) []field {
	shallower := len(fields)
	var embedded []reflect.Type
	for f := range t.Fields() {
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		ft := f.Type
		if f.Anonymous && name == "" {
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				embedded = append(embedded, ft)
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if _, hidden := lookup(fields[:shallower], name); !hidden {
			fields = append(fields, field{name, ft})
		}
	}
	for _, et := range embedded { // promoted fields never hide a shallower one
		fields = addFields(fields, et)
	}
	return fields
}

// misspelt is the error for a key that matched a field only without
// regard to case: encoding/json accepted it, so a field has that name in
// another case.
func misspelt(path, key string, fields []field) error {
	for _, f := range fields {
		if strings.EqualFold(f.name, key) {
			return fmt.Errorf("json: unknown field %q at %s: keys are case-sensitive; did you mean %q?", key, path, f.name)
		}
	}
	return fmt.Errorf("json: unknown field %q at %s", key, path)
}
