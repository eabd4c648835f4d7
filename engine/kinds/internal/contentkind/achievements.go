package contentkind

import (
	"fmt"
	"slices"

	"github.com/storyloom/storyloom/engine/authoring"
	"github.com/storyloom/storyloom/engine/condition"
	"github.com/storyloom/storyloom/engine/core"
)

// MaxAchievements caps a campaign's achievements.
const MaxAchievements = 64

// Achievement is one achievement of a campaign: unlocked once per game,
// after the first action that leaves When holding.
type Achievement struct {
	ID             string              `json:"id"`
	TitleKey       core.LocKey         `json:"titleKey"`
	DescriptionKey core.LocKey         `json:"descriptionKey"`
	When           condition.Condition `json:"when"`
}

// SourceAchievement is an achievement as an author writes it.
type SourceAchievement struct {
	ID          string               `json:"id"`
	Title       core.SourceText      `json:"title"`
	Description core.SourceText      `json:"description"`
	When        *condition.Condition `json:"when"`
}

// BuildAchievements lifts the achievements' texts into b, under
// "<campaign>.achievement.<id>.title" and ".description"; a missing
// condition is reported and stands in as placeholder.
func BuildAchievements(b *authoring.Builder, src []SourceAchievement, placeholder condition.Condition) []Achievement {
	out := make([]Achievement, 0, len(src))
	for i, a := range src {
		p := authoring.ElemPath("content.achievements", i, a.ID)
		out = append(out, Achievement{
			ID:             a.ID,
			TitleKey:       b.Text(a.Title, "achievement."+a.ID+".title", p+".title", true),
			DescriptionKey: b.Text(a.Description, "achievement."+a.ID+".description", p+".description", true),
			When:           b.Cond(a.When, p+".when", placeholder),
		})
	}
	return out
}

// CheckAchievements checks the achievements' ids (unique snake_case),
// their number, and that each condition reads only fields fieldKind knows
// (authoring.Findings.Condition).
func CheckAchievements(k *authoring.Findings, as []Achievement, fieldKind func(string) string) {
	if len(as) > MaxAchievements {
		// Every kind of this package declares invalid_number.
		k.Add("invalid_number", "content.achievements", "at most %d achievements, got %d", MaxAchievements, len(as))
	}
	seen := map[string]bool{}
	for i, a := range as {
		p := authoring.ElemPath("content.achievements", i, a.ID)
		k.ID(seen, p, a.ID)
		k.Condition(p+".when", a.When, fieldKind)
	}
}

// AchievementKeys adds the achievements' LocKeys to ks.
func AchievementKeys(ks *authoring.Keys, as []Achievement) {
	for _, a := range as {
		ks.Add(a.TitleKey, "content.achievements."+a.ID+".title")
		ks.Add(a.DescriptionKey, "content.achievements."+a.ID+".description")
	}
}

// AchievementMilestones lists the achievements as core.MilestoneKind does.
func AchievementMilestones(as []Achievement) []core.Milestone {
	out := make([]core.Milestone, 0, len(as))
	for _, a := range as {
		out = append(out, core.Milestone{ID: a.ID, TitleKey: a.TitleKey, DescriptionKey: a.DescriptionKey})
	}
	return out
}

// Unlock adds to res, an accepted action's result whose state is the
// action's own copy, the achievements of as that its state does not hold
// yet and whose condition now holds against r: it returns the ids the
// state holds after (achieved with the new ones appended, in declaration
// order), and appends to res one achievement_unlocked change at
// "achieved.<id>" and one message with the title per unlock, as the story
// kind does. A rejected result is returned as it is.
func Unlock(as []Achievement, achieved []string, r condition.Resolver, res *core.AdvanceResult) []string {
	if res.Error != nil {
		return achieved
	}
	for _, a := range as {
		if slices.Contains(achieved, a.ID) {
			continue
		}
		if !Holds(&a.When, r) {
			continue
		}
		achieved = append(slices.Clip(achieved), a.ID)
		res.Changes = append(res.Changes, core.StateChange{Path: "achieved." + a.ID, Op: "set", Value: true, Reason: core.ReasonAchievementUnlocked, Visible: true})
		res.Messages = append(res.Messages, core.OutcomeMessage{Key: a.TitleKey, Tone: core.TonePositive, Visible: true})
	}
	return achieved
}

// Achiever is a kind state that holds the achievements unlocked in its
// game: the state of a kind using this package.
type Achiever[S any] interface {
	*S
	// UnlockedAchievements is the state's list of unlocked achievement ids.
	UnlockedAchievements() *[]string
	// Copy returns a copy the action may change.
	Copy() *S
	// Resolver reads the state's condition fields.
	Resolver() condition.Resolver
}

// WithAchievements is an accepted action's result res on prev with the
// achievements of as its state now meets unlocked (Unlock); the state is
// copied first when the action handed back prev itself.
func WithAchievements[S any, P Achiever[S]](as []Achievement, prev P, res core.AdvanceResult) core.AdvanceResult {
	next, ok := res.State.(P)
	if !ok || res.Error != nil || len(as) == 0 {
		return res
	}
	n := len(res.Changes)
	achieved := Unlock(as, *next.UnlockedAchievements(), next.Resolver(), &res)
	if len(res.Changes) == n {
		return res
	}
	if next == prev {
		next = P(prev.Copy())
		res.State = next
	}
	*next.UnlockedAchievements() = achieved
	return res
}

// CategoryAchievement is the migration id category of achievements
// (core.CampaignMigration), in every kind of this package.
const CategoryAchievement = "achievement"

// DeclaresAchievement says whether an id is one of as, for a kind's
// MigrationIDs.
func DeclaresAchievement(as []Achievement) func(string) bool {
	return func(id string) bool {
		return slices.ContainsFunc(as, func(a Achievement) bool { return a.ID == id })
	}
}

// MigrateAchieved applies m to a state's unlocked achievements: a renamed
// one moves, a removed one is dropped (the profile keeps it), and one that
// then names nothing the new content declares (known false), or two
// landing on one, fail rather than guess.
func MigrateAchieved(m Migration, achieved []string, known func(string) bool) ([]string, error) {
	var out []string
	for _, id := range achieved {
		to, keep := m.ID(CategoryAchievement, id)
		if !keep {
			continue
		}
		if !known(to) {
			return nil, fmt.Errorf("unknown achievement %q", to)
		}
		if slices.Contains(out, to) {
			return nil, fmt.Errorf("two achievements migrate to %q", to)
		}
		out = append(out, to)
	}
	return out, nil
}

// CheckAchieved refuses a state's unlocked achievements when one is not
// an achievement of as or is listed twice.
func CheckAchieved(as []Achievement, achieved []string) error {
	known := DeclaresAchievement(as)
	for i, id := range achieved {
		if !known(id) {
			return fmt.Errorf("achievement %q unknown", id)
		}
		if slices.Contains(achieved[:i], id) {
			return fmt.Errorf("achievement %q unlocked twice", id)
		}
	}
	return nil
}
