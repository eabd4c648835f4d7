// Package displayname is the product's one policy for names people show
// each other: a rooms player's display name and a table's name, and a
// Freeport Trading Name. It is the Nickname profile of PRECIS (RFC 8266,
// golang.org/x/text/secure/precis) with two limits of its own:
//
//   - PRECIS maps fullwidth and halfwidth forms and compatibility
//     characters to their plain forms (NFKC), trims spaces and collapses
//     runs of them, and refuses control, format (invisible) and
//     unassigned code points and private use.
//   - No direction controls (marks, embeddings, overrides, isolates),
//     which PRECIS leaves to the application.
//   - At most MaxMarks combining marks on one character (counted
//     decomposed), so a name cannot draw over its neighbours' rows, and
//     1..MaxRunes characters.
//
// The engines (engine/rooms, engine/freeport) have no third-party
// dependencies, so the hosts pass Check to them (rooms.Server's and
// freeport.Game's SetNamePolicy). A refusal is an *Error whose Code says
// which rule it broke, so that an impostor's zero-width space is told
// apart from a typo.
package displayname

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/secure/precis"
	"golang.org/x/text/unicode/norm"
)

// Limits of a name, after normalization.
const (
	// MaxRunes is the longest name, in characters.
	MaxRunes = 32
	// MaxMarks is the most combining marks one character may carry
	// (Vietnamese needs two).
	MaxMarks = 3
)

// Reason codes of a refused name.
const (
	ReasonEmpty       = "name_empty"                // nothing left once spaces are trimmed
	ReasonTooLong     = "name_too_long"             // over MaxRunes characters
	ReasonInvalidUTF8 = "name_invalid_utf8"         // bytes that are not UTF-8
	ReasonControl     = "name_control_character"    // a control character: tab, newline, NUL, DEL, …
	ReasonInvisible   = "name_invisible_character"  // a format character that draws nothing: zero-width space, word joiner, soft hyphen, BOM, …
	ReasonBidi        = "name_bidi_control"         // a direction mark, embedding, override or isolate
	ReasonMarks       = "name_too_many_marks"       // over MaxMarks combining marks on one character
	ReasonDisallowed  = "name_disallowed_character" // anything else PRECIS refuses: unassigned, private use, …
)

// Error is a refused name.
type Error struct {
	// Code is one of the Reason constants.
	Code string
	// Message says what was refused, naming the code point when one is
	// at fault.
	Message string
}

// Error implements error.
func (e *Error) Error() string { return e.Code + ": " + e.Message }

// ReasonCode returns Code; the engines read it to put the reason in
// their refusals.
func (e *Error) ReasonCode() string { return e.Code }

func refuse(code, format string, args ...any) (string, error) {
	return "", &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Check returns name normalized under the policy, or an *Error saying why
// it is refused.
func Check(name string) (string, error) {
	if !utf8.ValidString(name) {
		return refuse(ReasonInvalidUTF8, "a name must be UTF-8 text")
	}
	for _, r := range name {
		switch {
		case unicode.Is(unicode.Bidi_Control, r):
			return refuse(ReasonBidi, "%U changes the text's direction and is not allowed in a name", r)
		case unicode.IsControl(r):
			return refuse(ReasonControl, "the control character %U is not allowed in a name", r)
		case unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r) || unicode.Is(unicode.Variation_Selector, r):
			return refuse(ReasonInvisible, "%U draws nothing and is not allowed in a name", r)
		}
	}
	if strings.TrimFunc(name, unicode.IsSpace) == "" {
		return refuse(ReasonEmpty, "a name needs at least one character that is not a space")
	}
	marks := 0
	for _, r := range norm.NFD.String(name) {
		if unicode.In(r, unicode.Mn, unicode.Me, unicode.Mc) {
			if marks++; marks > MaxMarks {
				return refuse(ReasonMarks, "a character carries more than %d combining marks", MaxMarks)
			}
		} else {
			marks = 0
		}
	}
	out, err := precis.Nickname.String(name)
	if err != nil {
		for _, r := range name {
			if _, e := precis.Nickname.String(string(r)); e != nil && !unicode.IsSpace(r) {
				return refuse(ReasonDisallowed, "%U %q is not allowed in a name", r, r)
			}
		}
		return refuse(ReasonDisallowed, "the name is not allowed: %v", err)
	}
	if n := utf8.RuneCountInString(out); n > MaxRunes {
		return refuse(ReasonTooLong, "a name is at most %d characters, not %d", MaxRunes, n)
	}
	return out, nil
}
