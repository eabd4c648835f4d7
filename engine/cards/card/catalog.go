package card

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/storyloom/storyloom/engine/rooms"
	"github.com/storyloom/storyloom/engine/strictjson"
)

// File is a catalog file as authors write it: {"cards": [Def, …]}.
type File struct {
	Cards []Def `json:"cards"`
}

// Catalog is an immutable, validated set of card definitions, looked up
// by id and by name. The Defs it returns share its memory and must not be
// modified.
type Catalog struct {
	defs   []Def
	byID   map[string]int
	byName map[string]int // lowercased name
}

// NewCatalog decodes catalog files strictly, validates every card, and
// checks that ids and names are unique (names regardless of case). Its
// error lists every problem found, each naming the file, card and field.
func NewCatalog(files ...[]byte) (*Catalog, error) {
	c := &Catalog{byID: map[string]int{}, byName: map[string]int{}}
	var errs []error
	for fi, data := range files {
		var f File
		if err := strictjson.Decode(data, &f); err != nil {
			errs = append(errs, fmt.Errorf("card: catalog file %d: %w", fi, err))
			continue
		}
		for ci, d := range f.Cards {
			for _, err := range Validate(d) {
				if e := (*Error)(nil); errors.As(err, &e) && e.Card == "" {
					e.Card = "cards[" + strconv.Itoa(ci) + "]"
				}
				errs = append(errs, fmt.Errorf("card: catalog file %d: %w", fi, err))
			}
			if _, dup := c.byID[d.ID]; dup && d.ID != "" {
				errs = append(errs, fmt.Errorf("card: catalog file %d: %w", fi, &Error{Card: d.ID, Field: "id", Reason: "id used by another card"}))
			}
			if j, dup := c.byName[strings.ToLower(d.Name)]; dup && d.Name != "" {
				errs = append(errs, fmt.Errorf("card: catalog file %d: %w", fi, &Error{Card: d.ID, Field: "name", Reason: fmt.Sprintf("name %q used by %q", d.Name, c.defs[j].ID)}))
			}
			c.byID[d.ID] = len(c.defs)
			c.byName[strings.ToLower(d.Name)] = len(c.defs)
			c.defs = append(c.defs, d)
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	slices.SortStableFunc(c.defs, func(a, b Def) int {
		ca, _ := a.ManaCost()
		cb, _ := b.ManaCost()
		return cmp.Or(cmp.Compare(group(a), group(b)), cmp.Compare(ca.ManaValue(0), cb.ManaValue(0)), cmp.Compare(a.Name, b.Name))
	})
	for i, d := range c.defs {
		c.byID[d.ID] = i
		c.byName[strings.ToLower(d.Name)] = i
	}
	return c, nil
}

// group orders the catalog: white, blue, black, red, green,
// multicoloured, colourless, basic lands, other lands.
func group(d Def) int {
	cs := d.Colors()
	switch {
	case d.Basic():
		return 7
	case d.Is("land"):
		return 8
	case len(cs) == 1:
		return colorIndex(cs[0])
	case len(cs) > 1:
		return 5
	}
	return 6
}

// Card returns the card with functional id id.
func (c *Catalog) Card(id string) (Def, bool) {
	i, ok := c.byID[id]
	if !ok {
		return Def{}, false
	}
	return c.defs[i], true
}

// ByName returns the card named name, regardless of letter case.
func (c *Catalog) ByName(name string) (Def, bool) {
	i, ok := c.byName[strings.ToLower(strings.TrimSpace(name))]
	if !ok {
		return Def{}, false
	}
	return c.defs[i], true
}

// Cards returns every card in catalog order: by colour group (white,
// blue, black, red, green, multicoloured, colourless, basic lands, other
// lands), then mana value, then name.
func (c *Catalog) Cards() []Def { return slices.Clone(c.defs) }

// CatalogCards returns every card as the catalog view lists it, in
// catalog order.
func (c *Catalog) CatalogCards() []rooms.CatalogCard {
	out := make([]rooms.CatalogCard, len(c.defs))
	for i, d := range c.defs {
		out[i] = CatalogCard(d)
	}
	return out
}

// CatalogCard is d's public characteristics as the catalog view lists
// them, with rules text from Text and colour identity from Identity.
func CatalogCard(d Def) rooms.CatalogCard {
	cc := rooms.CatalogCard{
		FunctionalID: d.ID,
		Name:         d.Name,
		TypeLine:     TypeLine(d),
		ManaCost:     d.Cost,
		RulesText:    Text(d),
		Keywords:     slices.Clone(d.Keywords),
		CardTypes:    slices.Clone(d.Types),
		ColorID:      d.Identity(),
	}
	if d.Power != nil && d.Toughness != nil {
		cc.Power = strconv.Itoa(*d.Power)
		cc.Toughness = strconv.Itoa(*d.Toughness)
	}
	if d.Loyalty != nil {
		cc.Loyalty = strconv.Itoa(*d.Loyalty)
	}
	return cc
}
