package core

import (
	"fmt"
	"math"
	"sort"
	"unicode/utf8"
)

// Params are an action's parameters: a flat record whose values are strings,
// booleans or finite numbers (float64, as JSON decodes them). A kind declares
// which keys each of its actions accepts and refuses any other.
type Params map[string]any

// MaxParams bounds how many parameters one action may carry.
const MaxParams = 16

// Validate reports whether every value is a string, a bool or a finite
// float64, names and strings are valid UTF-8 (a log must always encode and
// load back), and the record is within MaxParams.
func (p Params) Validate() error {
	if len(p) > MaxParams {
		return fmt.Errorf("at most %d params, got %d", MaxParams, len(p))
	}
	for k, v := range p {
		if !utf8.ValidString(k) {
			return fmt.Errorf("a param name is not valid UTF-8")
		}
		switch x := v.(type) {
		case string:
			if !utf8.ValidString(x) {
				return fmt.Errorf("param %q is not valid UTF-8", k)
			}
		case bool:
		case float64:
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return fmt.Errorf("param %q is not a finite number", k)
			}
		default:
			return fmt.Errorf("param %q has type %T; want string, number or boolean", k, v)
		}
	}
	return nil
}

// Clone returns a copy of p; the engine owns what it logs (§4).
func (p Params) Clone() Params {
	if p == nil {
		return nil
	}
	c := make(Params, len(p))
	for k, v := range p {
		c[k] = v
	}
	return c
}

// Keys returns the parameter names in sorted order.
func (p Params) Keys() []string {
	keys := make([]string, 0, len(p))
	for k := range p {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Int returns the integer parameter name. ok is false when it is absent;
// err is set when it is present but not an integer in [min, max].
func (p Params) Int(name string, min, max int64) (v int64, ok bool, err error) {
	raw, present := p[name]
	if !present {
		return 0, false, nil
	}
	f, isNum := raw.(float64)
	if !isNum || f != math.Trunc(f) || f < float64(min) || f > float64(max) {
		return 0, true, fmt.Errorf("param %q must be an integer in [%d, %d]", name, min, max)
	}
	return int64(f), true, nil
}

// String returns the string parameter name. ok is false when it is absent;
// err is set when it is present but not a string.
func (p Params) String(name string) (v string, ok bool, err error) {
	raw, present := p[name]
	if !present {
		return "", false, nil
	}
	s, isStr := raw.(string)
	if !isStr {
		return "", true, fmt.Errorf("param %q must be a string", name)
	}
	return s, true, nil
}

// Unexpected returns the first key of p (in sorted order) not in allowed, or
// "" when every key is declared.
func (p Params) Unexpected(allowed ...string) string {
	for _, k := range p.Keys() {
		found := false
		for _, a := range allowed {
			if k == a {
				found = true
				break
			}
		}
		if !found {
			return k
		}
	}
	return ""
}
