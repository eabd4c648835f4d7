package rules

// Read-only queries for players that decide from the rules state (the AI
// kinds): they reveal nothing the asked seat does not already know.

// Cards returns the card pool the game plays with.
func (g *Game) Cards() Cards { return g.cards }

// PendingChoice returns the kind of the mid-resolution choice seat is
// being asked ("discard", "sacrifice", "scry", "search", "look",
// "look_order", "may", "optional", "color", "name", "commander"), or ""
// when seat is asked no such choice.
func (g *Game) PendingChoice(seat int) string {
	if g.st.Dec.Kind != DecChoice || g.st.Dec.Choice == nil || !g.asked(seat) {
		return ""
	}
	return g.st.Dec.Choice.Kind
}
