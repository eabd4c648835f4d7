package sim

import (
	"maps"
	"slices"

	"github.com/storyloom/storyloom/engine/authoring"
	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/kinds/internal/contentkind"
)

// KindID is the simulation kind's id.
const KindID = "simulation"

// Version is the kind's semver; it moves when the shape of State changes.
const Version = "1.0.0"

// Resolutions: the closed set of terminal ids (core specification §3.2).
const (
	ResolutionGoalsMet         = "goals_met"
	ResolutionFailed           = "failed"
	ResolutionWeekLimitReached = "week_limit_reached"
)

// The verbs (action ids) of the kind.
const (
	ActionPlanAdd    = "plan.add"
	ActionPlanRemove = "plan.remove"
	ActionPlanClear  = "plan.clear"
	ActionEndWeek    = "end_week"
)

// The engine-created activities of the fixed investment account. An
// authored activity may not use either id.
const (
	ActivityInvest   = "invest"
	ActivityWithdraw = "withdraw"
)

// Reason codes the kind adds to the base set. Rejections first, then the
// audit reasons of its StateChanges, then content validation findings.
const (
	ReasonUnexpectedParams     = contentkind.ReasonUnexpectedParams
	ReasonMissingParam         = contentkind.ReasonMissingParam
	ReasonInvalidParam         = contentkind.ReasonInvalidParam
	ReasonUnknownActivity      = "unknown_activity"
	ReasonInvalidCount         = "invalid_count"
	ReasonInvalidIndex         = "invalid_index"
	ReasonPlanOverBudget       = "plan_over_budget"
	ReasonPlanOverHours        = "plan_over_hours"
	ReasonActivityLimitReached = "activity_limit_reached"
	ReasonActivityUnavailable  = "activity_unavailable"

	ReasonPlanChanged        = "plan_changed"
	ReasonActivityResolved   = "activity_resolved"
	ReasonUpkeepPaid         = "upkeep_paid"
	ReasonInvestmentReturned = "investment_returned"
	ReasonStatDrifted        = "stat_drifted"
	ReasonIncidentOccurred   = "incident_occurred"
	ReasonChainAdvanced      = "chain_advanced"
	ReasonWeekEnded          = "week_ended"
	ReasonGoalMet            = "goal_met"
	ReasonGoalFailed         = "goal_failed"
	ReasonGameResolved       = "game_resolved"

	ReasonInvalidWeight    = "invalid_weight"
	ReasonInvalidNumber    = authoring.ReasonInvalidNumber
	ReasonUnknownReference = authoring.ReasonUnknownReference
	ReasonDuplicateID      = authoring.ReasonDuplicateID
	ReasonReservedID       = authoring.ReasonReservedID
	ReasonMissingField     = authoring.ReasonMissingField
	ReasonInvalidCondition = authoring.ReasonInvalidCondition
)

// reasonText is every kind-owned code's message: the kind's own, and those
// of the parameter codes and tier 1 findings it shares through packages
// contentkind and authoring.
var reasonText = contentkind.ReasonMessages(map[string]string{
	ReasonUnknownActivity:      "There is no such activity.",
	ReasonInvalidCount:         "The count must be a whole number of at least 1.",
	ReasonInvalidIndex:         "There is no plan item at that position.",
	ReasonPlanOverBudget:       "The plan would cost more money than you have.",
	ReasonPlanOverHours:        "The plan would take more hours than the week has.",
	ReasonActivityLimitReached: "That activity cannot be planned that many times in one week.",
	ReasonActivityUnavailable:  "That activity is not open to you yet.",
	ReasonPlanChanged:          "The plan changed.",
	ReasonActivityResolved:     "A planned activity took place.",
	ReasonUpkeepPaid:           "The week's upkeep was paid.",
	ReasonInvestmentReturned:   "The investment account's balance moved with the market.",
	ReasonStatDrifted:          "A value drifted over the week.",
	ReasonIncidentOccurred:     "Something happened this week.",
	ReasonChainAdvanced:        "A story moved on.",
	ReasonWeekEnded:            "The week ended.",
	ReasonGoalMet:              "A goal was met.",
	ReasonGoalFailed:           "A goal was failed.",
	ReasonGameResolved:         "The game is over.",
	ReasonInvalidWeight:        "A weight must be a positive whole number.",
})

// Engine-owned LocKeys other than reason messages. They reach responses
// through ProjectionContext.EngineRef (or, in messages, as they are).
const (
	KeyInvestmentLabel        = "simulation.finance.investment.label"
	KeyInvestmentInvest       = "simulation.finance.investment.invest.label"
	KeyInvestmentInvestDesc   = "simulation.finance.investment.invest.description"
	KeyInvestmentWithdraw     = "simulation.finance.investment.withdraw.label"
	KeyInvestmentWithdrawDesc = "simulation.finance.investment.withdraw.description"
	KeyInvestmentGained       = "simulation.finance.investment.gained"
	KeyInvestmentLost         = "simulation.finance.investment.lost"
	KeySceneWeek              = "simulation.scene.week"
	KeyActionPlanAdd          = "simulation.action.plan_add"
	KeyActionPlanRemove       = "simulation.action.plan_remove"
	KeyActionPlanClear        = "simulation.action.plan_clear"
	KeyActionEndWeek          = "simulation.action.end_week"
	KeyUpkeepLabel            = "simulation.upkeep.label"
	KeyGoalMet                = "simulation.goal.met"
	KeyGoalFailed             = "simulation.goal.failed"
	keyResolutionPrefix       = "simulation.resolution."
	KeyResolutionGoalsMet     = keyResolutionPrefix + ResolutionGoalsMet
	KeyResolutionFailed       = keyResolutionPrefix + ResolutionFailed
	KeyResolutionWeekLimit    = keyResolutionPrefix + ResolutionWeekLimitReached
	KeyNothingToAdd           = "simulation.action.nothing_to_add"
	KeyPlanEmpty              = "simulation.action.plan_empty"
)

var engineText = map[string]string{
	KeyInvestmentLabel:        "Investment account",
	KeyInvestmentInvest:       "Invest",
	KeyInvestmentInvestDesc:   "Move {amount} into the investment account, where it rises and falls with the market each week.",
	KeyInvestmentWithdraw:     "Withdraw investments",
	KeyInvestmentWithdrawDesc: "Move the whole investment balance back into cash at the end of the week.",
	KeyInvestmentGained:       "Your investments gained {amount}.",
	KeyInvestmentLost:         "Your investments lost {amount}.",
	KeySceneWeek:              "Week {week} of {weeks}. Cash: {money}. Hours left to plan: {hoursFree} of {hoursPerWeek}.",
	KeyActionPlanAdd:          "Add to plan",
	KeyActionPlanRemove:       "Remove from plan",
	KeyActionPlanClear:        "Clear plan",
	KeyActionEndWeek:          "End the week",
	KeyUpkeepLabel:            "Weekly upkeep",
	KeyGoalMet:                "Goal met: {goal}.",
	KeyGoalFailed:             "Goal failed: {goal}.",
	KeyResolutionGoalsMet:     "You met every goal.",
	KeyResolutionFailed:       "You failed a goal, and the game is over.",
	KeyResolutionWeekLimit:    "The last week is over and not every goal was met.",
	KeyNothingToAdd:           "No activity fits into what is left of this week.",
	KeyPlanEmpty:              "The plan is empty.",
}

// Kind is the simulation kind. The zero value is ready to use; register it
// with core.New alongside the other kinds.
type Kind struct{}

var (
	_ core.Kind            = Kind{}
	_ core.ProfileKind     = Kind{}
	_ core.TerminalCounter = Kind{}
	_ core.ContentMigrator = Kind{}
	_ core.ContentAdopter  = Kind{}
)

// ID implements core.Kind.
func (Kind) ID() string { return KindID }

// Version implements core.Kind.
func (Kind) Version() string { return Version }

// ReasonCodes implements core.Kind.
func (Kind) ReasonCodes() []string { return slices.Sorted(maps.Keys(reasonText)) }

// ReasonMessages implements core.Kind: a simulation.reason.<code> message
// for every code, and the engine-owned keys of the investment account,
// scene and action labels.
func (Kind) ReasonMessages() map[core.LocKey]string {
	return core.KindReasonMessages(KindID, reasonText, engineText)
}

// Event names the kind emits.
const (
	EventSystemRan = "kind.simulation.system.ran"
	EventWeekEnded = "kind.simulation.week.ended"
)

// EventNames implements core.Kind.
func (Kind) EventNames() []string { return []string{EventSystemRan, EventWeekEnded} }

// Milestones implements core.MilestoneKind: the campaign's achievements,
// and the three resolutions as endings, named by their titles when the
// campaign has them (else by their texts).
func (Kind) Milestones(c *core.Campaign) core.Milestones {
	content := contentOf(c)
	e := content.Endings
	if content.EndingTitles != nil {
		e = *content.EndingTitles
	}
	return core.Milestones{Achievements: contentkind.AchievementMilestones(content.Achievements), Endings: []core.Milestone{
		{ID: ResolutionGoalsMet, TitleKey: e.GoalsMet, Outcome: core.OutcomeWin},
		{ID: ResolutionWeekLimitReached, TitleKey: e.WeekLimitReached, Outcome: core.OutcomeNeutral},
		{ID: ResolutionFailed, TitleKey: e.Failed, Outcome: core.OutcomeLose},
	}}
}

// TerminalCount implements core.TerminalCounter: the three resolutions.
func (Kind) TerminalCount(*core.Campaign) int { return 3 }
