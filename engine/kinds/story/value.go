package story

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// Variable types.
const (
	TypeInt    = "int"
	TypeBool   = "bool"
	TypeString = "string"
)

// maxSafeInt is the largest integer JSON carries exactly (2^53 - 1); int
// values are kept within ±maxSafeInt so that every state encodes losslessly.
const maxSafeInt = 1<<53 - 1

// Value is a variable's value: an int, a bool or a string. Its JSON form is
// the plain JSON value; an int is an integral number within ±(2^53 - 1).
type Value struct {
	Type string
	Int  int64
	Bool bool
	Str  string
}

// IntValue returns an int Value.
func IntValue(n int64) Value { return Value{Type: TypeInt, Int: n} }

// BoolValue returns a bool Value.
func BoolValue(b bool) Value { return Value{Type: TypeBool, Bool: b} }

// StringValue returns a string Value.
func StringValue(s string) Value { return Value{Type: TypeString, Str: s} }

// Any returns the value as int64, bool or string, the form conditions and
// audit records carry.
func (v Value) Any() any {
	switch v.Type {
	case TypeInt:
		return v.Int
	case TypeBool:
		return v.Bool
	case TypeString:
		return v.Str
	}
	return nil
}

// Equal reports whether v and w are the same typed value.
func (v Value) Equal(w Value) bool { return v == w }

// String renders the value as text interpolation shows it.
func (v Value) String() string {
	switch v.Type {
	case TypeInt:
		return strconv.FormatInt(v.Int, 10)
	case TypeBool:
		return strconv.FormatBool(v.Bool)
	}
	return v.Str
}

// MarshalJSON writes the plain JSON value.
func (v Value) MarshalJSON() ([]byte, error) {
	switch v.Type {
	case TypeInt:
		return strconv.AppendInt(nil, v.Int, 10), nil
	case TypeBool:
		return strconv.AppendBool(nil, v.Bool), nil
	case TypeString:
		return json.Marshal(v.Str)
	}
	return nil, fmt.Errorf("story: value has no type")
}

// UnmarshalJSON reads a JSON number (which must be an integer within
// ±(2^53 - 1)), boolean or string.
func (v *Value) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return fmt.Errorf("story: empty value")
	}
	switch c := data[0]; {
	case c == 't' || c == 'f':
		var b bool
		if err := json.Unmarshal(data, &b); err != nil {
			return err
		}
		*v = BoolValue(b)
	case c == '"':
		var s string
		if err := json.Unmarshal(data, &s); err != nil {
			return err
		}
		*v = StringValue(s)
	case c == '-' || c >= '0' && c <= '9':
		n, err := strconv.ParseInt(string(data), 10, 64)
		if err != nil || n > maxSafeInt || n < -maxSafeInt {
			return fmt.Errorf("story: %s is not an integer within ±(2^53-1)", data)
		}
		*v = IntValue(n)
	default:
		return fmt.Errorf("story: a value must be an integer, a boolean or a string, not %s", truncate(data))
	}
	return nil
}

func truncate(b []byte) string {
	if len(b) > 40 {
		return string(b[:40]) + "…"
	}
	return string(b)
}
