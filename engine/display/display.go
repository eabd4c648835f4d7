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
