package sim

// carefulPlan is the plan of a player who reads the numbers, used as a
// candidate by the tier 3 search and as the scripted careful player of the
// tests: it keeps every stat a keep goal protects at or above margin after
// the week's drift, takes the activities in first while they are safe and
// affordable (nil means every activity that unlocks another or is
// unlocked), and otherwise earns as much as the hours allow, resting first
// when that lets more work fit.
func carefulPlan(s *State, c *Content, margin int64, first []string) []PlanItem {
	if first == nil {
		first = unlockers(c)
	}
	{
		protected := map[string]bool{}
		for _, g := range c.Goals {
			if g.Type == GoalKeep && len(g.Condition.Field) > 5 && g.Condition.Field[:5] == "stat." {
				protected[g.Condition.Field[5:]] = true
			}
		}
		work := s.clone()
		work.Plan = nil
		proj := map[string]int64{}
		for _, st := range c.Stats {
			proj[st.ID] = st.Drift + s.Stats[st.ID]
		}
		money := s.Money - c.Upkeep
		const reserve = 15000
		fits := func(id string) (activityView, bool) {
			a, ok := c.activity(id)
			return a, ok && maxAddable(work, c, a) > 0
		}
		add := func(a activityView) {
			work.addToPlan(a.ID, 1)
			money -= a.Cost
			if a.Authored != nil {
				for _, e := range a.Authored.effects {
					if e.stat < 0 {
						money += e.delta
					} else {
						proj[e.target] = clamp(proj[e.target]+e.delta, c.Stats[e.stat].Min, c.Stats[e.stat].Max)
					}
				}
			}
		}
		safe := func(a activityView) bool {
			if a.Authored == nil {
				return false
			}
			for _, e := range a.Authored.effects {
				if e.stat >= 0 && protected[e.target] && e.delta < 0 && proj[e.target]+e.delta < margin {
					return false
				}
			}
			return money-a.Cost >= reserve
		}
		for _, id := range first {
			if a, ok := fits(id); ok && safe(a) {
				add(a)
			}
		}
		// best returns the fitting authored activity with the highest
		// positive gain per hour (a gain of 0 passes an activity over).
		best := func(gain func(a activityView) int64) (activityView, bool) {
			var top activityView
			topScore := int64(0)
			for _, id := range c.activityIDs() {
				a, ok := fits(id)
				if !ok || a.Authored == nil {
					continue
				}
				score := gain(a) * 100
				if a.Hours > 0 {
					score /= a.Hours
				}
				if score > topScore {
					top, topScore = a, score
				}
			}
			return top, topScore > 0
		}
		// restorer returns the activity that best raises stat per hour
		// and leaves the reserve.
		restorer := func(stat string) (activityView, bool) {
			return best(func(a activityView) int64 {
				if money-a.Cost < reserve {
					return 0
				}
				return a.Authored.Effects[stat]
			})
		}
		// earner returns the activity that earns the most per hour.
		earner := func() (activityView, bool) {
			return best(func(a activityView) int64 { return a.Authored.Effects["money"] - a.Cost })
		}
		lowest := func() string {
			low, lowID := int64(1<<62), ""
			for _, st := range c.Stats {
				if protected[st.ID] && proj[st.ID] < low {
					low, lowID = proj[st.ID], st.ID
				}
			}
			return lowID
		}
		for guard := 0; guard < 64; guard++ {
			if id := lowest(); id != "" && proj[id] < margin {
				r, ok := restorer(id)
				if !ok {
					break
				}
				add(r)
				continue
			}
			m, ok := earner()
			if !ok {
				break
			}
			if safe(m) {
				add(m)
				continue
			}
			// Rest first so that the work fits, when a restorer fits.
			blocked := ""
			for _, e := range m.Authored.effects {
				if e.stat >= 0 && protected[e.target] && e.delta < 0 && proj[e.target]+e.delta < margin {
					blocked = e.target
				}
			}
			r, ok := restorer(blocked)
			if !ok || r.Hours+m.Hours > c.HoursPerWeek-hoursOf(work, c) {
				break
			}
			add(r)
		}
		// Spend what hours are left on the lowest stat.
		for guard := 0; guard < 32; guard++ {
			r, ok := restorer(lowest())
			if !ok {
				break
			}
			add(r)
		}
		return work.Plan
	}
}

// fillPlan is the plan that, round after round, takes one more of every
// activity take accepts (in the order of activityIDs) while it still fits,
// until nothing more does.
func fillPlan(s *State, c *Content, take func(activityView) bool) []PlanItem {
	work := s.clone()
	work.Plan = nil
	for progress := true; progress; {
		progress = false
		for _, id := range c.activityIDs() {
			a, _ := c.activity(id)
			if !take(a) || maxAddable(work, c, a) == 0 {
				continue
			}
			work.addToPlan(id, 1)
			progress = true
		}
	}
	return work.Plan
}

func hoursOf(s *State, c *Content) int64 {
	h, _ := planTotals(s, c)
	return h
}

// unlockers lists the activities that raise a stat some activity's
// requires reads, then the activities that have a requires.
func unlockers(c *Content) []string {
	gated := map[string]bool{}
	for _, a := range c.Activities {
		if a.Requires != nil {
			a.Requires.Fields(func(name string, _ bool) {
				if len(name) > 5 && name[:5] == "stat." {
					gated[name[5:]] = true
				}
			})
		}
	}
	var out []string
	for _, a := range c.Activities {
		for stat := range gated {
			if a.Effects[stat] > 0 {
				out = append(out, a.ID)
				break
			}
		}
	}
	for _, a := range c.Activities {
		if a.Requires != nil {
			out = append(out, a.ID)
		}
	}
	return out
}

// unlockChains lists, for each gated activity (one with a requires) in
// declaration order, the best raiser of every stat its requires reads, then
// the activity itself: the order a player who aims for the gated work
// takes things in. The best raiser gains the most of the stat per hour
// among ungated activities that do not lose money, or among all ungated
// ones when none of those raises it.
func unlockChains(c *Content) []string {
	var out []string
	seen := map[string]bool{}
	take := func(id string) {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	for _, g := range c.Activities {
		if g.Requires == nil {
			continue
		}
		g.Requires.Fields(func(name string, _ bool) {
			if len(name) <= 5 || name[:5] != "stat." {
				return
			}
			if id := bestRaiser(c, name[5:]); id != "" {
				take(id)
			}
		})
		take(g.ID)
	}
	return out
}

// bestRaiser returns the ungated activity that raises stat the most per
// hour, preferring those that do not lose money; "" when none raises it.
func bestRaiser(c *Content, stat string) string {
	best, bestPaid := "", false
	var bestScore int64
	for _, a := range c.Activities {
		gain := a.Effects[stat]
		if a.Requires != nil || gain <= 0 {
			continue
		}
		score := gain * 1000 / max(1, a.Hours)
		paid := a.Effects["money"]-a.Cost >= 0
		if best == "" || paid && !bestPaid || paid == bestPaid && score > bestScore {
			best, bestPaid, bestScore = a.ID, paid, score
		}
	}
	return best
}
