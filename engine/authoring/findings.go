package authoring

import (
	"fmt"
	"maps"

	"github.com/storyloom/storyloom/engine/condition"
	"github.com/storyloom/storyloom/engine/core"
)

// Reason codes of tier 1 findings. A kind using this package declares
// them among its own codes (with the messages of ReasonMessages), so each
// has a "<kindId>.reason.<code>" message.
const (
	ReasonInvalidNumber    = "invalid_number"
	ReasonUnknownReference = "unknown_reference"
	ReasonDuplicateID      = "duplicate_id"
	ReasonReservedID       = "reserved_id"
	ReasonMissingField     = "missing_field"
	ReasonInvalidCondition = "invalid_condition"
)

// ReasonMessages returns a kind's reason table: own (code → English
// message) together with the messages of the reason codes above.
func ReasonMessages(own map[string]string) map[string]string {
	m := map[string]string{
		ReasonInvalidNumber:    "A number is missing, not a whole number, or out of range.",
		ReasonUnknownReference: "A reference names something the campaign does not declare.",
		ReasonDuplicateID:      "Two elements share one id.",
		ReasonReservedID:       "That id is reserved by the engine.",
		ReasonMissingField:     "A required field is missing.",
		ReasonInvalidCondition: "A condition is malformed.",
	}
	maps.Copy(m, own)
	return m
}

// Findings collects the tier 1 errors of one kind's content. KindID is the
// kind's id (the namespace of its reason messages) and Prefix the word its
// messages start with, such as "sim".
type Findings struct {
	KindID string
	Prefix string
	Errs   []core.ValidationError
}

// Add records a finding of a kind-owned code at path; the message is
// "<prefix>: " and format.
func (f *Findings) Add(code, path, format string, args ...any) {
	f.Errs = append(f.Errs, core.KindErrorf(f.KindID, code, path, f.Prefix+": "+format, args...))
}

// AddBase records a finding of a base (core) code at path.
func (f *Findings) AddBase(code, path, format string, args ...any) {
	f.Errs = append(f.Errs, core.Errorf(code, path, f.Prefix+": "+format, args...))
}

// Range reports v at path as invalid_number unless min ≤ v ≤ max.
func (f *Findings) Range(path string, v, min, max int64) {
	if v < min || v > max {
		f.Add(ReasonInvalidNumber, path, "%d is out of range [%d, %d]", v, min, max)
	}
}

// ID checks the id of the list element at path: present, snake_case, and
// not in seen, which it joins.
func (f *Findings) ID(seen map[string]bool, path, id string) {
	switch {
	case id == "":
		f.Add(ReasonMissingField, path+".id", "missing id")
	case !core.IsSnakeID(id):
		f.AddBase(core.ReasonInvalidIdentifier, path+".id", "%q is not a snake_case id", id)
	case seen[id]:
		f.Add(ReasonDuplicateID, path+".id", "id %q is declared twice", id)
	}
	seen[id] = true
}

// ElemPath names element i of list by its id when the id is usable, else
// by its position: "content.goals.rich" or "content.goals[3]".
func ElemPath(list string, i int, id string) string {
	if core.IsSnakeID(id) {
		return list + "." + id
	}
	return fmt.Sprintf("%s[%d]", list, i)
}

// The kinds of condition field a vocabulary knows.
const (
	FieldNumber = "number" // compared with numbers
	FieldFlags  = "flags"  // a set of flag ids, read with has_flag or contains
)

// Condition checks the condition at path: its shape, and that every field
// it reads is one the kind's vocabulary knows — fieldKind returns
// FieldNumber, FieldFlags, or "" for an unknown field — compared with
// values of the right type. A kind using it has no collections, so exists
// and count are refused.
func (f *Findings) Condition(path string, c condition.Condition, fieldKind func(string) string) {
	if err := c.Check(); err != nil {
		f.Add(ReasonInvalidCondition, path, "%v", err)
		return
	}
	var walk func(c condition.Condition)
	walk = func(c condition.Condition) {
		switch {
		case c.Field != "":
			switch fieldKind(c.Field) {
			case "":
				f.Add(ReasonUnknownReference, path, "unknown field %q", c.Field)
			case FieldNumber:
				switch c.Operator {
				case condition.In, condition.NotIn:
					for _, v := range c.Value.([]any) {
						if _, ok := v.(float64); !ok {
							f.Add(ReasonInvalidCondition, path, "field %q is a number; %s needs numbers", c.Field, c.Operator)
						}
					}
				case condition.Contains, condition.HasTag, condition.HasFlag:
					f.Add(ReasonInvalidCondition, path, "field %q is a number; %s does not apply", c.Field, c.Operator)
				default:
					if _, ok := c.Value.(float64); !ok {
						f.Add(ReasonInvalidCondition, path, "field %q is a number; compare it with a number", c.Field)
					}
				}
			case FieldFlags:
				if _, ok := c.Value.(string); !ok || (c.Operator != condition.HasFlag && c.Operator != condition.Contains) {
					f.Add(ReasonInvalidCondition, path, "field %q takes has_flag with a flag id", c.Field)
				}
			}
		case c.Not != nil:
			walk(*c.Not)
		case c.Exists != nil || c.Count != nil:
			f.Add(ReasonUnknownReference, path, "the %s kind has no collections to quantify over", f.KindID)
		}
		for _, sub := range c.All {
			walk(sub)
		}
		for _, sub := range c.Any {
			walk(sub)
		}
	}
	walk(c)
}

// KeyAt is a LocKey the content uses and the path it stands at.
type KeyAt struct {
	Key  core.LocKey
	Path string
}

// Keys lists the LocKeys content uses, each with its path.
type Keys []KeyAt

// Add appends key, which stands at path.
func (ks *Keys) Add(key core.LocKey, path string) { *ks = append(*ks, KeyAt{Key: key, Path: path}) }

// MissingText reports every key of keys that strings has no text for as
// missing_string_key at its path.
func (f *Findings) MissingText(keys Keys, strings map[core.LocKey]string) {
	for _, k := range keys {
		if _, ok := strings[k.Key]; !ok {
			f.AddBase(core.ReasonMissingStringKey, k.Path, "no text for %q", k.Key)
		}
	}
}

// NoContent is ValidateCampaign's result for a campaign whose content is
// not the kind's: one missing_field finding at "content".
func (f *Findings) NoContent(c *core.Campaign) core.ValidationResult {
	err := core.KindErrorf(f.KindID, ReasonMissingField, "content", "%s: campaign %q has no %s content", f.Prefix, c.ID, f.KindID)
	return core.ValidationResult{Errors: []core.ValidationError{err}, Warnings: []core.ValidationWarning{}}
}
