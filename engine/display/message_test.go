package display

import (
	"fmt"
	"strings"
	"testing"
)

func TestPlural(t *testing.T) {
	tests := []struct {
		locale string
		n      int64
		want   string
	}{
		{"en", 0, "other"},
		{"en", 1, "one"},
		{"en", 2, "other"},
		{"en", -1, "one"},
		{"en-GB", 1, "one"},
		{"fr", 0, "one"},
		{"fr", 1, "one"},
		{"fr", 2, "other"},
		{"fr", 1000000, "many"},
		{"fr-CA", 1, "one"},
		{"de", 1, "one"},
		{"de", 0, "other"},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%s_%d", tc.locale, tc.n), func(t *testing.T) {
			if got := Plural(tc.locale, tc.n); got != tc.want {
				t.Fatalf("Plural(%q, %d) = %q, want %q", tc.locale, tc.n, got, tc.want)
			}
		})
	}
}

func TestFillInPlural(t *testing.T) {
	const hours = "{hours, plural, one {# hour} other {# hours}} left"
	const fr = "{n, plural, one {# indice} other {# indices}}"
	tests := []struct {
		name   string
		locale string
		text   string
		params map[string]any
		want   string
	}{
		{"en one", "en", hours, map[string]any{"hours": int64(1)}, "1 hour left"},
		{"en two", "en", hours, map[string]any{"hours": 2}, "2 hours left"},
		{"en zero", "en", hours, map[string]any{"hours": 0}, "0 hours left"},
		{"fr zero", "fr", fr, map[string]any{"n": 0}, "0 indice"},
		{"fr one", "fr", fr, map[string]any{"n": 1}, "1 indice"},
		{"fr two", "fr", fr, map[string]any{"n": 2}, "2 indices"},
		{"fr many falls back to other", "fr", fr, map[string]any{"n": 2000000}, "2000000 indices"},
		{"exact case wins", "en", "{n, plural, =0 {none} one {one} other {#}}", map[string]any{"n": 0}, "none"},
		{"nested placeholder", "en", "{n, plural, one {# clue, {who}} other {# clues, {who}}}", map[string]any{"n": 3, "who": "Maud"}, "3 clues, Maud"},
		{"hash outside plural is literal", "en", "#1 {n}", map[string]any{"n": 1}, "#1 1"},
		{"missing param stays", "en", hours, nil, hours},
		{"string param to plural stays", "en", hours, map[string]any{"hours": "x"}, hours},
		{"malformed stays", "en", "{n, plural, one {a}}", map[string]any{"n": 1}, "{n, plural, one {a}}"},
		{"literal braces", "en", "a {} b { c", nil, "a {} b { c"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := FillIn(tc.locale, tc.text, tc.params); got != tc.want {
				t.Fatalf("FillIn(%q, %q) = %q, want %q", tc.locale, tc.text, got, tc.want)
			}
		})
	}
}

func TestArgumentsReportsMalformedPlurals(t *testing.T) {
	tests := []struct {
		name   string
		text   string
		reason string
		offset int
	}{
		{"no other", "Left: {n, plural, one {# hour}}", "plural_no_other", 6},
		{"unknown category", "{n, plural, single {a} other {b}}", "plural_unknown_category", 0},
		{"duplicate", "{n, plural, one {a} one {b} other {c}}", "plural_duplicate", 0},
		{"unterminated", "x {n, plural, one {a} other {b}", "plural_unterminated", 2},
		{"unterminated case", "{n, plural, other {b", "plural_unterminated", 0},
		{"case without braces", "{n, plural, one a other {b}}", "plural_syntax", 0},
		{"bad exact", "{n, plural, =x {a} other {b}}", "plural_syntax", 0},
		{"missing comma", "{n, plural one {a} other {b}}", "plural_syntax", 0},
		{"other format", "{n, select, a {x} other {y}}", "unsupported_format", 0},
		{"inside a case", "{n, plural, other {{m, plural, one {x}}}}", "plural_no_other", 19},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, errs := Arguments(tc.text)
			if len(errs) != 1 || errs[0].Reason != tc.reason || errs[0].Offset != tc.offset {
				t.Fatalf("Arguments(%q) errors = %v, want one %s at %d", tc.text, errs, tc.reason, tc.offset)
			}
		})
	}
	args, errs := Arguments("{a} {n, plural, one {{b}} other {#}} {c")
	if len(errs) != 0 || len(args) != 3 || args[0].Name != "a" || !args[1].Plural || args[1].Name != "n" || args[2].Name != "b" {
		t.Fatalf("Arguments = %+v, %v", args, errs)
	}
}

func FuzzFillIn(f *testing.F) {
	f.Add("{hours, plural, one {# hour} other {# hours}}", int64(1))
	f.Add("{n, plural, =0 {none} other {{n} #}}", int64(0))
	f.Add("{{{n, plural,", int64(5))
	f.Fuzz(func(t *testing.T, text string, n int64) {
		out := FillIn("fr", text, map[string]any{"n": n, "hours": n})
		if _, errs := Arguments(text); len(errs) == 0 && len(out) > 64*len(text)+64 {
			t.Fatalf("FillIn grew %q to %d bytes", text, len(out))
		}
	})
}

func ExampleFillIn() {
	text := "{clues, plural, one {# clue} other {# clues}} in your notebook"
	fmt.Println(FillIn("en", text, map[string]any{"clues": 1}))
	fmt.Println(FillIn("en", text, map[string]any{"clues": 0}))
	fmt.Println(FillIn("fr", "{clues, plural, one {# indice} other {# indices}}", map[string]any{"clues": 0}))
	// Output:
	// 1 clue in your notebook
	// 0 clues in your notebook
	// 0 indice
}

func TestCheckPlurals(t *testing.T) {
	tests := []struct {
		name, locale, text string
		want               []string // the reasons, in order
	}{
		{"English one and other", "en", "{n, plural, one {# day} other {# days}}", nil},
		{"French many", "fr", "{n, plural, one {# jour} many {# de jours} other {# jours}}", nil},
		{"exact cases fit any locale", "en", "{n, plural, =0 {none} =2 {a pair} other {#}}", nil},
		{"English few", "en", "{n, plural, one {#} few {#} other {#}}", []string{"plural_category_unused"}},
		{"French two, nested", "fr", "{a, plural, other {{b, plural, two {#} other {#}}}}", []string{"plural_category_unused"}},
		{"pt-br gets the English rule", "pt-br", "{n, plural, one {#} many {#} other {#}}", []string{"plural_category_unused"}},
		{"malformed", "fr", "{n, plural, one {#}}", []string{"plural_no_other"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, e := range CheckPlurals(tc.locale, tc.text) {
				got = append(got, e.Reason)
			}
			if strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Fatalf("CheckPlurals(%q, %q) = %v, want %v", tc.locale, tc.text, got, tc.want)
			}
		})
	}
}
