package rules

import (
	"github.com/storyloom/storyloom/engine/cards/card"
	"github.com/storyloom/storyloom/engine/rooms"
)

// Steps of a turn, in order; Phase names them on the wire.
const (
	StepUntap = iota
	StepUpkeep
	StepDraw
	StepMain1
	StepBeginCombat
	StepAttackers
	StepBlockers
	StepDamage
	StepEndCombat
	StepMain2
	StepEnd
	StepCleanup
)

// phaseNames are the wire Phase values of the twelve steps.
var phaseNames = [12]string{"untap", "upkeep", "draw", "precombat_main", "begin_combat",
	"declare_attackers", "declare_blockers", "combat_damage", "end_combat",
	"postcombat_main", "end", "cleanup"}

// Phases returns the twelve Phase values in turn order.
func Phases() []string { return append([]string(nil), phaseNames[:]...) }

// Decision kinds: what the pending decision asks.
const (
	DecMulligan  = "mulligan"
	DecPriority  = "priority"
	DecAttackers = "attackers"
	DecBlockers  = "blockers"
	DecOrder     = "order_damage"
	DecTargets   = "targets"
	DecChoice    = "choice"
	DecDiscard   = "discard"
	DecOver      = "over"
)

// Config is a format's table rules, fixed at setup and kept in the state.
type Config struct {
	// Format is the format id, shown as the view's format.
	Format string `json:"format"`
	// Life is each player's starting life.
	Life int `json:"life"`
	// Commander turns on the command zone, tax and commander damage.
	Commander bool `json:"commander,omitempty"`
}

// Card is a card outside the library and the battlefield: in a hand, a
// graveyard, exile or the command zone.
type Card struct {
	N     int    `json:"n"`               // physical card number (see Game.cardID)
	ID    string `json:"id"`              // functional id
	Cmdr  bool   `json:"cmdr,omitempty"`  // the owner's commander
	Since int    `json:"since,omitempty"` // in a graveyard: the last object number minted before it arrived
}

// Player is one seat's player.
type Player struct {
	Life     int      `json:"life"`
	Poison   int      `json:"poison,omitempty"`
	Library  []string `json:"library"` // functional ids, top first
	Hand     []Card   `json:"hand"`
	Grave    []Card   `json:"grave"` // top last
	Exile    []Card   `json:"exile"`
	Command  []Card   `json:"command,omitempty"`
	Pool     string   `json:"pool,omitempty"`     // floating mana, one letter a unit (WUBRGC)
	Lands    int      `json:"lands,omitempty"`    // lands played this turn
	Mulls    int      `json:"mulls,omitempty"`    // mulligans taken
	Kept     bool     `json:"kept,omitempty"`     // hand kept
	Out      string   `json:"out,omitempty"`      // elimination reason, "" while playing
	Drew     bool     `json:"drew,omitempty"`     // tried to draw from an empty library
	Casts    int      `json:"casts,omitempty"`    // commander casts from the command zone
	CmdrDmg  []int    `json:"cmdr_dmg,omitempty"` // combat damage taken from each seat's commander
	Cmdr     string   `json:"cmdr,omitempty"`     // designated commander's functional id
	Identity []string `json:"identity,omitempty"` // commander colour identity
}

// Perm is a permanent on the battlefield.
type Perm struct {
	N        int         `json:"n"`
	Card     int         `json:"card,omitempty"` // the physical card number, 0 for a token
	ID       string      `json:"id,omitempty"`   // functional id, "" for a token
	Tok      *card.Token `json:"tok,omitempty"`  // a token's definition
	Owner    int         `json:"owner"`
	Ctrl     int         `json:"ctrl"` // controller before control-changing effects
	TS       int         `json:"ts"`   // timestamp
	Tapped   bool        `json:"tapped,omitempty"`
	Sick     bool        `json:"sick,omitempty"` // came under its controller's control this turn
	Damage   int         `json:"damage,omitempty"`
	DTouch   bool        `json:"dtouch,omitempty"` // dealt damage by a deathtouch source
	Plus     int         `json:"plus,omitempty"`   // +1/+1 counters
	Minus    int         `json:"minus,omitempty"`  // -1/-1 counters
	Loyalty  int         `json:"loyalty,omitempty"`
	Attach   int         `json:"attach,omitempty"` // the permanent this aura enchants
	Cmdr     bool        `json:"cmdr,omitempty"`
	Skip     bool        `json:"skip,omitempty"` // skips its controller's next untap
	Color    string      `json:"color,omitempty"`
	Named    string      `json:"named,omitempty"`
	Attack   string      `json:"attack,omitempty"` // what it attacks: "p<seat>" or "perm_<n>"
	Blocks   []int       `json:"blocks,omitempty"` // attackers it blocks
	Blockers []int       `json:"blockers,omitempty"`
	Blocked  bool        `json:"blocked,omitempty"`
	Used     bool        `json:"used,omitempty"` // a loyalty ability was activated this turn
}

// Target is one locked target of a stack item: a wire id.
type Target = string

// Item is an object on the stack.
type Item struct {
	N       int      `json:"n"`
	Card    int      `json:"card,omitempty"` // a spell's physical card number
	Kind    string   `json:"kind"`           // spell, activated, triggered
	Ctrl    int      `json:"ctrl"`
	Owner   int      `json:"owner"`
	ID      string   `json:"id,omitempty"`     // a spell's functional id, or the ability's card
	Cmdr    bool     `json:"cmdr,omitempty"`   // a commander spell
	Source  int      `json:"source,omitempty"` // an ability's source permanent
	Ab      int      `json:"ab"`               // an ability's index in its card's abilities
	Modes   []int    `json:"modes,omitempty"`  // chosen modes of a modal spell
	X       int      `json:"x,omitempty"`
	Targets []Target `json:"targets,omitempty"` // in slot order; "" for an unanswered optional slot
	Aimed   bool     `json:"aimed,omitempty"`   // a trigger's targets are chosen
	Aim     int      `json:"aim,omitempty"`     // a trigger's: an object number minted as they were chosen
	Event   string   `json:"event,omitempty"`   // a trigger's event subject: "p<seat>" or a perm number
	Name    string   `json:"name"`              // the source's name when it was put on the stack
}

// card is the card a spell is: its physical card, functional id and
// commander mark.
func (it *Item) card() Card { return Card{N: it.Card, ID: it.ID, Cmdr: it.Cmdr} }

// Effect is a continuous effect from a resolved spell or ability.
type Effect struct {
	TS       int      `json:"ts"`
	Perm     int      `json:"perm"`            // the affected permanent
	Power    int      `json:"power,omitempty"` // P/T change
	Tough    int      `json:"tough,omitempty"`
	Keywords []string `json:"keywords,omitempty"`
	Control  int      `json:"control"`           // new controller + 1, 0 for none
	Animate  bool     `json:"animate,omitempty"` // the land becomes a creature with base power and toughness Power/Tough
	EOT      bool     `json:"eot,omitempty"`
}

// Emblem is a player's emblem.
type Emblem struct {
	N      int         `json:"n"`
	Ctrl   int         `json:"ctrl"`
	Static card.Static `json:"static"`
}

// Decision is the pending question.
type Decision struct {
	Kind   string  `json:"kind"`
	Seat   int     `json:"seat"`             // who is asked (all still-deciding seats for a mulligan)
	Item   int     `json:"item,omitempty"`   // the stack item a targets decision aims
	Choice *Choice `json:"choice,omitempty"` // a mid-resolution choice
}

// Choice is a mid-resolution player choice in progress.
type Choice struct {
	Kind    string   `json:"kind"`              // what the choice is for (choice kinds below)
	Seat    int      `json:"seat"`              // the seat asked
	Cards   []int    `json:"cards,omitempty"`   // object numbers offered (hand, grave, battlefield)
	Lib     []int    `json:"lib,omitempty"`     // library positions offered
	Min     int      `json:"min"`               // fewest answers
	Max     int      `json:"max"`               // most answers
	Pay     string   `json:"pay,omitempty"`     // the optional cost
	Owner   int      `json:"owner"`             // whose zone
	IDs     []string `json:"ids,omitempty"`     // functional ids of cards out of any zone (a look's rest)
	Pending []string `json:"pending,omitempty"` // the wire ids an order question orders
}

// Res is the resolution in progress: the item being resolved and the
// cursor into its effects.
type Res struct {
	Item  Item  `json:"item"`
	Mode  int   `json:"mode"`  // index into the chosen modes
	Path  []int `json:"path"`  // effect index, nested through accepted "may" effects
	Seats []int `json:"seats"` // seats still to act on a per-player effect (sacrifice)
}

// Combat is the combat in progress.
type Combat struct {
	Attacked  bool  `json:"attacked,omitempty"`   // attackers were declared
	Defenders []int `json:"defenders,omitempty"`  // defending seats still to declare blockers
	Split     bool  `json:"split,omitempty"`      // a first-strike damage step happened
	FirstDone bool  `json:"first_done,omitempty"` // the regular damage step follows
}

// Pending is a triggered ability waiting to be put on the stack.
type Pending struct {
	Ctrl   int    `json:"ctrl"`
	Source int    `json:"source"` // permanent number (may have left)
	ID     string `json:"id"`     // the source's functional id, "" for a token
	Ab     int    `json:"ab"`
	Event  string `json:"event,omitempty"`
	Name   string `json:"name"`
}

// State is the whole game.
type State struct {
	Config   Config        `json:"config"`
	Seed     string        `json:"seed"`
	Players  []Player      `json:"players"`
	Field    []Perm        `json:"field"`
	Stack    []Item        `json:"stack"`
	Emblems  []Emblem      `json:"emblems,omitempty"`
	Effects  []Effect      `json:"effects,omitempty"`
	Turn     int           `json:"turn"`
	Step     int           `json:"step"`
	Active   int           `json:"active"`
	Passes   int           `json:"passes"` // passes in succession; -1 ends the step
	Prio     int           `json:"prio"`   // the seat that holds or next receives priority
	Dec      Decision      `json:"dec"`
	Serial   int           `json:"serial"`
	Res      *Res          `json:"res,omitempty"`
	Queue    []Pending     `json:"queue,omitempty"`
	Combat   *Combat       `json:"combat,omitempty"`
	Next     int           `json:"next"` // the last object number: permanents, stack objects, emblems
	Phys     int           `json:"phys"` // the last physical card number
	Shuffles int           `json:"shuffles"`
	Result   *rooms.Result `json:"result,omitempty"`
	TS       int           `json:"ts"`
	Entered  int           `json:"entered"`       // steps entered so far
	Ask      []int         `json:"ask,omitempty"` // commanders in a graveyard or exile whose owner is to be asked
}
