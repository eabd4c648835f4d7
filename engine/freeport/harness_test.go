package freeport

import "testing"

// testGameJSON is the game the conformance suite plays: deterministic rules
// that make both causes of unfunded reachable.
const testGameJSON = `{
  "format": "freeport-game/1",
  "gameId": "testport",
  "seed": "test-seed",
  "assets": [
    {"assetId": "credits"}, {"assetId": "wood"}, {"assetId": "rum"},
    {"assetId": "medal", "transferable": false}
  ],
  "unitPrices": {"credits": 1, "wood": 3, "rum": 8, "medal": 100},
  "startingHoldings": {"credits": 100, "wood": 50, "rum": 10},
  "rounds": {"minExpirySeconds": 1, "defaultExpirySeconds": 3600, "maxExpirySeconds": 86400},
  "rules": [
    {"ruleId": "rum-duty", "match": {"assetId": "rum", "side": "offered"},
     "effects": [{"party": "receiver", "kind": "withdrawal", "assetId": "credits", "quantity": 30}],
     "lines": ["The customs man takes his cut."]},
    {"ruleId": "wood-bonus", "match": {"assetId": "wood", "minQuantity": 10, "side": "offered"},
     "effects": [{"party": "giver", "kind": "grant", "assetId": "medal", "quantity": 1}]},
    {"ruleId": "old-festival", "activeUntil": "2020-01-01T00:00:00Z",
     "effects": [{"party": "proposer", "kind": "grant", "assetId": "credits", "quantity": 1000}],
     "lines": ["never"]}
  ]
}`

// T0 is the suite's starting clock: 2026-05-28T20:26:40.000Z.
const T0 int64 = 1780000000000

func testGame(t testing.TB) *Game {
	t.Helper()
	g, err := ParseGame([]byte(testGameJSON))
	if err != nil {
		t.Fatal(err)
	}
	return g
}
