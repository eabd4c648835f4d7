package cards

import (
	"github.com/storyloom/storyloom/engine/cards/card"
	"github.com/storyloom/storyloom/engine/cards/deck"
	"github.com/storyloom/storyloom/engine/cards/rules"
	"github.com/storyloom/storyloom/engine/rng"
	"github.com/storyloom/storyloom/engine/rooms"
)

// defaultStops are the own-turn stops a human seat starts a game with:
// its own main phases, so a turn never fast-forwards past where its owner
// would act (the spec's default stops).
var defaultStops = [...]string{"precombat_main", "postcombat_main"}

// LogWindow is how many log entries a card game's views carry: a turn
// logs about a dozen step changes per player besides its plays.
const LogWindow = 256

// SettleSteps bounds the moves the machine makes for seats in one
// transition: enough for AI seats to play several whole turns while the
// only human is passed through them.
const SettleSteps = 4096

// AI is an AI kind a format can seat: its catalog entry and its policy,
// which reads the game and picks one of seat's actions, drawing only from
// h.
type AI struct {
	Option rooms.AIOption
	Choose func(g *rules.Game, seat int, h *rng.Handle) rooms.Choice
}

// Game is one format of the card game as a rooms.Game.
type Game struct {
	format rooms.Format
	config rules.Config
	cards  rules.Cards
	ai     map[string]AI
}

// Games returns the card game's formats over catalog c, seating the AI
// kinds given.
func Games(c *card.Catalog, ais ...AI) []rooms.Game {
	cards := rules.NewCards(c.Cards())
	byKind := make(map[string]AI, len(ais))
	options := make([]rooms.AIOption, 0, len(ais))
	for _, a := range ais {
		byKind[a.Option.ID] = a
		options = append(options, a.Option)
	}
	var games []rooms.Game
	for _, f := range deck.Formats() {
		games = append(games, Game{
			format: rooms.Format{ID: f.ID, Name: f.Name, Description: f.Description,
				MinSeats: f.MinSeats, MaxSeats: f.MaxSeats, Deck: f.Rules(c), AI: options,
				Commander: f.RequiresCommander, Phases: rules.Phases(), DefaultStops: defaultStops[:],
				LogWindow: LogWindow, SettleSteps: SettleSteps},
			config: rules.Config{Format: f.ID, Life: f.Life, Commander: f.RequiresCommander},
			cards:  cards,
			ai:     byKind,
		})
	}
	return games
}

// Format describes the format to the lobby and the match.
func (g Game) Format() rooms.Format { return g.format }

// Setup deals a new game.
func (g Game) Setup(seed string, players []rooms.Player) (rooms.Position, error) {
	rg, err := rules.Setup(g.cards, g.config, seed, players)
	if err != nil {
		return nil, err
	}
	return position{rg, g.ai}, nil
}

// Load decodes a state a position returned.
func (g Game) Load(state []byte) (rooms.Position, error) {
	rg, err := rules.Load(g.cards, state)
	if err != nil {
		return nil, err
	}
	return position{rg, g.ai}, nil
}

// position is a rules game with its format's AI kinds: the rules supply
// every Position method but AI, and the Stepper capability.
type position struct {
	*rules.Game
	ai map[string]AI
}

// AI returns the choice AI kind makes for seat; an unknown kind takes the
// seat's timeout default.
func (p position) AI(kind string, seat int, h *rng.Handle) rooms.Choice {
	if a, ok := p.ai[kind]; ok {
		return a.Choose(p.Game, seat, h)
	}
	c, _ := p.Timeout(seat)
	return c
}

var _ rooms.Stepper = position{}
