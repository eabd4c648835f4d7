package world

import (
	"maps"
	"slices"

	"github.com/storyloom/storyloom/engine/authoring"
	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/kinds/internal/contentkind"
)

// KindID is the world-graph kind's id.
const KindID = "world-graph"

// Version is the kind's semver; it moves when the shape of State changes.
const Version = "1.0.0"

// Resolutions: the closed set of terminal ids (core specification §3.2).
const (
	ResolutionObjectivesMet = "objectives_met"
	ResolutionFailed        = "failed"
)

// FailureTickLimit is the failureId of a game whose tick limit passed
// before every objective was met.
const FailureTickLimit = "tick_limit"

// MaxTicksPerAdvance bounds advance_ticks; 0 and anything above it are
// refused with invalid_tick_count.
const MaxTicksPerAdvance = 5000

// The verbs (action ids) of the kind.
const (
	ActionBuild        = "build"
	ActionDemolish     = "demolish"
	ActionSetPrice     = "set_price"
	ActionHire         = "hire"
	ActionFire         = "fire"
	ActionAdvanceTicks = "advance_ticks"
	ActionDecide       = "decide"
)

// Reason codes the kind adds to the base set: rejections, the audit reasons
// of its StateChanges, then content validation findings.
const (
	ReasonUnexpectedParams  = contentkind.ReasonUnexpectedParams
	ReasonMissingParam      = contentkind.ReasonMissingParam
	ReasonInvalidParam      = contentkind.ReasonInvalidParam
	ReasonUnknownBuilding   = "unknown_building"
	ReasonUnknownNode       = "unknown_node"
	ReasonNodeNotBuildable  = "node_not_buildable"
	ReasonNodeOccupied      = "node_occupied"
	ReasonNodeEmpty         = "node_empty"
	ReasonUnknownBand       = "unknown_band"
	ReasonInsufficientFunds = "insufficient_funds"
	ReasonUnknownStaff      = "unknown_staff"
	ReasonInvalidCount      = "invalid_count"
	ReasonStaffLimit        = "staff_limit"
	ReasonInvalidTickCount  = "invalid_tick_count"
	ReasonNoOffer           = "no_offer"
	ReasonUnknownChoice     = "unknown_choice"

	ReasonBuildingBuilt      = "building_built"
	ReasonBuildingDemolished = "building_demolished"
	ReasonPriceSet           = "price_set"
	ReasonStaffHired         = "staff_hired"
	ReasonStaffFired         = "staff_fired"
	ReasonTicksAdvanced      = "ticks_advanced"
	ReasonObjectiveMet       = "objective_met"
	ReasonObjectiveFailed    = "objective_failed"
	ReasonScenarioResolved   = "scenario_resolved"
	ReasonOfferOpened        = "offer_opened"
	ReasonOfferAnswered      = "offer_answered"
	ReasonOfferLapsed        = "offer_lapsed"

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
	ReasonUnknownBuilding:    "There is no such building in the catalogue.",
	ReasonUnknownNode:        "There is no such place in the world.",
	ReasonNodeNotBuildable:   "Nothing can be built there.",
	ReasonNodeOccupied:       "Something is already built there.",
	ReasonNodeEmpty:          "Nothing is built there.",
	ReasonUnknownBand:        "That building has no such price band.",
	ReasonInsufficientFunds:  "You cannot afford that.",
	ReasonUnknownStaff:       "There is no such kind of staff.",
	ReasonInvalidCount:       "The count must be a whole number of at least 1, and no more than you have.",
	ReasonStaffLimit:         "You cannot hire that many of them.",
	ReasonInvalidTickCount:   "The number of ticks must be a whole number from 1 to 5000.",
	ReasonBuildingBuilt:      "A building went up.",
	ReasonBuildingDemolished: "A building came down.",
	ReasonPriceSet:           "A price changed.",
	ReasonStaffHired:         "Staff were hired.",
	ReasonStaffFired:         "Staff were let go.",
	ReasonTicksAdvanced:      "Time passed.",
	ReasonObjectiveMet:       "An objective was met.",
	ReasonObjectiveFailed:    "An objective was failed.",
	ReasonScenarioResolved:   "The scenario is over.",
	ReasonNoOffer:            "Nothing is waiting for an answer.",
	ReasonUnknownChoice:      "That is not one of the answers.",
	ReasonOfferOpened:        "Someone asked for a decision.",
	ReasonOfferAnswered:      "You answered.",
	ReasonOfferLapsed:        "No answer came in time, so the default stood.",
})

// Engine-owned LocKeys besides reason messages: action labels
// (world-graph.action.*), scene text (world-graph.scene.*) and the
// engine's alerts (world-graph.alert.*). A projection passes each through
// ProjectionContext.EngineRef.
const (
	KeyActionBuild          = "world-graph.action.build"
	KeyActionDemolish       = "world-graph.action.demolish"
	KeyActionSetPrice       = "world-graph.action.set_price"
	KeyActionHire           = "world-graph.action.hire"
	KeyActionFire           = "world-graph.action.fire"
	KeyActionAdvanceTicks   = "world-graph.action.advance_ticks"
	KeyActionDecide         = "world-graph.action.decide"
	KeyActionNoOffer        = "world-graph.action.no_offer"
	KeyOfferLapsed          = "world-graph.offer.lapsed"
	KeyActionNothingToBuild = "world-graph.action.nothing_to_build"
	KeyActionNothingBuilt   = "world-graph.action.nothing_built"
	KeyActionNoStaff        = "world-graph.action.no_staff"
	KeyActionNoHire         = "world-graph.action.no_hire"
	KeySceneStatus          = "world-graph.scene.status"
	KeyAlertBrokenTitle     = "world-graph.alert.building_broken.title"
	KeyAlertBrokenMessage   = "world-graph.alert.building_broken.message"
	KeyAlertRepairedTitle   = "world-graph.alert.building_repaired.title"
	KeyAlertRepairedMessage = "world-graph.alert.building_repaired.message"
	KeyAlertResolvedTitle   = "world-graph.alert.scenario_resolved.title"
	KeyAlertResolvedMessage = "world-graph.alert.scenario_resolved.message"
	KeyResolutionMet        = "world-graph.resolution.objectives_met"
	KeyResolutionFailed     = "world-graph.resolution.failed"
	KeyObjectiveMet         = "world-graph.objective.met"
	KeyObjectiveFailed      = "world-graph.objective.failed"
)

var engineText = map[string]string{
	KeyActionBuild:          "Build",
	KeyActionDemolish:       "Demolish",
	KeyActionSetPrice:       "Set prices",
	KeyActionHire:           "Hire staff",
	KeyActionFire:           "Let staff go",
	KeyActionAdvanceTicks:   "Let time pass",
	KeyActionDecide:         "Answer",
	KeyActionNoOffer:        "Nothing is waiting for an answer.",
	KeyOfferLapsed:          "{offer}: no answer came, so “{choice}” it is.",
	KeyActionNothingToBuild: "There is no free site you can afford to build on.",
	KeyActionNothingBuilt:   "Nothing has been built yet.",
	KeyActionNoStaff:        "You have no staff to let go.",
	KeyActionNoHire:         "Every kind of staff is at its limit.",
	KeySceneStatus:          "Hour {tick} of {tickLimit}. {guests} guests about; cash {money}; rating {rating}.",
	KeyAlertBrokenTitle:     "Breakdown",
	KeyAlertBrokenMessage:   "The {building} at {node} has broken down and serves no one until it is repaired.",
	KeyAlertRepairedTitle:   "Repaired",
	KeyAlertRepairedMessage: "The {building} at {node} is running again.",
	KeyAlertResolvedTitle:   "Scenario over",
	KeyAlertResolvedMessage: "The scenario has ended: {resolution}.",
	KeyResolutionMet:        "Every objective was met.",
	KeyResolutionFailed:     "The scenario was failed.",
	KeyObjectiveMet:         "Objective met: {objective}.",
	KeyObjectiveFailed:      "Objective failed: {objective}.",
}

// Kind is the world-graph kind. The zero value is ready to use; register it
// with core.New alongside the other kinds.
type Kind struct{}

var (
	_ core.Kind            = Kind{}
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

// ReasonMessages implements core.Kind: a world-graph.reason.<code> message
// for every code, and the engine-owned action, scene and alert keys.
func (Kind) ReasonMessages() map[core.LocKey]string {
	return core.KindReasonMessages(KindID, reasonText, engineText)
}

// EventTicksAdvanced is the one event the kind emits, after each
// advance_ticks.
const EventTicksAdvanced = "kind.world-graph.ticks.advanced"

// EventNames implements core.Kind.
func (Kind) EventNames() []string { return []string{EventTicksAdvanced} }

// TerminalCount implements core.TerminalCounter: the two resolutions.
func (Kind) TerminalCount(*core.Campaign) int { return 2 }

// Milestones implements core.MilestoneKind: the campaign's achievements,
// and the two resolutions as endings, named by their titles when the
// campaign has them (else by their texts).
func (Kind) Milestones(c *core.Campaign) core.Milestones {
	content := contentOf(c)
	e := content.Endings
	if content.EndingTitles != nil {
		e = *content.EndingTitles
	}
	return core.Milestones{Achievements: contentkind.AchievementMilestones(content.Achievements), Endings: []core.Milestone{
		{ID: ResolutionObjectivesMet, TitleKey: e.ObjectivesMet, Outcome: core.OutcomeWin},
		{ID: ResolutionFailed, TitleKey: e.Failed, Outcome: core.OutcomeLose},
	}}
}
