package session

import (
	"context"

	"github.com/storyloom/storyloom/engine/core"
)

// Catalog is the campaign catalog (§7.3): titles and progress, never
// content, with a string table holding exactly the keys the summaries
// carry.
type Catalog struct {
	Campaigns []CampaignSummary      `json:"campaigns"`
	Strings   map[core.LocKey]string `json:"strings"`
	// Warnings are profile degradations met reading progress.
	Warnings []core.ValidationWarning `json:"warnings,omitempty"`
}

// CampaignSummary is one campaign of the catalog.
type CampaignSummary struct {
	CampaignID string      `json:"campaignId"`
	KindID     string      `json:"kindId"`
	TitleKey   core.LocKey `json:"titleKey"`
	// BlurbKey is the campaign's blurb, when it has one.
	BlurbKey core.LocKey `json:"blurbKey,omitempty"`
	// Progress is present iff a profile was given and the campaign's kind
	// counts its terminals.
	Progress *Progress `json:"progress,omitempty"`
}

// Progress is how many of a campaign's endings a profile has found.
// Counts only, never ids.
type Progress struct {
	Discovered int `json:"discovered"`
	Total      int `json:"total"`
}

// ListCampaigns returns the catalog in registry order (§7.3): each
// campaign's title key, its progress when profileID is not "", and the
// strings that render the titles in locale ("" for the default locale,
// with missing translations falling back to it). A profile that cannot be
// read yields discovered 0 and a warning, never a failed catalog.
func (s *Store) ListCampaigns(ctx context.Context, profileID, locale string) (Catalog, error) {
	reg := s.engine.Registry()
	out := Catalog{Campaigns: []CampaignSummary{}, Strings: map[core.LocKey]string{}}
	var found map[string]map[string]bool
	if profileID != "" {
		unlock := s.profileLocks.lock(profileID)
		p, pw, _ := s.loadProfile(ctx, profileID)
		unlock()
		out.Warnings = s.aliasErrors(profileWarnings(pw))
		found = map[string]map[string]bool{}
		for _, t := range p.Terminals {
			if found[t.CampaignID] == nil {
				found[t.CampaignID] = map[string]bool{}
			}
			found[t.CampaignID][t.TerminalID] = true
		}
	}
	engineText := s.engine.EngineStrings()
	for _, id := range reg.Order {
		c := reg.Campaigns[id]
		sum := CampaignSummary{CampaignID: c.ID, KindID: c.KindID, TitleKey: c.TitleKey, BlurbKey: c.BlurbKey}
		if found != nil {
			if tc, ok := s.engine.Kind(c.KindID).(core.TerminalCounter); ok {
				sum.Progress = &Progress{Discovered: len(found[c.ID]), Total: tc.TerminalCount(c)}
			}
		}
		out.Campaigns = append(out.Campaigns, sum)
		for _, key := range []core.LocKey{c.TitleKey, c.BlurbKey} {
			if key == "" {
				continue
			}
			if text, ok := authoredText(reg, c.ID, locale, key, engineText); ok {
				out.Strings[key] = text
			} else if text, ok := engineText[key]; ok {
				out.Strings[key] = text
			}
		}
	}
	return out, nil
}

// GetStrings returns the table that resolves every key a response for this
// session carried (§7, C27): the authored strings of the session's live
// epochs, each key from the most recent epoch defining it, and the running
// engine's own strings, under their response aliases where an authored key
// collides. locale "" is the campaign's default locale; another locale
// takes each epoch's translation where it has one and the default text
// where it has not, so a player switches language mid-game without the
// save changing.
func (s *Store) GetStrings(ctx context.Context, sessionID, locale string) (map[core.LocKey]string, error) {
	const op = "GetStrings"
	c, err := s.readSession(ctx, op, sessionID)
	if err != nil {
		return nil, err
	}
	st := c.state
	engineText := s.engine.EngineStrings()
	table := map[core.LocKey]string{}
	for _, v := range liveEpochs(st) {
		reg := s.engine.Content().Resolve(st.CampaignID, v)
		if c := reg.Campaign(st.CampaignID); c == nil || c.Version != v {
			continue
		}
		for k, text := range authoredStrings(reg, st.CampaignID, locale, engineText) {
			table[k] = text
		}
	}
	aliases := s.engine.Aliases()
	for k, text := range engineText {
		if alias, ok := aliases[k]; ok {
			table[alias] = text
			continue
		}
		table[k] = text
	}
	return table, nil
}

// liveEpochs lists the versions whose strings a session's responses may
// carry, oldest first: its starting version, or the last migration entry's
// target, and every content entry's target after it.
func liveEpochs(st *core.GameState) []string {
	versions := []string{core.StartingVersion(st)}
	for _, e := range st.ActionLog.Epochs() {
		switch e := e.(type) {
		case core.LoggedMigration:
			versions = []string{e.To}
		case core.LoggedContent:
			versions = append(versions, e.To)
		}
	}
	return versions
}

// authoredStrings is what campaignID authored in reg, in locale. Without
// provenance it is every key of reg's table the engine does not own.
func authoredStrings(reg *core.Registry, campaignID, locale string, engineText map[core.LocKey]string) map[core.LocKey]string {
	out := map[core.LocKey]string{}
	var translated map[core.LocKey]string
	if p := reg.Provenance[campaignID]; p != nil {
		for k, v := range p.Strings {
			out[k] = v
		}
		translated = p.Catalogs[locale]
	} else {
		for k, v := range reg.Strings {
			if _, engine := engineText[k]; !engine {
				out[k] = v
			}
		}
		translated = reg.Catalogs[locale]
	}
	if locale != "" && locale != core.DefaultLocale {
		for k := range out {
			if t, ok := translated[k]; ok {
				out[k] = t
			}
		}
	}
	return out
}

// authoredText is one key of authoredStrings, without building the table.
func authoredText(reg *core.Registry, campaignID, locale string, key core.LocKey, engineText map[core.LocKey]string) (string, bool) {
	var text string
	var ok bool
	var translated map[core.LocKey]string
	if p := reg.Provenance[campaignID]; p != nil {
		text, ok = p.Strings[key]
		translated = p.Catalogs[locale]
	} else if _, engine := engineText[key]; !engine {
		text, ok = reg.Strings[key]
		translated = reg.Catalogs[locale]
	}
	if ok && locale != "" && locale != core.DefaultLocale {
		if t, has := translated[key]; has {
			text = t
		}
	}
	return text, ok
}
