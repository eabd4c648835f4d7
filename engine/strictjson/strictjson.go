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
)

// Decode decodes the JSON document data into v, refusing unknown fields,
// keys that name a field only in another letter case ("Start" for
// "start", which encoding/json alone would accept), and anything after the
// one value ("trailing data after JSON value"). Kinds, the content builder
// and Freeport's game file use it for what authors write and for states,
// so that a document either decodes whole, exactly as written, or is
// refused.
func Decode(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return fmt.Errorf("trailing data after JSON value")
	}
	w := keyWalker{dec: json.NewDecoder(bytes.NewReader(data)), fields: map[reflect.Type]map[string]reflect.Type{}}
	return w.value(reflect.TypeOf(v), "")
}

// keyWalker reads a document that has already decoded into its Go type
// (so it is well formed and its shapes match) token by token beside that
// type, and refuses the first object key that names no field exactly.
type keyWalker struct {
	dec    *json.Decoder
	fields map[reflect.Type]map[string]reflect.Type // exact JSON names of a struct's fields
}

var unmarshalerType = reflect.TypeFor[json.Unmarshaler]()

// value walks the next JSON value, read as Go type t; path names it in an
// error ("nodes[2].choices[0]").
func (w *keyWalker) value(t reflect.Type, path string) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	tok, err := w.dec.Token()
	if err != nil {
		return err
	}
	open, ok := tok.(json.Delim)
	if !ok {
		return nil // a scalar or null: no keys
	}
	custom := t.Kind() == reflect.Interface || reflect.PointerTo(t).Implements(unmarshalerType)
	switch {
	case custom:
		return w.skipRest()
	case open == '[':
		for i := 0; w.dec.More(); i++ {
			if err := w.value(t.Elem(), path+"["+strconv.Itoa(i)+"]"); err != nil {
				return err
			}
		}
	case t.Kind() == reflect.Map:
		for w.dec.More() {
			key, err := w.dec.Token()
			if err != nil {
				return err
			}
			if err := w.value(t.Elem(), join(path, key.(string))); err != nil {
				return err
			}
		}
	default:
		fields := w.fieldsOf(t)
		for w.dec.More() {
			tok, err := w.dec.Token()
			if err != nil {
				return err
			}
			key := tok.(string)
			ft, ok := fields[key]
			if !ok {
				return misspelt(join(path, key), key, fields)
			}
			if err := w.value(ft, join(path, key)); err != nil {
				return err
			}
		}
	}
	_, err = w.dec.Token() // the closing delimiter
	return err
}

// skipRest reads up to and including the delimiter that closes the value
// whose opening delimiter was just read.
func (w *keyWalker) skipRest() error {
	for depth := 1; depth > 0; {
		tok, err := w.dec.Token()
		if err != nil {
			return err
		}
		if d, ok := tok.(json.Delim); ok {
			if d == '{' || d == '[' {
				depth++
			} else {
				depth--
			}
		}
	}
	return nil
}

// fieldsOf maps the JSON names of struct t's fields, embedded structs'
// promoted fields included, to their types, as encoding/json names them.
func (w *keyWalker) fieldsOf(t reflect.Type) map[string]reflect.Type {
	if m, ok := w.fields[t]; ok {
		return m
	}
	m := map[string]reflect.Type{}
	w.fields[t] = m
	addFields(m, t)
	return m
}

func addFields(m map[string]reflect.Type, t reflect.Type) {
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
		m[name] = ft
	}
	for _, et := range embedded { // promoted fields never hide a shallower one
		promoted := map[string]reflect.Type{}
		addFields(promoted, et)
		for name, ft := range promoted {
			if _, taken := m[name]; !taken {
				m[name] = ft
			}
		}
	}
}

// misspelt is the error for a key that matched a field only without
// regard to case: encoding/json accepted it, so a field has that name in
// another case.
func misspelt(path, key string, fields map[string]reflect.Type) error {
	for name := range fields {
		if strings.EqualFold(name, key) {
			return fmt.Errorf("json: unknown field %q at %s: keys are case-sensitive; did you mean %q?", key, path, name)
		}
	}
	return fmt.Errorf("json: unknown field %q at %s", key, path)
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}
