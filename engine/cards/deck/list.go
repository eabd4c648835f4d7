package deck

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/storyloom/storyloom/engine/cards/card"
)

// MaxListLines and MaxCount bound a pasted deck list.
const (
	MaxListLines = 500
	MaxCount     = 99
)

// List is a parsed deck list: the deck's functional ids, one per copy, in
// the order written, and the designated commander's id, if any.
type List struct {
	Cards     []string
	Commander string
}

// LineError is one line of a deck list that could not be read.
type LineError struct {
	Line   int    // 1-based line number
	Text   string // the line as written, trimmed
	Reason string // what is wrong
}

// Error reads `line 3: "4 Emberlash": no card is named "Emberlash"`.
func (e *LineError) Error() string {
	return fmt.Sprintf("line %d: %q: %s", e.Line, e.Text, e.Reason)
}

// ListError lists every line of a deck list that could not be read.
type ListError []*LineError

// Error joins the lines' errors.
func (l ListError) Error() string {
	parts := make([]string, len(l))
	for i, e := range l {
		parts[i] = e.Error()
	}
	return "deck: " + strings.Join(parts, "; ")
}

// ParseList reads a deck list: one "4 Card Name" (or "4x Card Name", or
// "Card Name" for one copy) per line, names in any letter case; blank
// lines and lines starting with "#" or "//" are ignored. A line
// "Commander: Card Name" designates the commander and adds it to the deck.
// A non-nil error is a ListError naming every bad line.
func ParseList(text string, c *card.Catalog) (List, error) {
	var l List
	var errs ListError
	lines := strings.Split(text, "\n")
	if len(lines) > MaxListLines {
		return List{}, ListError{{Line: MaxListLines + 1, Reason: fmt.Sprintf("a deck list has at most %d lines", MaxListLines)}}
	}
	for i, raw := range lines {
		line := strings.TrimSpace(raw)
		if line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, "//") {
			continue
		}
		fail := func(format string, args ...any) {
			errs = append(errs, &LineError{Line: i + 1, Text: line, Reason: fmt.Sprintf(format, args...)})
		}
		n, name := 1, line
		commander := false
		if head, rest, ok := strings.Cut(line, ":"); ok && strings.EqualFold(strings.TrimSpace(head), "commander") {
			commander, name = true, strings.TrimSpace(rest)
		} else if num, rest, ok := strings.Cut(line, " "); ok && startsWithDigit(num) {
			v, err := strconv.Atoi(strings.TrimSuffix(strings.ToLower(num), "x"))
			if err != nil || v < 1 || v > MaxCount {
				fail("the count %q is not a number from 1 to %d", num, MaxCount)
				continue
			}
			n, name = v, strings.TrimSpace(rest)
		}
		d, ok := c.ByName(name)
		switch {
		case !ok:
			fail("no card is named %q", name)
			continue
		case commander && l.Commander != "":
			fail("the deck already has a commander")
			continue
		case commander:
			l.Commander = d.ID
		}
		for range n {
			l.Cards = append(l.Cards, d.ID)
		}
	}
	if len(errs) > 0 {
		return List{}, errs
	}
	return l, nil
}

func startsWithDigit(s string) bool { return s != "" && s[0] >= '0' && s[0] <= '9' }
