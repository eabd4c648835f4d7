package displayname

import (
	"errors"
	"strings"
	"testing"
)

// TestCheck covers every class of character the probe used to impersonate
// a trader or draw over the table, and the names the policy must keep.
func TestCheck(t *testing.T) {
	tests := []struct {
		name, in, want, code string
	}{
		{"a plain name", "Mara", "Mara", ""},
		{"spaces trimmed and collapsed", "  Mara   Quill ", "Mara Quill", ""},
		{"accents", "Zoë Ångström", "Zoë Ångström", ""},
		{"Vietnamese, two marks", "Nguyễn Thị Ánh", "Nguyễn Thị Ánh", ""},
		{"Arabic", "مريم", "مريم", ""},
		{"Hebrew", "שרה", "שרה", ""},
		{"Japanese", "さくら", "さくら", ""},
		{"an emoji", "Parrot 🦜", "Parrot 🦜", ""},
		{"fullwidth letters map to plain ones", "Ｍａｒａ", "Mara", ""},
		{"a ligature maps to its letters", "ﬁnn", "finn", ""},
		{"a letter with three marks, composed where it can be", "a\u0301\u0302\u0303", "\u00e1\u0302\u0303", ""},
		{"Hebrew and Latin", "שרה Mara", "שרה Mara", ""},
		{"32 characters", strings.Repeat("m", 32), strings.Repeat("m", 32), ""},

		{"zero-width space", "Ma\u200Bra", "", ReasonInvisible},
		{"zero-width non-joiner", "Ma\u200Cra", "", ReasonInvisible},
		{"zero-width joiner", "Ma\u200Dra", "", ReasonInvisible},
		{"word joiner", "Ma\u2060ra", "", ReasonInvisible},
		{"soft hyphen", "Ma\u00ADra", "", ReasonInvisible},
		{"byte order mark", "\uFEFFMara", "", ReasonInvisible},
		{"invisible separator", "Ma\u2063ra", "", ReasonInvisible},
		{"Mongolian vowel separator", "Ma\u180Era", "", ReasonInvisible},
		{"a variation selector", "Mara\uFE0F", "", ReasonInvisible},
		{"Hangul filler", "Mara\u3164", "", ReasonInvisible},
		{"left-to-right mark", "Mara\u200E", "", ReasonBidi},
		{"right-to-left mark", "\u200FMara", "", ReasonBidi},
		{"Arabic letter mark", "Mara\u061C", "", ReasonBidi},
		{"right-to-left override", "\u202EaraM", "", ReasonBidi},
		{"left-to-right embedding", "\u202AMara\u202C", "", ReasonBidi},
		{"first strong isolate", "\u2068Mara\u2069", "", ReasonBidi},
		{"NUL", "Ma\x00ra", "", ReasonControl},
		{"tab", "Ma\tra", "", ReasonControl},
		{"newline", "Mara\nQuill", "", ReasonControl},
		{"DEL", "Mara\x7f", "", ReasonControl},
		{"a C1 control", "Mara\u0085", "", ReasonControl},
		{"invalid UTF-8", "Ma\xffra", "", ReasonInvalidUTF8},
		{"a truncated sequence", "Mar\xc3", "", ReasonInvalidUTF8},
		{"a letter and 31 combining marks", "a" + strings.Repeat("\u0301", 31), "", ReasonMarks},
		{"four marks on one letter", "Ma\u0301\u0302\u0303\u0304ra", "", ReasonMarks},
		{"private use", "Mara\uE000", "", ReasonDisallowed},
		{"an unassigned code point", "Mara\u0378", "", ReasonDisallowed},
		{"empty", "", "", ReasonEmpty},
		{"only spaces", "    ", "", ReasonEmpty},
		{"33 characters", strings.Repeat("m", 33), "", ReasonTooLong},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Check(tc.in)
			if tc.code == "" {
				if err != nil || got != tc.want {
					t.Fatalf("Check(%+q) = %q, %v; want %q", tc.in, got, err, tc.want)
				}
				return
			}
			var e *Error
			if !errors.As(err, &e) || e.Code != tc.code || got != "" {
				t.Fatalf("Check(%+q) = %q, %v; want refused %s", tc.in, got, err, tc.code)
			}
			if e.Message == "" || !strings.HasPrefix(e.Error(), tc.code+": ") {
				t.Errorf("Error() = %q", e.Error())
			}
		})
	}
}

// FuzzCheck checks that an accepted name is valid UTF-8, within the
// limits, and a fixed point of the policy: checking it again changes
// nothing, so a stored name always passes.
func FuzzCheck(f *testing.F) {
	for _, s := range []string{"Mara", " Ｍａｒａ ", "a\u0301\u0302", "שרה", "Ma\u200Bra", "\u202E"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out, err := Check(in)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Code == "" {
				t.Fatalf("Check(%+q): %v is not an *Error with a code", in, err)
			}
			return
		}
		again, err := Check(out)
		if err != nil || again != out {
			t.Fatalf("Check(%+q) = %+q, but Check of that = %+q, %v", in, out, again, err)
		}
	})
}
