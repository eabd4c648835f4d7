package multiplayer

import (
	"reflect"
	"strings"
	"testing"
)

// TestCardViewReadsEveryMember holds cardViewJS to CardView: a member
// added to CardView and not read by the page would stay empty.
func TestCardViewReadsEveryMember(t *testing.T) {
	ty := reflect.TypeFor[CardView]()
	for i := range ty.NumField() {
		name, _, _ := strings.Cut(ty.Field(i).Tag.Get("json"), ",")
		if !strings.Contains(cardViewJS, " "+name+",") && !strings.Contains(cardViewJS, " "+name+" }") && !strings.Contains(cardViewJS, " "+name+":") {
			t.Errorf("cardViewJS does not read the view's %s", name)
		}
	}
}
