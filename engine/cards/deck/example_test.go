package deck_test

import (
	"fmt"

	"github.com/storyloom/storyloom/engine/cards/card"
	"github.com/storyloom/storyloom/engine/cards/deck"
)

func ExampleFormat_Check() {
	c, err := card.NewCatalog([]byte(`{"cards":[
		{"id":"ember_lash","name":"Ember Lash","cost":"{1}{R}","types":["instant"],
		 "spell":{"modes":[{"targets":[{"kind":"any"}],"effects":[{"op":"damage","amount":3,"to":"t0"}]}]}},
		{"id":"mountain","name":"Mountain","supertypes":["basic"],"types":["land"],"subtypes":["Mountain"]}]}`))
	if err != nil {
		panic(err)
	}
	l, err := deck.ParseList("5 Ember Lash\n35 Mountain", c)
	if err != nil {
		panic(err)
	}
	f, _ := deck.FormatByID(deck.StarterDuel)
	_, rej := f.Check(c, l.Cards, l.Commander)
	fmt.Println(rej.Code, rej.Card+":", rej.Reason)
	// Output: copy_limit ember_lash: Ember Lash appears 5 times, above the 4-copy limit
}
