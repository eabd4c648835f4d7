package session

import (
	"fmt"

	"github.com/storyloom/storyloom/engine/canon"
)

// members walks the members of the JSON object data without decoding their
// values, calling fn with each key (its raw bytes between the quotes) and
// the exact bytes of its value. It checks only the structure it needs to
// find the members; a value's own validity is for whoever decodes it.
func members(data []byte, fn func(key, value []byte)) error {
	return memberSpans(data, func(key []byte, start, end int) { fn(key, data[start:end]) })
}

// memberSpans is members, giving each value as its span data[start:end].
func memberSpans(data []byte, fn func(key []byte, start, end int)) error {
	return walkMembers(data, func(key []byte, start, end int) bool {
		fn(key, start, end)
		return true
	})
}

// walkMembers is memberSpans until fn returns false, when it stops
// without reading further (and reports nothing of the rest).
func walkMembers(data []byte, fn func(key []byte, start, end int) bool) error {
	i := canon.SkipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return fmt.Errorf("not an object")
	}
	i = canon.SkipSpace(data, i+1)
	if i < len(data) && data[i] == '}' {
		return trailing(data, i+1)
	}
	for {
		if i >= len(data) || data[i] != '"' {
			return fmt.Errorf("expected a key at %d", i)
		}
		end, err := skipString(data, i)
		if err != nil {
			return err
		}
		key := data[i+1 : end-1]
		i = canon.SkipSpace(data, end)
		if i >= len(data) || data[i] != ':' {
			return fmt.Errorf("expected ':' at %d", i)
		}
		i = canon.SkipSpace(data, i+1)
		vend, err := skipValue(data, i)
		if err != nil {
			return err
		}
		if !fn(key, i, vend) {
			return nil
		}
		i = canon.SkipSpace(data, vend)
		if i < len(data) && data[i] == ',' {
			i = canon.SkipSpace(data, i+1)
			continue
		}
		if i < len(data) && data[i] == '}' {
			return trailing(data, i+1)
		}
		return fmt.Errorf("expected ',' or '}' at %d", i)
	}
}

func trailing(data []byte, i int) error {
	if canon.SkipSpace(data, i) != len(data) {
		return fmt.Errorf("trailing data")
	}
	return nil
}

// skipString returns the index just past the string starting at data[i].
func skipString(data []byte, i int) (int, error) {
	for j := i + 1; j < len(data); j++ {
		switch data[j] {
		case '\\':
			j++
		case '"':
			return j + 1, nil
		}
	}
	return 0, fmt.Errorf("unterminated string")
}

// skipValue returns the index just past the value starting at data[i].
// A container is skipped by counting its brackets outside strings, in one
// pass: a save's state is mostly its log, and its members are found
// before anything else reads it. Brackets that do not pair (a ']' closing
// a '{') are for whoever decodes the value to refuse.
func skipValue(data []byte, i int) (int, error) {
	if i >= len(data) {
		return 0, fmt.Errorf("unexpected end")
	}
	switch data[i] {
	case '"':
		return skipString(data, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(data); j++ {
			switch data[j] {
			case '"':
				end, err := skipString(data, j)
				if err != nil {
					return 0, err
				}
				j = end - 1
			case '{', '[':
				if depth++; depth > 512 {
					return 0, fmt.Errorf("nested too deeply")
				}
			case '}', ']':
				if depth--; depth == 0 {
					return j + 1, nil
				}
			}
		}
		return 0, fmt.Errorf("unexpected end")
	default:
		j := i
		for j < len(data) {
			b := data[j]
			if b == ',' || b == '}' || b == ']' || b == ' ' || b == '\t' || b == '\n' || b == '\r' {
				break
			}
			j++
		}
		if j == i {
			return 0, fmt.Errorf("expected a value at %d", i)
		}
		return j, nil
	}
}
