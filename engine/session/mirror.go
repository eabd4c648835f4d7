package session

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strings"

	"github.com/storyloom/storyloom/engine/canon"
	"github.com/storyloom/storyloom/engine/core"
)

// loadProfile reads a profile; a storage error degrades to an empty profile
// with profile_corrupt, and readable reports whether what came back may be
// written over.
func (s *Store) loadProfile(ctx context.Context, profileID string) (p Profile, warnings []ProfileWarning, readable bool) {
	res, err := s.profiles.Load(ctx, profileID)
	if err != nil {
		return NewProfile(profileID), []ProfileWarning{{Code: core.ReasonProfileCorrupt, ProfileID: profileID}}, false
	}
	if res.Profile.ProfileID == "" {
		res.Profile = NewProfile(profileID)
	}
	return res.Profile.Clone(), res.Warnings, true
}

// profileSlice resolves the profile's slice for kindID at createSession
// (§7.1): used as is at the kind's version, migrated from an older one, and
// dropped with profile_kind_data_unreadable when migration fails or the
// slice is newer than this build. The result is an owned canonical copy.
func (s *Store) profileSlice(ctx context.Context, profileID, kindID string, pk core.ProfileKind) (json.RawMessage, []core.ValidationWarning) {
	unlock := s.profileLocks.lock(profileID)
	p, pw, _ := s.loadProfile(ctx, profileID)
	unlock()
	warnings := profileWarnings(pw)
	unreadable := func() (json.RawMessage, []core.ValidationWarning) {
		return nil, append(warnings, ProfileWarning{Code: core.ReasonProfileKindDataUnreadable, ProfileID: profileID, KindID: kindID}.Warning())
	}
	for _, r := range p.KindData {
		if r.KindID != kindID {
			continue
		}
		data := r.Data
		switch want := pk.ProfileVersion(); {
		case r.DataVersion > want:
			return unreadable()
		case r.DataVersion < want:
			out, err := safeMigrateProfile(pk, data, r.DataVersion)
			if err != nil {
				return unreadable()
			}
			data = out
		}
		c, err := canon.Canonicalize(data)
		if err != nil {
			return unreadable()
		}
		return c, warnings
	}
	return nil, warnings
}

func safeMigrateProfile(pk core.ProfileKind, data json.RawMessage, from int) (out json.RawMessage, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, errPanicked
		}
	}()
	return pk.MigrateProfile(cloneBytes(data), from)
}

func safeFold(pk core.ProfileKind, current json.RawMessage, c *core.Campaign, changes []core.StateChange) (out json.RawMessage, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, errPanicked
		}
	}()
	return pk.FoldProfile(cloneBytes(current), c, changes)
}

type panicked struct{}

func (panicked) Error() string { return "session: a kind's profile code panicked" }

var errPanicked error = panicked{}

func profileWarnings(ws []ProfileWarning) []core.ValidationWarning {
	out := make([]core.ValidationWarning, 0, len(ws))
	for _, w := range ws {
		out = append(out, w.Warning())
	}
	return out
}

// foldProfile mirrors one accepted action into the profile (§7.1), under the
// profile lock: achievements from achievement_unlocked changes, the
// terminal the outcome names when the game ended, and the kind's folded
// slice. The profile is written once, and only when it changed (P6). The
// campaign is the epoch the action resolved on (before is the state it
// acted on; after is the state it produced, before any adoption). Nothing
// here can change the action's result (P4): every failure is a warning.
//
// It returns, beside the warnings, the action's news: what it unlocked,
// each item marked new when the profile did not hold it before. With no
// profile (profileID empty) nothing is remembered, so everything is new.
func (s *Store) foldProfile(ctx context.Context, profileID string, before, after *core.GameState, changes []core.StateChange) ([]core.ValidationWarning, *News) {
	campaign := s.engine.Content().Resolve(before.CampaignID, before.CampaignVersion).Campaign(before.CampaignID)
	achieved, ending := s.unlocked(after, changes)
	if len(achieved) == 0 && ending == "" {
		if _, ok := s.engine.Kind(after.KindID).(core.ProfileKind); !ok || profileID == "" {
			return nil, nil // most actions: nothing to mirror or announce
		}
	}
	var p Profile
	var warnings []core.ValidationWarning
	if profileID != "" {
		unlock := s.profileLocks.lock(profileID)
		defer unlock()
		var pw []ProfileWarning
		var readable bool
		p, pw, readable = s.loadProfile(ctx, profileID)
		// A profile not written yet is simply new here: saying so on
		// every action until the first write would be noise.
		pw = slices.DeleteFunc(pw, func(w ProfileWarning) bool { return w.Code == core.ReasonProfileMissing })
		warnings = profileWarnings(pw)
		if !readable {
			warnings = append(warnings, ProfileWarning{Code: core.ReasonProfileWriteFailed, ProfileID: profileID}.Warning())
			return warnings, s.news(campaign, achieved, ending, nil, nil)
		}
	}
	campaignID := after.CampaignID
	changed := false
	freshAchievements := map[string]bool{}
	for _, id := range achieved {
		rec := AchievementRecord{CampaignID: campaignID, AchievementID: id}
		if !containsAchievement(p.Achievements, rec) {
			p.Achievements = append(p.Achievements, rec)
			freshAchievements[id] = true
			changed = true
		}
	}
	freshEnding := false
	if ending != "" {
		rec := TerminalRecord{CampaignID: campaignID, TerminalID: ending}
		if !containsTerminal(p.Terminals, rec) {
			p.Terminals = append(p.Terminals, rec)
			freshEnding = true
			changed = true
		}
	}
	news := s.news(campaign, achieved, ending, freshAchievements, &freshEnding)
	if profileID == "" {
		return nil, news
	}
	kind := s.engine.Kind(after.KindID)
	if pk, ok := kind.(core.ProfileKind); ok {
		if w, did := foldKindData(&p, pk, kind.ID(), campaign, changes); w != nil {
			warnings = append(warnings, w.Warning())
		} else if did {
			changed = true
		}
	}
	if changed {
		if err := s.profiles.Save(ctx, p); err != nil {
			warnings = append(warnings, ProfileWarning{Code: core.ReasonProfileWriteFailed, ProfileID: profileID}.Warning())
		}
	}
	return warnings, news
}

// unlocked reads what an action unlocked from its changes and the state it
// produced: the ids of the achievements unlocked, and the terminal id its
// outcome names when the game ended ("" otherwise).
func (s *Store) unlocked(after *core.GameState, changes []core.StateChange) (achieved []string, ending string) {
	for _, ch := range changes {
		if ch.Reason == core.ReasonAchievementUnlocked && strings.HasPrefix(ch.Path, "achieved.") {
			achieved = append(achieved, strings.TrimPrefix(ch.Path, "achieved."))
		}
	}
	if after.Status == core.StatusEnded {
		if out, err := s.engine.Outcome(after); err == nil && out.Terminal {
			ending = out.TerminalID
		}
	}
	return achieved, ending
}

// news describes achieved and ending with their titles from campaign's
// milestones. fresh marks the achievements the profile did not hold before
// and freshEnding the ending; nil means no profile could say, and counts as
// new. It is nil when nothing was unlocked.
func (s *Store) news(campaign *core.Campaign, achieved []string, ending string, fresh map[string]bool, freshEnding *bool) *News {
	if len(achieved) == 0 && ending == "" {
		return nil
	}
	var ms core.Milestones
	if campaign != nil {
		ms = s.engine.Milestones(campaign)
	}
	n := &News{Achievements: []Unlocked{}}
	for _, id := range achieved {
		m := core.Milestone{ID: id}
		for _, a := range ms.Achievements {
			if a.ID == id {
				m = a
			}
		}
		n.Achievements = append(n.Achievements, Unlocked{Milestone: m, New: fresh == nil || fresh[id]})
	}
	if ending != "" {
		m := core.Milestone{ID: ending}
		for _, e := range ms.Endings {
			if e.ID == ending {
				m = e
			}
		}
		n.Ending = &Unlocked{Milestone: m, New: freshEnding == nil || *freshEnding}
	}
	return n
}

// foldKindData folds changes into p's record for kindID. It reports a
// warning when the fold was refused (a throw, a value that does not
// serialize, or one over MaxKindDataBytes), and whether the slice changed.
func foldKindData(p *Profile, pk core.ProfileKind, kindID string, c *core.Campaign, changes []core.StateChange) (*ProfileWarning, bool) {
	idx := -1
	var current json.RawMessage
	for i, r := range p.KindData {
		if r.KindID == kindID {
			idx, current = i, r.Data
			break
		}
	}
	if idx >= 0 {
		switch v := p.KindData[idx].DataVersion; {
		case v > pk.ProfileVersion():
			// A slice written by a newer build is kept as it is, never
			// folded over.
			return &ProfileWarning{Code: core.ReasonProfileKindDataUnreadable, ProfileID: p.ProfileID, KindID: kindID}, false
		case v < pk.ProfileVersion():
			migrated, err := safeMigrateProfile(pk, current, v)
			if err != nil {
				return &ProfileWarning{Code: core.ReasonProfileKindDataUnreadable, ProfileID: p.ProfileID, KindID: kindID}, false
			}
			current = migrated
		}
	}
	rejected := &ProfileWarning{Code: core.ReasonProfileKindDataRejected, ProfileID: p.ProfileID, KindID: kindID}
	out, err := safeFold(pk, current, c, changes)
	if err != nil || out == nil {
		return rejected, false
	}
	folded, err := canon.Canonicalize(out)
	if err != nil || len(folded) > MaxKindDataBytes {
		return rejected, false
	}
	if idx >= 0 {
		if stored, err := canon.Canonicalize(p.KindData[idx].Data); err == nil && bytes.Equal(stored, folded) &&
			p.KindData[idx].DataVersion == pk.ProfileVersion() {
			return nil, false
		}
		p.KindData[idx] = KindProfileRecord{KindID: kindID, DataVersion: pk.ProfileVersion(), Data: folded}
		return nil, true
	}
	p.KindData = append(p.KindData, KindProfileRecord{KindID: kindID, DataVersion: pk.ProfileVersion(), Data: folded})
	sortKindData(p.KindData)
	return nil, true
}

func containsAchievement(list []AchievementRecord, r AchievementRecord) bool {
	for _, a := range list {
		if a == r {
			return true
		}
	}
	return false
}

func containsTerminal(list []TerminalRecord, r TerminalRecord) bool {
	for _, t := range list {
		if t == r {
			return true
		}
	}
	return false
}
