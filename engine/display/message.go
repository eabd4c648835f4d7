package display

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Plural returns the CLDR plural category of the whole number n in locale:
// "one", "many" or "other". Storyloom ships English and French; French
// puts 0 and 1 in "one" and exact millions in "many", English puts only 1
// in "one", and any other locale gets the English rule. A negative number
// takes the category of its absolute value, as CLDR and Intl.PluralRules do.
func Plural(locale string, n int64) string {
	if n < 0 {
		n = -n
	}
	lang, _, _ := strings.Cut(locale, "-")
	if lang == "fr" {
		switch {
		case n == 0 || n == 1:
			return "one"
		case n%1000000 == 0:
			return "many"
		}
		return "other"
	}
	if n == 1 {
		return "one"
	}
	return "other"
}

// Categories returns the CLDR plural categories Plural picks from in
// locale, in CLDR order: "one" and "other" in English (and any locale
// without rules of its own), "one", "many" and "other" in French.
func Categories(locale string) []string {
	if lang, _, _ := strings.Cut(locale, "-"); lang == "fr" {
		return []string{"one", "many", "other"}
	}
	return []string{"one", "other"}
}

// pluralCategories are the CLDR category names a plural selector may use.
var pluralCategories = map[string]bool{"zero": true, "one": true, "two": true, "few": true, "many": true, "other": true}

// SyntaxError is a malformed argument in a message: Offset is the byte at
// which the argument opens, Reason a stable code (plural_unterminated,
// plural_syntax, plural_unknown_category, plural_duplicate, plural_no_other,
// unsupported_format; plural_category_unused from CheckPlurals).
type SyntaxError struct {
	Offset int
	Reason string
	Msg    string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("display: %s at byte %d: %s", e.Reason, e.Offset, e.Msg)
}

// arg is one parsed argument: {name} or {name, plural, sel {body} ...}.
type arg struct {
	name     string
	plural   bool
	branches []branch
	end      int // index just past the closing brace
}

type branch struct {
	sel  string
	body string
	at   int // offset of body within the message
}

func isNameChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

func skipSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n') {
		i++
	}
	return i
}

// parseArg parses the argument whose '{' is text[i]. ok is false when the
// brace is literal text; err is set when it opens an argument with a
// format ("{name, ...") that is malformed.
func parseArg(text string, i int) (a arg, ok bool, err *SyntaxError) {
	j := i + 1
	for j < len(text) && isNameChar(text[j]) {
		j++
	}
	if j == i+1 || j >= len(text) {
		return a, false, nil
	}
	a.name = text[i+1 : j]
	if text[j] == '}' {
		a.end = j + 1
		return a, true, nil
	}
	k := skipSpace(text, j)
	if k >= len(text) || text[k] != ',' {
		return a, false, nil
	}
	fail := func(reason, format string, args ...any) (arg, bool, *SyntaxError) {
		return arg{}, false, &SyntaxError{Offset: i, Reason: reason, Msg: fmt.Sprintf(format, args...)}
	}
	k = skipSpace(text, k+1)
	w := k
	for k < len(text) && isNameChar(text[k]) {
		k++
	}
	if text[w:k] != "plural" {
		return fail("unsupported_format", "{%s, %s} is not a format Storyloom knows; use {%s} or {%s, plural, ...}", a.name, text[w:k], a.name, a.name)
	}
	a.plural = true
	k = skipSpace(text, k)
	if k >= len(text) || text[k] != ',' {
		return fail("plural_syntax", "{%s, plural needs a comma before its cases", a.name)
	}
	seen := map[string]bool{}
	k = skipSpace(text, k+1)
	for {
		if k >= len(text) {
			return fail("plural_unterminated", "{%s, plural, ...} has no closing brace", a.name)
		}
		if text[k] == '}' {
			break
		}
		s := k
		if text[k] == '=' {
			k++
		}
		for k < len(text) && isNameChar(text[k]) {
			k++
		}
		sel := text[s:k]
		if exact, isExact := strings.CutPrefix(sel, "="); isExact {
			if _, perr := strconv.ParseInt(exact, 10, 64); perr != nil {
				return fail("plural_syntax", "%q is not an exact number case", sel)
			}
		} else if sel == "" {
			return fail("plural_syntax", "{%s, plural, ...} expects a case name at %q", a.name, clip(text[k:]))
		} else if !pluralCategories[sel] {
			return fail("plural_unknown_category", "%q is not a plural category (zero, one, two, few, many, other or =N)", sel)
		}
		if seen[sel] {
			return fail("plural_duplicate", "case %q appears twice", sel)
		}
		seen[sel] = true
		k = skipSpace(text, k)
		if k >= len(text) || text[k] != '{' {
			return fail("plural_syntax", "case %q needs its text in braces", sel)
		}
		depth, b := 1, k+1
		for k++; k < len(text) && depth > 0; k++ {
			switch text[k] {
			case '{':
				depth++
			case '}':
				depth--
			}
		}
		if depth > 0 {
			return fail("plural_unterminated", "case %q has no closing brace", sel)
		}
		a.branches = append(a.branches, branch{sel: sel, body: text[b : k-1], at: b})
		k = skipSpace(text, k)
	}
	if !seen["other"] {
		return fail("plural_no_other", "{%s, plural, ...} needs an \"other\" case", a.name)
	}
	a.end = k + 1
	return a, true, nil
}

func clip(s string) string {
	if len(s) > 12 {
		return s[:12] + "…"
	}
	return s
}

// pick returns the body a plural argument shows for n in locale: an exact
// "=n" case first, then n's category, then "other".
func (a *arg) pick(locale string, n int64) string {
	exact, cat := "="+strconv.FormatInt(n, 10), Plural(locale, n)
	var byCat, other string
	for _, b := range a.branches {
		switch b.sel {
		case exact:
			return b.body
		case cat:
			byCat = b.body
		}
		if b.sel == "other" {
			other = b.body
		}
	}
	if byCat != "" || cat == "other" {
		return byCat
	}
	return other
}

func number(v any) (int64, bool) {
	switch x := v.(type) {
	case int:
		return int64(x), true
	case int64:
		return x, true
	}
	return 0, false
}

// Fill renders text in English (Storyloom's default locale); see FillIn.
func Fill(text string, params map[string]any) string { return FillIn("en", text, params) }

// FillIn renders text for locale: each {name} placeholder becomes
// params[name] when that is a string, int or int64, and each ICU-style
// {name, plural, one {# item} other {# items}} becomes the case that fits
// the whole number params[name] (an exact "=n" case first, then its CLDR
// category in locale, then "other"), with # standing for the number.
// Placeholders without a usable param, and malformed ones, stay as written.
func FillIn(locale, text string, params map[string]any) string {
	if !strings.Contains(text, "{") {
		return text
	}
	return fill(locale, text, params, "")
}

// fill renders text; hash, when not empty, is what # stands for (the
// number of the innermost plural case text is the body of).
func fill(locale, text string, params map[string]any, hash string) string {
	var b strings.Builder
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c == '#' && hash != "" {
			b.WriteString(hash)
			continue
		}
		if c != '{' {
			b.WriteByte(c)
			continue
		}
		a, ok, _ := parseArg(text, i)
		if !ok {
			b.WriteByte(c)
			continue
		}
		v := params[a.name]
		if a.plural {
			if n, isNum := number(v); isNum {
				b.WriteString(fill(locale, a.pick(locale, n), params, strconv.FormatInt(n, 10)))
				i = a.end - 1
				continue
			}
			b.WriteString(text[i:a.end])
			i = a.end - 1
			continue
		}
		switch x := v.(type) {
		case string:
			b.WriteString(x)
		case int, int64:
			n, _ := number(x)
			b.WriteString(strconv.FormatInt(n, 10))
		default:
			b.WriteString(text[i:a.end])
		}
		i = a.end - 1
	}
	return b.String()
}

// CheckPlurals returns what is wrong with text as a message in locale:
// each malformed argument (as Arguments reports it), and each plural case
// of a category locale never picks (plural_category_unused: "few" in
// English, "two" in French), which would never be shown. Exact "=n" cases
// fit every locale.
func CheckPlurals(locale, text string) []*SyntaxError {
	used := Categories(locale)
	var unused []*SyntaxError
	errs := walkArgs(text, func(a *arg, offset int) {
		for _, br := range a.branches {
			if !strings.HasPrefix(br.sel, "=") && !slices.Contains(used, br.sel) {
				unused = append(unused, &SyntaxError{Offset: offset, Reason: "plural_category_unused",
					Msg: fmt.Sprintf("{%s, plural, ...} has a %q case, which %s never picks (it picks %s)", a.name, br.sel, locale, strings.Join(used, ", "))})
			}
		}
	})
	return append(errs, unused...)
}

// Argument is one argument a message shows: its name, whether it is a
// plural (which needs a whole number), and the byte offset it opens at.
type Argument struct {
	Name   string
	Plural bool
	Offset int
}

// Arguments returns every argument of text, including those inside plural
// cases, in order, and the syntax errors of the malformed ones. A brace
// that opens no argument is literal text.
func Arguments(text string) ([]Argument, []*SyntaxError) {
	var args []Argument
	errs := walkArgs(text, func(a *arg, offset int) {
		args = append(args, Argument{Name: a.name, Plural: a.plural, Offset: offset})
	})
	return args, errs
}

// walkArgs calls visit with every well-formed argument of text, those
// inside plural cases included, in order, with the byte offset it opens
// at, and returns the syntax errors of the malformed ones.
func walkArgs(text string, visit func(a *arg, offset int)) []*SyntaxError {
	var errs []*SyntaxError
	var walk func(s string, base int)
	walk = func(s string, base int) {
		for i := 0; i < len(s); i++ {
			if s[i] != '{' {
				continue
			}
			a, ok, err := parseArg(s, i)
			if err != nil {
				err.Offset += base
				errs = append(errs, err)
				continue
			}
			if !ok {
				continue
			}
			visit(&a, base+i)
			for _, br := range a.branches {
				walk(br.body, base+br.at)
			}
			i = a.end - 1
		}
	}
	walk(text, 0)
	return errs
}
