package card_test

import (
	"fmt"

	"github.com/storyloom/storyloom/engine/cards/card"
)

func ExampleText() {
	c, err := card.NewCatalog([]byte(`{"cards":[{"id":"ember_lash","name":"Ember Lash","cost":"{1}{R}",
		"types":["instant"],
		"spell":{"modes":[{"targets":[{"kind":"any"}],"effects":[{"op":"damage","amount":3,"to":"t0"}]}]}}]}`))
	if err != nil {
		panic(err)
	}
	d, _ := c.Card("ember_lash")
	fmt.Println(card.TypeLine(d))
	fmt.Println(card.Text(d))
	// Output:
	// Instant
	// Ember Lash deals 3 damage to any target.
}

func ExampleParseCost() {
	c, _ := card.ParseCost("{X}{2}{R}{R}")
	fmt.Println(c, c.ManaValue(0), c.Colors(), c.Pips(1))
	// Output: {X}{2}{R}{R} 4 [R] [{1} {1} {1} {R} {R}]
}

func ExampleNewCatalog() {
	_, err := card.NewCatalog([]byte(`{"cards":[{"id":"ogre","name":"Ogre","cost":"{2}{R}",
		"types":["creature"],"power":3,"toughness":3,"keywords":["tramplе"]}]}`))
	fmt.Println(err)
	// Output: card: catalog file 0: card "ogre": keywords[0]: unknown keyword "tramplе"
}

func ExampleTextIn() {
	c, err := card.NewCatalog([]byte(`{"cards":[{"id":"thornback_warden","name":"Thornback Warden","cost":"{2}{G}",
		"types":["creature"],"subtypes":["Treefolk"],"power":2,"toughness":4,"keywords":["reach"],
		"abilities":[{"kind":"triggered","when":"enters","mode":{"effects":[{"op":"gain_life","amount":2,"to":"you"}]}}]}]}`))
	if err != nil {
		panic(err)
	}
	d, _ := c.Card("thornback_warden")
	fmt.Println(card.TypeLineIn(card.French, d))
	fmt.Println(card.TextIn(card.French, d))
	// Output:
	// Créature — Sylvin
	// Portée
	// Quand Thornback Warden arrive sur le champ de bataille, vous gagnez 2 points de vie.
}
