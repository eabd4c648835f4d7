package freeport

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/storyloom/storyloom/engine/canon"
	"github.com/storyloom/storyloom/engine/strictjson"
)

// GameFormat is the value of a game file's "format" member.
const GameFormat = "freeport-game/1"

// Limits a game file must respect. MaxRoundWindow is the protocol's bound on
// the Rounds one response carries; a game may only lower it.
const (
	MaxRoundWindow = 100
	MaxQuantity    = 1_000_000_000_000 // largest quantity a request or game file may name
	maxAssets      = 64
	maxRules       = 256
	maxLines       = 256
)

// Game is a parsed, validated game file. It is immutable: every State made
// from it shares it, and nothing ever changes it.
type Game struct {
	id          string
	title       string
	description string
	seed        string
	assets      []Asset
	assetIdx    map[string]int
	starting    []int64
	rules       []rule
	roundWindow int
	minExpiry   int64 // milliseconds
	maxExpiry   int64
	defExpiry   int64
	names       func(string) (string, error)
}

// SetNamePolicy makes p the policy a Trading Name claim must pass: it
// returns the name normalized, or an error whose text the refusal
// (invalid_trading_name) carries. The product's policy is
// bundle/displayname.Check, which the hosts set before the game serves
// (the engine takes no third-party dependency); without one, a claim is
// at most MaxTradingName characters with no control character.
func (g *Game) SetNamePolicy(p func(string) (string, error)) { g.names = p }

// Asset is one kind of good a game defines.
type Asset struct {
	// ID is the assetId requests and views name.
	ID string
	// Name is a display name for pages.
	Name string
	// UnitPrice values one unit in the Standing.
	UnitPrice int64
	// Transferable is false for an Asset only Game Rules move; transfers
	// and Terms naming it are refused unknown_asset.
	Transferable bool
}

type rule struct {
	id         string
	from       int64 // inclusive, MinTime when open
	until      int64 // exclusive, MaxTime+1 when open
	hours      [2]int64
	hasHours   bool
	matchAsset int // -1: any Settlement
	assetID    string
	minQty     int64
	side       string // offered, requested, either
	chance     int64  // percent, 1..100
	effects    []effect
	lines      []string
}

type effect struct {
	party    string // proposer, counterparty, giver, receiver
	grant    bool
	asset    int
	quantity int64
}

// gameFile is the JSON form of a game file; docs/freeport.md documents it.
type gameFile struct {
	Format           string           `json:"format"`
	GameID           string           `json:"gameId"`
	Title            string           `json:"title"`
	Description      string           `json:"description"`
	Seed             string           `json:"seed"`
	Assets           []assetFile      `json:"assets"`
	UnitPrices       map[string]int64 `json:"unitPrices"`
	StartingHoldings map[string]int64 `json:"startingHoldings"`
	Rounds           *roundsFile      `json:"rounds"`
	Rules            []ruleFile       `json:"rules"`
}

type assetFile struct {
	AssetID      string `json:"assetId"`
	Name         string `json:"name"`
	Transferable *bool  `json:"transferable"`
}

type roundsFile struct {
	MaxRoundWindow       int   `json:"maxRoundWindow"`
	MinExpirySeconds     int64 `json:"minExpirySeconds"`
	MaxExpirySeconds     int64 `json:"maxExpirySeconds"`
	DefaultExpirySeconds int64 `json:"defaultExpirySeconds"`
}

type ruleFile struct {
	RuleID        string       `json:"ruleId"`
	ActiveFrom    *string      `json:"activeFrom"`
	ActiveUntil   *string      `json:"activeUntil"`
	HoursUTC      []int64      `json:"hoursUTC"`
	Match         *matchFile   `json:"match"`
	ChancePercent *int64       `json:"chancePercent"`
	Effects       []effectFile `json:"effects"`
	Lines         []string     `json:"lines"`
}

type matchFile struct {
	AssetID     string `json:"assetId"`
	MinQuantity int64  `json:"minQuantity"`
	Side        string `json:"side"`
}

type effectFile struct {
	Party    string `json:"party"`
	Kind     string `json:"kind"`
	AssetID  string `json:"assetId"`
	Quantity int64  `json:"quantity"`
}

// ParseGame parses and validates a game file. Errors name the offending
// element, e.g. `freeport: game: rules[2]: unknown asset "tea"`.
func ParseGame(data []byte) (*Game, error) {
	if _, err := canon.Canonicalize(data); err != nil {
		return nil, fmt.Errorf("freeport: game: %w", err)
	}
	var f gameFile
	if err := strictjson.Decode(data, &f); err != nil {
		return nil, fmt.Errorf("freeport: game: %w", err)
	}
	g, err := f.build()
	if err != nil {
		return nil, fmt.Errorf("freeport: game: %w", err)
	}
	return g, nil
}

func isAssetID(s string) bool {
	if s == "" || len(s) > 32 || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

func (f *gameFile) build() (*Game, error) {
	if f.Format != GameFormat {
		return nil, fmt.Errorf("format is %q, want %q", f.Format, GameFormat)
	}
	if !isAssetID(f.GameID) {
		return nil, fmt.Errorf("gameId %q is not 1-32 characters of [a-z0-9_-] starting with a letter", f.GameID)
	}
	g := &Game{id: f.GameID, title: f.Title, description: f.Description, seed: f.Seed,
		assetIdx: map[string]int{}, roundWindow: MaxRoundWindow,
		minExpiry: 1000, maxExpiry: 30 * 86400000, defExpiry: 3600000}
	if g.seed == "" {
		g.seed = f.GameID
	}
	if len(f.Assets) == 0 || len(f.Assets) > maxAssets {
		return nil, fmt.Errorf("assets: want 1 to %d assets, have %d", maxAssets, len(f.Assets))
	}
	for i, a := range f.Assets {
		if !isAssetID(a.AssetID) {
			return nil, fmt.Errorf("assets[%d]: assetId %q is not 1-32 characters of [a-z0-9_-] starting with a letter", i, a.AssetID)
		}
		if _, dup := g.assetIdx[a.AssetID]; dup {
			return nil, fmt.Errorf("assets[%d]: duplicate asset %q", i, a.AssetID)
		}
		price, ok := f.UnitPrices[a.AssetID]
		if !ok {
			return nil, fmt.Errorf("unitPrices: no price for asset %q", a.AssetID)
		}
		if price < 0 || price > 1_000_000 {
			return nil, fmt.Errorf("unitPrices: price of %q is %d, want 0 to 1000000", a.AssetID, price)
		}
		name := a.Name
		if name == "" {
			name = a.AssetID
		}
		g.assetIdx[a.AssetID] = i
		g.assets = append(g.assets, Asset{ID: a.AssetID, Name: name, UnitPrice: price,
			Transferable: a.Transferable == nil || *a.Transferable})
	}
	for id := range f.UnitPrices {
		if _, ok := g.assetIdx[id]; !ok {
			return nil, fmt.Errorf("unitPrices: unknown asset %q", id)
		}
	}
	g.starting = make([]int64, len(g.assets))
	for id, q := range f.StartingHoldings {
		i, ok := g.assetIdx[id]
		if !ok {
			return nil, fmt.Errorf("startingHoldings: unknown asset %q", id)
		}
		if q < 0 || q > MaxQuantity {
			return nil, fmt.Errorf("startingHoldings: quantity of %q is %d, want 0 to %d", id, q, MaxQuantity)
		}
		g.starting[i] = q
	}
	if r := f.Rounds; r != nil {
		if r.MaxRoundWindow != 0 {
			if r.MaxRoundWindow < 1 || r.MaxRoundWindow > MaxRoundWindow {
				return nil, fmt.Errorf("rounds: maxRoundWindow is %d, want 1 to %d", r.MaxRoundWindow, MaxRoundWindow)
			}
			g.roundWindow = r.MaxRoundWindow
		}
		const year = 366 * 86400
		for _, s := range []struct {
			name string
			v    int64
			dst  *int64
		}{{"minExpirySeconds", r.MinExpirySeconds, &g.minExpiry}, {"maxExpirySeconds", r.MaxExpirySeconds, &g.maxExpiry},
			{"defaultExpirySeconds", r.DefaultExpirySeconds, &g.defExpiry}} {
			if s.v < 0 || s.v > year {
				return nil, fmt.Errorf("rounds: %s is %d, want 0 to %d", s.name, s.v, year)
			}
			if s.v != 0 {
				*s.dst = s.v * 1000
			}
		}
		if g.minExpiry > g.maxExpiry || g.defExpiry < g.minExpiry || g.defExpiry > g.maxExpiry {
			return nil, errors.New("rounds: want minExpirySeconds <= defaultExpirySeconds <= maxExpirySeconds")
		}
	}
	if len(f.Rules) > maxRules {
		return nil, fmt.Errorf("rules: %d rules, at most %d", len(f.Rules), maxRules)
	}
	seen := map[string]bool{}
	for i, rf := range f.Rules {
		r, err := g.buildRule(rf)
		if err != nil {
			return nil, fmt.Errorf("rules[%d]: %w", i, err)
		}
		if seen[r.id] {
			return nil, fmt.Errorf("rules[%d]: duplicate ruleId %q", i, r.id)
		}
		seen[r.id] = true
		g.rules = append(g.rules, r)
	}
	return g, nil
}

func (g *Game) buildRule(rf ruleFile) (rule, error) {
	r := rule{id: rf.RuleID, from: MinTime, until: MaxTime + 1, matchAsset: -1, side: "either", chance: 100}
	if !isAssetID(r.id) {
		return r, fmt.Errorf("ruleId %q is not 1-32 characters of [a-z0-9_-] starting with a letter", r.id)
	}
	if rf.ActiveFrom != nil {
		t, err := ParseTime(*rf.ActiveFrom)
		if err != nil {
			return r, fmt.Errorf("activeFrom: %w", err)
		}
		r.from = t
	}
	if rf.ActiveUntil != nil {
		t, err := ParseTime(*rf.ActiveUntil)
		if err != nil {
			return r, fmt.Errorf("activeUntil: %w", err)
		}
		r.until = t
	}
	if r.from >= r.until {
		return r, errors.New("activeFrom is not before activeUntil")
	}
	if rf.HoursUTC != nil {
		if len(rf.HoursUTC) != 2 || rf.HoursUTC[0] < 0 || rf.HoursUTC[0] > 23 || rf.HoursUTC[1] < 0 || rf.HoursUTC[1] > 24 || rf.HoursUTC[0] == rf.HoursUTC[1] {
			return r, errors.New("hoursUTC: want [startHour 0-23, endHour 0-24], different")
		}
		r.hours, r.hasHours = [2]int64{rf.HoursUTC[0], rf.HoursUTC[1]}, true
	}
	if m := rf.Match; m != nil {
		i, ok := g.assetIdx[m.AssetID]
		if !ok {
			return r, fmt.Errorf("match: unknown asset %q", m.AssetID)
		}
		r.matchAsset, r.assetID = i, m.AssetID
		if m.MinQuantity < 0 || m.MinQuantity > MaxQuantity {
			return r, fmt.Errorf("match: minQuantity is %d, want 0 to %d", m.MinQuantity, MaxQuantity)
		}
		r.minQty = max(m.MinQuantity, 1)
		switch m.Side {
		case "":
		case "offered", "requested", "either":
			r.side = m.Side
		default:
			return r, fmt.Errorf("match: side %q, want offered, requested or either", m.Side)
		}
	}
	if rf.ChancePercent != nil {
		if *rf.ChancePercent < 1 || *rf.ChancePercent > 100 {
			return r, fmt.Errorf("chancePercent is %d, want 1 to 100", *rf.ChancePercent)
		}
		r.chance = *rf.ChancePercent
	}
	if len(rf.Effects) == 0 || len(rf.Effects) > 16 {
		return r, fmt.Errorf("effects: want 1 to 16 effects, have %d", len(rf.Effects))
	}
	for j, ef := range rf.Effects {
		e := effect{party: ef.Party, quantity: ef.Quantity}
		switch ef.Party {
		case "proposer", "counterparty":
		case "giver", "receiver":
			if r.matchAsset < 0 {
				return r, fmt.Errorf("effects[%d]: party %q needs a match with an assetId", j, ef.Party)
			}
		default:
			return r, fmt.Errorf("effects[%d]: party %q, want proposer, counterparty, giver or receiver", j, ef.Party)
		}
		switch ef.Kind {
		case "grant":
			e.grant = true
		case "withdrawal":
		default:
			return r, fmt.Errorf("effects[%d]: kind %q, want grant or withdrawal", j, ef.Kind)
		}
		i, ok := g.assetIdx[ef.AssetID]
		if !ok {
			return r, fmt.Errorf("effects[%d]: unknown asset %q", j, ef.AssetID)
		}
		e.asset = i
		if e.quantity < 1 || e.quantity > MaxQuantity {
			return r, fmt.Errorf("effects[%d]: quantity is %d, want 1 to %d", j, e.quantity, MaxQuantity)
		}
		r.effects = append(r.effects, e)
	}
	if len(rf.Lines) > maxLines {
		return r, fmt.Errorf("lines: %d lines, at most %d", len(rf.Lines), maxLines)
	}
	for j, l := range rf.Lines {
		if strings.TrimSpace(l) == "" || utf8.RuneCountInString(l) > 280 {
			return r, fmt.Errorf("lines[%d]: want 1 to 280 characters", j)
		}
	}
	r.lines = rf.Lines
	return r, nil
}

// ID returns the game's gameId.
func (g *Game) ID() string { return g.id }

// Title returns the game's display title.
func (g *Game) Title() string { return g.title }

// Assets returns a copy of the game's Assets in file order.
func (g *Game) Assets() []Asset { return append([]Asset(nil), g.assets...) }

// active reports whether r is in its window at now.
func (r *rule) active(now int64) bool {
	if now < r.from || now >= r.until {
		return false
	}
	if !r.hasHours {
		return true
	}
	h := now / 3600000 % 24
	if r.hours[0] < r.hours[1] {
		return h >= r.hours[0] && h < r.hours[1]
	}
	return h >= r.hours[0] || h < r.hours[1] // wraps midnight
}
