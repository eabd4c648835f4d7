package core

import "strings"

// Identifier rules (§17). Every authored id is ASCII [a-z0-9_-]; a campaign
// id is kebab-case, node, choice, variable, achievement and ending ids are
// snake_case, and a LocKey is dotted segments of [a-z0-9_-].

// IsCampaignID reports whether s is a kebab-case campaign id: lower-case
// letters and digits in hyphen-separated words, starting with a letter.
func IsCampaignID(s string) bool { return isWords(s, '-') }

// IsSnakeID reports whether s is a snake_case id: lower-case letters and
// digits in underscore-separated words, starting with a letter.
func IsSnakeID(s string) bool { return isWords(s, '_') }

// IsLocKey reports whether s is a dotted LocKey: at least two segments of
// [a-z0-9_-], no empty segment, and no '~' or ':' (§12, §17).
func IsLocKey(s string) bool {
	if len(s) > 200 || !strings.Contains(s, ".") {
		return false
	}
	for _, seg := range strings.Split(s, ".") {
		if seg == "" {
			return false
		}
		for i := 0; i < len(seg); i++ {
			if !isIDChar(seg[i]) {
				return false
			}
		}
	}
	return true
}

// IsVersion reports whether s is a usable campaign version: 1 to 64
// characters of [A-Za-z0-9.+-], e.g. "1.2.0".
func IsVersion(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '+' || c == '-') {
			return false
		}
	}
	return true
}

func isIDChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

func isWords(s string, sep byte) bool {
	if s == "" || len(s) > 64 || !(s[0] >= 'a' && s[0] <= 'z') || s[len(s)-1] == sep {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
		case c == sep:
			if s[i-1] == sep {
				return false
			}
		default:
			return false
		}
	}
	return true
}
