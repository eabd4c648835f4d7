package display

import (
	"fmt"
	"testing"
)

func TestMoney(t *testing.T) {
	tests := []struct {
		name     string
		currency string
		cents    int64
		want     string
	}{
		{"zero", "$", 0, "$0.00"},
		{"cents", "$", 7, "$0.07"},
		{"thousands", "€", 123456, "€1,234.56"},
		{"debt", "€", -123456, "-€1,234.56"},
		{"millions", "£", 100000000, "£1,000,000.00"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Money(tc.currency, tc.cents); got != tc.want {
				t.Fatalf("Money(%q, %d) = %q, want %q", tc.currency, tc.cents, got, tc.want)
			}
		})
	}
}

func ExampleFill() {
	fmt.Println(Fill("Week {week} of {weeks}: {money}. {unknown}", map[string]any{"week": 3, "weeks": int64(12), "money": Money("$", 150000)}))
	// Output: Week 3 of 12: $1,500.00. {unknown}
}
