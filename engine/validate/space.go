package validate

import "github.com/storyloom/storyloom/engine/core"

// Explorable is implemented by a kind that can describe a campaign's state
// space for the tier 3 search.
type Explorable interface {
	StateSpace(c *core.Campaign) Space
}

// Space is an abstract, finite-branching view of a campaign's play: states,
// the moves out of each, and the elements each state covers. Moves may be
// nondeterministic: a random transition has one outcome per possible branch,
// so the search covers every branch instead of one seed's draw.
type Space interface {
	// Start returns the possible starting states.
	Start() []State
	// Key identifies a state for deduplication; equal keys are one state.
	Key(s State) string
	// Moves lists what the player can do in s; an empty list in a
	// non-terminal state is a dead end.
	Moves(s State) []Move
	// Terminal returns the terminal id s rests on, or "" while play goes on.
	Terminal(s State) string
	// Covers returns the element paths s counts as reaching, e.g.
	// "nodes.harbour".
	Covers(s State) []string
	// Elements returns every element path the campaign declares that play
	// should be able to reach.
	Elements() []string
	// Terminals returns every terminal id the campaign declares, with the
	// element path of each.
	Terminals() map[string]string
}

// FactChecker is implemented by a Space whose content declares facts it
// relies on (a story ending that mentions what the player found).
type FactChecker interface {
	// Unsupported returns the element s stands on and the facts that
	// element relies on which do not hold in s (none when all hold).
	Unsupported(s State) (element string, facts []string)
}

// State is one abstract state of a Space; its meaning is the kind's.
type State any

// Move is one thing the player can do: its label (for reports), and every
// state it can lead to.
type Move struct {
	Label    string
	Outcomes []State
}

// Budget bounds the tier 3 search.
type Budget struct {
	// MaxStates caps the distinct states explored.
	MaxStates int
	// MaxDepth caps the number of moves from the start.
	MaxDepth int
}

// DefaultBudget returns what `bundle validate` uses unless told otherwise.
func DefaultBudget() Budget { return Budget{MaxStates: 200_000, MaxDepth: 400} }
