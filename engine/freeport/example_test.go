package freeport_test

import (
	"fmt"

	"github.com/storyloom/storyloom/engine/freeport"
)

// A host parses the game file once, keeps a State per game instance, and
// passes each request with the authenticated Owner and its clock.
func Example() {
	game, err := freeport.ParseGame([]byte(`{
	  "format": "freeport-game/1", "gameId": "tiny",
	  "assets": [{"assetId": "credits"}],
	  "unitPrices": {"credits": 1},
	  "startingHoldings": {"credits": 10}
	}`))
	if err != nil {
		panic(err)
	}
	st := game.NewState("instance-secret")
	now, _ := freeport.ParseTime("2026-03-01T12:00:00Z")
	var resp []byte
	st, resp = st.Apply("owner-1", now, []byte(`{"protocolVersion":2,"action":"readInventory"}`))
	fmt.Println(string(resp))
	st, _ = st.Apply("owner-1", now, []byte(`{"protocolVersion":2,"action":"enroll","commandId":"e1"}`))
	fmt.Println("state version", st.Version())
	// Output:
	// {"error":{"code":"not_enrolled","message":"freeport: this Owner has not enrolled; send enroll first"},"ok":false,"protocolVersion":2,"stateVersion":0}
	// state version 1
}
