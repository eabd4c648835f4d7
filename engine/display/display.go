// Package display formats what a kind puts into the text it shows: sums
// of money in cents and {name} placeholders. It is shared by the
// simulation and world-graph kinds, whose scenes render engine-owned text
// with the game's figures.
package display

import (
	"strconv"
	"strings"
)

// Money renders cents with a currency symbol, thousands separated by
// commas and always two decimals: Money("€", -123456) is "-€1,234.56".
func Money(currency string, cents int64) string {
	var b strings.Builder
	if cents < 0 {
		b.WriteByte('-')
		cents = -cents
	}
	b.WriteString(currency)
	whole := strconv.FormatInt(cents/100, 10)
	for i, r := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	frac := cents % 100
	b.WriteByte('.')
	if frac < 10 {
		b.WriteByte('0')
	}
	b.WriteString(strconv.FormatInt(frac, 10))
	return b.String()
}

// Fill replaces each {name} placeholder of text with params[name] when it
// is a string, int or int64; other placeholders stay as they are.
func Fill(text string, params map[string]any) string {
	if !strings.Contains(text, "{") {
		return text
	}
	for k, v := range params {
		var s string
		switch x := v.(type) {
		case string:
			s = x
		case int:
			s = strconv.Itoa(x)
		case int64:
			s = strconv.FormatInt(x, 10)
		default:
			continue
		}
		text = strings.ReplaceAll(text, "{"+k+"}", s)
	}
	return text
}
