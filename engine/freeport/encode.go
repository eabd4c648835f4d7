package freeport

import (
	"encoding/json"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/storyloom/storyloom/engine/canon"
)

// appendCanonical appends the canonical JSON (package canon's form) of a view
// built by this package: structs with json tags (anonymous struct fields
// flattened, omitempty honoured for nil pointers and interfaces), pointers,
// slices, string-keyed maps, strings, integers, booleans and json.RawMessage
// values that are already canonical. It writes canonical bytes in one pass,
// which is what keeps Apply fast; a test checks it against canon.Marshal.
func appendCanonical(b []byte, v reflect.Value) []byte {
	switch v.Kind() {
	case reflect.Interface, reflect.Pointer:
		if v.IsNil() {
			return append(b, "null"...)
		}
		return appendCanonical(b, v.Elem())
	case reflect.Struct:
		fields := structFields(v, nil)
		slices.SortFunc(fields, func(x, y field) int { return canon.CompareKeys(x.name, y.name) })
		o := canon.OpenObject(b)
		for _, f := range fields {
			o.Key(f.name) // a json tag of this package: plain ASCII
			o.B = appendCanonical(o.B, f.v)
		}
		return o.Close()
	case reflect.Slice:
		if v.Type() == reflect.TypeFor[json.RawMessage]() {
			return canon.AppendRaw(b, v.Bytes())
		}
		if v.IsNil() {
			return append(b, "null"...)
		}
		fallthrough
	case reflect.Array:
		b = append(b, '[')
		for i := 0; i < v.Len(); i++ {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendCanonical(b, v.Index(i))
		}
		return append(b, ']')
	case reflect.Map:
		if v.IsNil() {
			return append(b, "null"...)
		}
		keys := make([]string, 0, v.Len())
		for _, k := range v.MapKeys() {
			keys = append(keys, k.String())
		}
		slices.SortFunc(keys, canon.CompareKeys)
		o := canon.OpenObject(b)
		for _, k := range keys {
			o.Key(k)
			o.B = appendCanonical(o.B, v.MapIndex(reflect.ValueOf(k).Convert(v.Type().Key())))
		}
		return o.Close()
	case reflect.String:
		return canon.AppendString(b, v.String())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return canon.AppendInt(b, v.Int())
	case reflect.Float32, reflect.Float64:
		f := v.Float()
		if math.IsNaN(f) || math.IsInf(f, 0) {
			panic("freeport: non-finite number in a view")
		}
		return canon.AppendNumber(b, f)
	case reflect.Bool:
		return strconv.AppendBool(b, v.Bool())
	}
	panic("freeport: cannot encode a " + v.Type().String())
}

type field struct {
	name string
	v    reflect.Value
}

func structFields(v reflect.Value, out []field) []field {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		tag := sf.Tag.Get("json")
		if sf.Anonymous && tag == "" && sf.Type.Kind() == reflect.Struct {
			out = structFields(v.Field(i), out)
			continue
		}
		if !sf.IsExported() || tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if name == "" {
			name = sf.Name
		}
		fv := v.Field(i)
		if opts == "omitempty" && (fv.Kind() == reflect.Pointer || fv.Kind() == reflect.Interface) && fv.IsNil() {
			continue
		}
		out = append(out, field{name: name, v: fv})
	}
	return out
}
