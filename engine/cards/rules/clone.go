package rules

import "slices"

// clone returns a deep copy of the state, so that a refused answer can be
// undone without encoding anything.
func (st *State) clone() State {
	c := *st
	c.Players = slices.Clone(st.Players)
	for i := range c.Players {
		p := &c.Players[i]
		p.Library = slices.Clone(p.Library)
		p.Hand = slices.Clone(p.Hand)
		p.Grave = slices.Clone(p.Grave)
		p.Exile = slices.Clone(p.Exile)
		p.Command = slices.Clone(p.Command)
		p.CmdrDmg = slices.Clone(p.CmdrDmg)
		p.Identity = slices.Clone(p.Identity)
	}
	c.Field = slices.Clone(st.Field)
	for i := range c.Field {
		f := &c.Field[i]
		f.Blocks = slices.Clone(f.Blocks)
		f.Blockers = slices.Clone(f.Blockers)
	}
	c.Stack = slices.Clone(st.Stack)
	for i := range c.Stack {
		c.Stack[i].Modes = slices.Clone(c.Stack[i].Modes)
		c.Stack[i].Targets = slices.Clone(c.Stack[i].Targets)
	}
	c.Emblems = slices.Clone(st.Emblems)
	c.Effects = slices.Clone(st.Effects)
	c.Queue = slices.Clone(st.Queue)
	c.Ask = slices.Clone(st.Ask)
	if st.Dec.Choice != nil {
		ch := *st.Dec.Choice
		ch.Cards = slices.Clone(ch.Cards)
		ch.Lib = slices.Clone(ch.Lib)
		ch.IDs = slices.Clone(ch.IDs)
		ch.Pending = slices.Clone(ch.Pending)
		c.Dec.Choice = &ch
	}
	if st.Res != nil {
		r := *st.Res
		r.Item.Modes = slices.Clone(r.Item.Modes)
		r.Item.Targets = slices.Clone(r.Item.Targets)
		r.Path = slices.Clone(r.Path)
		r.Seats = slices.Clone(r.Seats)
		c.Res = &r
	}
	if st.Combat != nil {
		cb := *st.Combat
		cb.Defenders = slices.Clone(cb.Defenders)
		c.Combat = &cb
	}
	if st.Result != nil {
		r := *st.Result
		r.Losers = slices.Clone(r.Losers)
		c.Result = &r
	}
	return c
}
