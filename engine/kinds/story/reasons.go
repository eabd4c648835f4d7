package story

import (
	"maps"
	"slices"

	"github.com/storyloom/storyloom/engine/core"
)

// KindID is the story-graph kind's id.
const KindID = "story-graph"

// Version is the kind's semver; it moves when the shape of State changes.
const Version = "1.0.0"

// Kind-owned reason codes (docs/story-graph-kind.md §12). Each has a message
// under "story-graph.reason.<code>".
const (
	// ReasonUnexpectedParams: an action carried parameters; a choice takes none.
	ReasonUnexpectedParams = "unexpected_params"
	// ReasonUnknownConditionField: a condition reads a field or collection
	// the story-graph vocabulary does not define, or fails to evaluate.
	ReasonUnknownConditionField = "unknown_condition_field"
	// ReasonConsequenceApplied is the audit reason of a variable change.
	ReasonConsequenceApplied = "consequence_applied"
	// ReasonInvalidContent: the content source is not a story-graph document.
	ReasonInvalidContent = "invalid_content"
	// ReasonDuplicateID: two elements of one category share an id.
	ReasonDuplicateID = "duplicate_id"
	// ReasonUnknownNode: a reference names no node.
	ReasonUnknownNode = "unknown_node"
	// ReasonUnknownVariable: a reference names no declared variable.
	ReasonUnknownVariable = "unknown_variable"
	// ReasonUnknownAchievement: a reference names no declared achievement.
	ReasonUnknownAchievement = "unknown_achievement"
	// ReasonInvalidNode: a node's fields do not fit its type.
	ReasonInvalidNode = "invalid_node"
	// ReasonInvalidVariable: a declaration's type, bounds or initial value is wrong.
	ReasonInvalidVariable = "invalid_variable"
	// ReasonInvalidEffect: an effect's operation or value does not fit its variable.
	ReasonInvalidEffect = "invalid_effect"
	// ReasonInvalidWeight: a random transition's weight is not a positive integer.
	ReasonInvalidWeight = "invalid_weight"
	// ReasonInvalidCondition: a condition's shape is wrong or it compares
	// values of the wrong type.
	ReasonInvalidCondition = "invalid_condition"
	// ReasonInvalidPlaceholder: text interpolates something that is not a
	// declared, visible variable.
	ReasonInvalidPlaceholder = "invalid_placeholder"
	// ReasonInvalidPlural: a {name, plural, ...} argument is malformed or
	// counts a variable that is not an int; details give the syntax code
	// and the byte offset in the text.
	ReasonInvalidPlural = "invalid_plural"
	// ReasonEndingConflict: nodes sharing an ending id disagree on its title
	// or outcome.
	ReasonEndingConflict = "ending_conflict"
	// ReasonCycleWithoutExit (tier 2): a loop of nodes no choice or draw can leave.
	ReasonCycleWithoutExit = "cycle_without_exit"
	// ReasonRandomCycle (tier 2): random nodes lead into each other, so a
	// settle may run into its step cap.
	ReasonRandomCycle = "random_cycle"
	// ReasonAchievementUnobtainable (tier 2): nothing unlocks an achievement.
	ReasonAchievementUnobtainable = "achievement_unobtainable"
	// ReasonUnusedVariable (tier 2): a variable nothing reads or writes.
	ReasonUnusedVariable = "unused_variable"
	// ReasonInvalidBinding: an include's binding or an attachment's payload
	// names what the module or the host does not have (§1.1).
	ReasonInvalidBinding = "invalid_binding"
	// ReasonSettleCapped: a settle reached MaxSettleSteps and rests on a
	// random node (an event field and tier 3 finding, never a rejection).
	ReasonSettleCapped = "settle_capped"
)

var reasonMessages = map[string]string{
	ReasonUnexpectedParams:        "A story choice takes no parameters.",
	ReasonUnknownConditionField:   "A condition reads something this story does not define.",
	ReasonConsequenceApplied:      "Your choice changed something.",
	ReasonInvalidContent:          "The story content is malformed.",
	ReasonDuplicateID:             "Two story elements share one id.",
	ReasonUnknownNode:             "A story link points to a scene that does not exist.",
	ReasonUnknownVariable:         "The story uses a variable it does not declare.",
	ReasonUnknownAchievement:      "The story names an achievement it does not declare.",
	ReasonInvalidNode:             "A story scene is not shaped right for its type.",
	ReasonInvalidVariable:         "A story variable is declared wrongly.",
	ReasonInvalidEffect:           "A story effect does not fit its variable.",
	ReasonInvalidWeight:           "A random transition's weight must be a positive whole number.",
	ReasonInvalidCondition:        "A story condition is malformed.",
	ReasonInvalidPlaceholder:      "Story text shows a value that is not a visible variable.",
	ReasonInvalidPlural:           "A plural in story text is malformed or counts something that is not a number.",
	ReasonEndingConflict:          "Scenes sharing an ending disagree on its title or outcome.",
	ReasonCycleWithoutExit:        "Some scenes loop forever with no way out.",
	ReasonRandomCycle:             "Random transitions lead into each other and may loop.",
	ReasonAchievementUnobtainable: "Nothing in the story unlocks this achievement.",
	ReasonUnusedVariable:          "The story declares a variable it never uses.",
	ReasonInvalidBinding:          "A story module is bound to something that does not exist.",
	ReasonSettleCapped:            "The story drew too many random transitions in a row and stopped.",
}

var reasonCodes = slices.Sorted(maps.Keys(reasonMessages))

func reasonKey(code string) core.LocKey { return core.KindReasonKey(KindID, code) }

func kindErr(code, path, format string, args ...any) core.ValidationError {
	return core.KindErrorf(KindID, code, path, format, args...)
}
