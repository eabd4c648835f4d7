package condition

import (
	"fmt"

	"github.com/storyloom/storyloom/engine/strictjson"
)

// Operators of a comparison.
const (
	Equals         = "equals"
	NotEquals      = "not_equals"
	LessThan       = "less_than"
	LessOrEqual    = "less_or_equal"
	GreaterThan    = "greater_than"
	GreaterOrEqual = "greater_or_equal"
	In             = "in"
	NotIn          = "not_in"
	Contains       = "contains"
	HasTag         = "has_tag"
	HasFlag        = "has_flag"
)

var comparisonOps = map[string]bool{
	Equals: true, NotEquals: true, LessThan: true, LessOrEqual: true, GreaterThan: true,
	GreaterOrEqual: true, In: true, NotIn: true, Contains: true, HasTag: true, HasFlag: true,
}

var countOps = map[string]bool{
	Equals: true, NotEquals: true, LessThan: true, LessOrEqual: true, GreaterThan: true, GreaterOrEqual: true,
}

// Condition is one node of a condition tree. Exactly one form is set:
//
//	{"field": "var.gold", "operator": "greater_or_equal", "value": 10}
//	{"all": [...]}  {"any": [...]}  {"not": {...}}
//	{"exists": {"collection": "items", "where": {...}}}
//	{"count": {"collection": "items", "where": {...}}, "operator": "equals", "value": 2}
//
// Values are JSON values: strings, numbers (float64), booleans, null, or
// arrays of those for in and not_in.
type Condition struct {
	Field    string      `json:"field,omitempty"`
	Operator string      `json:"operator,omitempty"`
	Value    any         `json:"value,omitempty"`
	All      []Condition `json:"all,omitempty"`
	Any      []Condition `json:"any,omitempty"`
	Not      *Condition  `json:"not,omitempty"`
	Exists   *Quantifier `json:"exists,omitempty"`
	Count    *Quantifier `json:"count,omitempty"`
}

// Quantifier ranges a condition over a named collection.
type Quantifier struct {
	Collection string    `json:"collection"`
	Where      Condition `json:"where"`
}

// Resolver supplies the values a condition reads. Field returns the value of
// a field path and whether it exists; Collection returns the members of a
// named collection, each a Resolver of its own fields, and whether the
// collection exists.
type Resolver interface {
	Field(path string) (any, bool)
	Collection(name string) ([]Resolver, bool)
}

// MaxDepth bounds the nesting of a condition tree.
const MaxDepth = 32

// Parse decodes a condition from JSON, refusing unknown fields, and checks
// its shape (Check).
func Parse(data []byte) (Condition, error) {
	var c Condition
	if err := strictjson.Decode(data, &c); err != nil {
		return Condition{}, fmt.Errorf("condition: %w", err)
	}
	return c, c.Check()
}

// Check reports the first shape error of the tree: a node with no form or
// more than one, an unknown operator, a count compared with a non-number, an
// in or not_in without a list, or nesting deeper than MaxDepth.
func (c Condition) Check() error { return c.check("", 0) }

func (c Condition) check(path string, depth int) error {
	if depth > MaxDepth {
		return fmt.Errorf("condition%s: nested deeper than %d", path, MaxDepth)
	}
	forms := 0
	for _, set := range []bool{c.Field != "", c.All != nil, c.Any != nil, c.Not != nil, c.Exists != nil, c.Count != nil} {
		if set {
			forms++
		}
	}
	if forms != 1 {
		return fmt.Errorf("condition%s: needs exactly one of field, all, any, not, exists or count", path)
	}
	switch {
	case c.Field != "":
		if !comparisonOps[c.Operator] {
			return fmt.Errorf("condition%s: unknown operator %q", path, c.Operator)
		}
		if c.Operator == In || c.Operator == NotIn {
			if _, ok := c.Value.([]any); !ok {
				return fmt.Errorf("condition%s: %s needs a list value", path, c.Operator)
			}
		}
	case c.All != nil || c.Any != nil:
		list, name := c.All, "all"
		if c.Any != nil {
			list, name = c.Any, "any"
		}
		for i, sub := range list {
			if err := sub.check(fmt.Sprintf("%s.%s[%d]", path, name, i), depth+1); err != nil {
				return err
			}
		}
	case c.Not != nil:
		return c.Not.check(path+".not", depth+1)
	case c.Exists != nil:
		if c.Exists.Collection == "" {
			return fmt.Errorf("condition%s.exists: needs a collection", path)
		}
		return c.Exists.Where.check(path+".exists.where", depth+1)
	case c.Count != nil:
		if c.Count.Collection == "" {
			return fmt.Errorf("condition%s.count: needs a collection", path)
		}
		if !countOps[c.Operator] {
			return fmt.Errorf("condition%s: count needs an ordering or equality operator, not %q", path, c.Operator)
		}
		if _, ok := c.Value.(float64); !ok {
			return fmt.Errorf("condition%s: count compares with a number", path)
		}
		return c.Count.Where.check(path+".count.where", depth+1)
	}
	return nil
}

// Fields calls fn with every field path the tree reads outside quantifiers,
// and every collection name it quantifies over (with collection true), so a
// kind can validate them against its vocabulary.
func (c Condition) Fields(fn func(name string, collection bool)) {
	switch {
	case c.Field != "":
		fn(c.Field, false)
	case c.Not != nil:
		c.Not.Fields(fn)
	case c.Exists != nil:
		fn(c.Exists.Collection, true)
	case c.Count != nil:
		fn(c.Count.Collection, true)
	}
	for _, sub := range c.All {
		sub.Fields(fn)
	}
	for _, sub := range c.Any {
		sub.Fields(fn)
	}
}

// Eval evaluates c against r. It fails on an unknown collection, on an
// ordering comparison of values that are not both numbers or both strings,
// and on a shape error; a missing field is absent (nil), which equals only
// null.
func Eval(c Condition, r Resolver) (bool, error) {
	switch {
	case c.Field != "":
		v, _ := r.Field(c.Field)
		return compare(c.Field, c.Operator, v, c.Value)
	case c.All != nil:
		for _, sub := range c.All {
			ok, err := Eval(sub, r)
			if err != nil || !ok {
				return false, err
			}
		}
		return true, nil
	case c.Any != nil:
		for _, sub := range c.Any {
			ok, err := Eval(sub, r)
			if err != nil || ok {
				return ok, err
			}
		}
		return false, nil
	case c.Not != nil:
		ok, err := Eval(*c.Not, r)
		return !ok && err == nil, err
	case c.Exists != nil:
		members, ok := r.Collection(c.Exists.Collection)
		if !ok {
			return false, fmt.Errorf("condition: unknown collection %q", c.Exists.Collection)
		}
		for _, m := range members {
			ok, err := Eval(c.Exists.Where, m)
			if err != nil || ok {
				return ok, err
			}
		}
		return false, nil
	case c.Count != nil:
		members, ok := r.Collection(c.Count.Collection)
		if !ok {
			return false, fmt.Errorf("condition: unknown collection %q", c.Count.Collection)
		}
		n := 0
		for _, m := range members {
			ok, err := Eval(c.Count.Where, m)
			if err != nil {
				return false, err
			}
			if ok {
				n++
			}
		}
		return compare("count("+c.Count.Collection+")", c.Operator, float64(n), c.Value)
	}
	return false, fmt.Errorf("condition: empty condition")
}

func compare(field, op string, got, want any) (bool, error) {
	switch op {
	case Equals:
		return equal(got, want), nil
	case NotEquals:
		return !equal(got, want), nil
	case LessThan, LessOrEqual, GreaterThan, GreaterOrEqual:
		c, err := order(field, got, want)
		if err != nil {
			return false, err
		}
		switch op {
		case LessThan:
			return c < 0, nil
		case LessOrEqual:
			return c <= 0, nil
		case GreaterThan:
			return c > 0, nil
		}
		return c >= 0, nil
	case In, NotIn:
		list, ok := want.([]any)
		if !ok {
			return false, fmt.Errorf("condition: %s on %q needs a list value", op, field)
		}
		found := false
		for _, w := range list {
			if equal(got, w) {
				found = true
				break
			}
		}
		return found == (op == In), nil
	case Contains, HasTag, HasFlag:
		switch g := got.(type) {
		case []any:
			for _, x := range g {
				if equal(x, want) {
					return true, nil
				}
			}
			return false, nil
		case []string:
			s, _ := want.(string)
			for _, x := range g {
				if x == s {
					return true, nil
				}
			}
			return false, nil
		case map[string]bool:
			s, _ := want.(string)
			return g[s], nil
		case string:
			s, ok := want.(string)
			return ok && containsString(g, s), nil
		case nil:
			return false, nil
		}
		return false, fmt.Errorf("condition: %s on %q needs a list, set or string field", op, field)
	}
	return false, fmt.Errorf("condition: unknown operator %q", op)
}

func containsString(s, sub string) bool {
	return len(sub) <= len(s) && (sub == "" || indexOf(s, sub) >= 0)
}

func indexOf(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return i
		}
	}
	return -1
}

// number converts the numeric forms a resolver may return to float64.
func number(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, true
	case int:
		return float64(n), true
	case int64:
		return float64(n), true
	}
	return 0, false
}

func equal(a, b any) bool {
	if x, ok := number(a); ok {
		y, ok := number(b)
		return ok && x == y
	}
	switch x := a.(type) {
	case nil:
		return b == nil
	case string:
		y, ok := b.(string)
		return ok && x == y
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	}
	return false
}

// sign is -1 when x < y, 1 when x > y, else 0 (a NaN orders as equal).
func sign[T float64 | string](x, y T) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

func order(field string, a, b any) (int, error) {
	if x, ok := number(a); ok {
		if y, ok := number(b); ok {
			return sign(x, y), nil
		}
	}
	if x, ok := a.(string); ok {
		if y, ok := b.(string); ok {
			return sign(x, y), nil
		}
	}
	if a == nil {
		return 0, fmt.Errorf("condition: field %q is absent and cannot be ordered", field)
	}
	return 0, fmt.Errorf("condition: cannot order %q (%T) against %T", field, a, b)
}
