package freeport

import (
	"errors"
	"fmt"
)

// The engine may not import package time, so instants are Unix milliseconds
// (int64) and this file converts them to and from RFC 3339 text with the
// proleptic Gregorian calendar.

// MinTime and MaxTime bound the instants Freeport accepts and prints:
// 1970-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z.
const (
	MinTime int64 = 0
	MaxTime int64 = 253402300799999
)

var errTime = errors.New("freeport: not an RFC 3339 timestamp")

// FormatTime prints ms, Unix milliseconds, in the one normalized UTC
// spelling Freeport uses everywhere: "2026-03-01T13:00:00.000Z". It clamps
// instants outside [MinTime, MaxTime].
func FormatTime(ms int64) string {
	ms = min(max(ms, MinTime), MaxTime)
	days, rem := ms/86400000, ms%86400000
	y, m, d := civilFromDays(days)
	b := make([]byte, 0, 24)
	b = appendInt(b, y, 4)
	b = append(b, '-')
	b = appendInt(b, m, 2)
	b = append(b, '-')
	b = appendInt(b, d, 2)
	b = append(b, 'T')
	b = appendInt(b, rem/3600000, 2)
	b = append(b, ':')
	b = appendInt(b, rem/60000%60, 2)
	b = append(b, ':')
	b = appendInt(b, rem/1000%60, 2)
	b = append(b, '.')
	b = appendInt(b, rem%1000, 3)
	return string(append(b, 'Z'))
}

func appendInt(b []byte, v int64, width int) []byte {
	var tmp [20]byte
	i := len(tmp)
	for v > 0 || i > len(tmp)-width {
		i--
		tmp[i] = byte('0' + v%10)
		v /= 10
	}
	return append(b, tmp[i:]...)
}

// ParseTime parses a strict RFC 3339 timestamp, "2026-03-01T13:00:00Z" or
// "2026-03-01T14:00:00.250+01:00", and returns Unix milliseconds. It accepts
// at most millisecond precision (further digits must be zero), refuses leap
// seconds and instants outside [MinTime, MaxTime].
func ParseTime(s string) (int64, error) {
	if len(s) < 20 {
		return 0, fmt.Errorf("%w: %q", errTime, s)
	}
	num := func(i, n int) (int64, bool) {
		var v int64
		for _, c := range []byte(s[i : i+n]) {
			if c < '0' || c > '9' {
				return 0, false
			}
			v = v*10 + int64(c-'0')
		}
		return v, true
	}
	y, ok1 := num(0, 4)
	mo, ok2 := num(5, 2)
	d, ok3 := num(8, 2)
	h, ok4 := num(11, 2)
	mi, ok5 := num(14, 2)
	sec, ok6 := num(17, 2)
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6) || s[4] != '-' || s[7] != '-' ||
		(s[10] != 'T' && s[10] != 't') || s[13] != ':' || s[16] != ':' {
		return 0, fmt.Errorf("%w: %q", errTime, s)
	}
	if mo < 1 || mo > 12 || d < 1 || d > daysIn(y, mo) || h > 23 || mi > 59 || sec > 59 {
		return 0, fmt.Errorf("freeport: timestamp %q is out of range", s)
	}
	i := 19
	var frac int64
	if i < len(s) && s[i] == '.' {
		i++
		start := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			if n := i - start; n < 3 {
				frac = frac*10 + int64(s[i]-'0')
			} else if s[i] != '0' {
				return 0, fmt.Errorf("freeport: timestamp %q is finer than a millisecond", s)
			}
			i++
		}
		n := i - start
		if n == 0 || n > 9 {
			return 0, fmt.Errorf("%w: %q", errTime, s)
		}
		for ; n < 3; n++ {
			frac *= 10
		}
	}
	var offset int64
	switch rest := s[i:]; {
	case rest == "Z" || rest == "z":
	case len(rest) == 6 && (rest[0] == '+' || rest[0] == '-') && rest[3] == ':':
		oh, ok1 := num(i+1, 2)
		om, ok2 := num(i+4, 2)
		if !ok1 || !ok2 || oh > 23 || om > 59 {
			return 0, fmt.Errorf("%w: %q", errTime, s)
		}
		offset = (oh*60 + om) * 60000
		if rest[0] == '-' {
			offset = -offset
		}
	default:
		return 0, fmt.Errorf("%w: %q", errTime, s)
	}
	ms := (daysFromCivil(y, mo, d)*86400+h*3600+mi*60+sec)*1000 + frac - offset
	if ms < MinTime || ms > MaxTime {
		return 0, fmt.Errorf("freeport: timestamp %q is out of range", s)
	}
	return ms, nil
}

func isLeap(y int64) bool { return y%4 == 0 && (y%100 != 0 || y%400 == 0) }

func daysIn(y, m int64) int64 {
	switch m {
	case 2:
		if isLeap(y) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// daysFromCivil is Howard Hinnant's days_from_civil, for years >= 0.
func daysFromCivil(y, m, d int64) int64 {
	if m <= 2 {
		y--
	}
	era := y / 400
	if y < 0 {
		era = (y - 399) / 400
	}
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

// civilFromDays is the inverse of daysFromCivil for days >= 0.
func civilFromDays(z int64) (y, m, d int64) {
	z += 719468
	era := z / 146097
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	y = yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d = doy - (153*mp+2)/5 + 1
	m = mp + 3
	if m > 12 {
		m -= 12
	}
	if m <= 2 {
		y++
	}
	return y, m, d
}
