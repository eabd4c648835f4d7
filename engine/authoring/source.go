package authoring

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/storyloom/storyloom/engine/condition"
	"github.com/storyloom/storyloom/engine/core"
)

// Num is a JSON number as an author wrote it: Set when present, Bad when
// it is not a whole number that fits in 64 bits. Tier 1 reports a bad
// number at its path rather than failing the whole document.
type Num struct {
	Value int64
	Set   bool
	Bad   bool
}

// UnmarshalJSON reads a JSON number; anything else is an error.
func (n *Num) UnmarshalJSON(b []byte) error {
	var x json.Number
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&x); err != nil {
		return fmt.Errorf("want a number, got %s", b)
	}
	n.Set = true
	v, err := strconv.ParseInt(x.String(), 10, 64)
	if err != nil {
		n.Bad = true
		return nil
	}
	n.Value = v
	return nil
}

// Builder turns a source document into runtime content: it lifts inline
// text to LocKeys and converts numbers, collecting the lifted strings in
// the order they appear and the findings on the way.
type Builder struct {
	Findings
	// Campaign is the campaign's id, the namespace of derived keys.
	Campaign string
	// Strings are the authored texts lifted so far.
	Strings []core.AuthoredText
}

// Text lifts t: its own key, or "<campaign>.<key>" when the author named
// none. Absent text is missing_field when required and "" otherwise; a
// key that is not a dotted LocKey is invalid_loc_key.
func (b *Builder) Text(t core.SourceText, key, path string, required bool) core.LocKey {
	if t.Text == "" && t.Key == "" {
		if required {
			b.Add(ReasonMissingField, path, "missing text")
		}
		return ""
	}
	lifted := t.Lift(b.Campaign + "." + key)
	if !core.IsLocKey(lifted.Key) {
		b.AddBase(core.ReasonInvalidLocKey, path, "%q is not a dotted LocKey", lifted.Key)
	}
	if lifted.Text == "" {
		b.Add(ReasonMissingField, path, "missing text")
	}
	b.Strings = append(b.Strings, lifted)
	return lifted.Key
}

// Int converts n at path: def when the author left it out, or a
// missing_field finding (and 0) when required; invalid_number (and 0) when
// it is not a whole number.
func (b *Builder) Int(n Num, path string, def int64, required bool) int64 {
	switch {
	case n.Bad:
		b.Add(ReasonInvalidNumber, path, "not a whole number")
		return 0
	case !n.Set && required:
		b.Add(ReasonMissingField, path, "missing number")
		return 0
	case !n.Set:
		return def
	}
	return n.Value
}

// Cond returns the required condition c at path; when it is absent, a
// missing_field finding and placeholder, so building can go on.
func (b *Builder) Cond(c *condition.Condition, path string, placeholder condition.Condition) condition.Condition {
	if c == nil {
		b.Add(ReasonMissingField, path, "missing condition")
		return placeholder
	}
	return *c
}

// Finish returns the builder's findings followed by those of checked (the
// tier 1 checks of the content built) at paths the builder has not
// already reported.
func (b *Builder) Finish(checked []core.ValidationError) []core.ValidationError {
	errs := b.Errs
	reported := map[string]bool{}
	for _, e := range errs {
		reported[e.Path] = true
	}
	for _, e := range checked {
		if !reported[e.Path] {
			errs = append(errs, e)
		}
	}
	return errs
}
