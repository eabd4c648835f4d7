package story

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/validate"
)

// validateSource builds src as campaign "sample" and validates it.
func validateSource(t *testing.T, src string) (errs, warnings []core.ValidationError) {
	t.Helper()
	content, lifted, berrs := Kind{}.BuildContent(json.RawMessage(src), "sample")
	if len(berrs) > 0 {
		return berrs, nil
	}
	strs := map[core.LocKey]string{}
	for _, a := range lifted {
		strs[a.Key] = a.Text
	}
	res := Kind{}.ValidateCampaign(&core.Campaign{ID: "sample", KindID: KindID, Version: "1", TitleKey: "sample.title", Content: content}, strs)
	if res.OK != (len(res.Errors) == 0) {
		t.Errorf("ok %v with %d errors", res.OK, len(res.Errors))
	}
	return res.Errors, res.Warnings
}

// TestValidateTier1: each broken element is refused with its code at its
// precise path.
func TestValidateTier1(t *testing.T) {
	tests := []struct {
		name, from, to, code, path string
	}{
		{"malformed", `"start": "gate",`, `"start": "gate", "bogus": 1,`, ReasonInvalidContent, "content"},
		{"start missing", `"start": "gate"`, `"start": "nowhere"`, ReasonUnknownNode, "content.start"},
		{"bad node id", `{"id": "dog", "type": "choice"`, `{"id": "Dog", "type": "choice"`, core.ReasonInvalidIdentifier, "content.nodes.Dog.id"},
		{"bad choice id", `{"id": "run", "text": "Run"`, `{"id": "run away", "text": "Run"`, core.ReasonInvalidIdentifier, "content.nodes.dog.choices.run away.id"},
		{"duplicate node", `{"id": "door", "type": "choice"`, `{"id": "dog", "type": "choice"`, ReasonDuplicateID, "content.nodes.dog"},
		{"duplicate choice", `{"id": "pat", "text": "Pat the dog"`, `{"id": "run", "text": "Pat the dog"`, ReasonDuplicateID, "content.nodes.dog.choices.run"},
		{"unknown target", `{"id": "run", "text": "Run", "to": "fled"}`, `{"id": "run", "text": "Run", "to": "moon"}`, ReasonUnknownNode, "content.nodes.dog.choices.run.to"},
		{"unknown transition", `{"to": "dog", "weight": 1}`, `{"to": "cat", "weight": 1}`, ReasonUnknownNode, "content.nodes.yard.transitions.0.to"},
		{"zero weight", `{"to": "dog", "weight": 1}`, `{"to": "dog", "weight": 0}`, ReasonInvalidWeight, "content.nodes.yard.transitions.0.weight"},
		{"fractional weight", `{"to": "door", "weight": 3}`, `{"to": "door", "weight": 1.5}`, ReasonInvalidWeight, "content.nodes.yard.transitions.1.weight"},
		{"unknown variable in effect", `{"var": "noise", "op": "increment"`, `{"var": "din", "op": "increment"`, ReasonUnknownVariable, "content.nodes.gate.choices.search.effects.1.var"},
		{"set with wrong type", `{"var": "mood", "op": "set", "value": "bright"}`, `{"var": "mood", "op": "set", "value": 1}`, ReasonInvalidEffect, "content.nodes.gate.choices.fill.effects.1.value"},
		{"increment a bool", `{"var": "has_key", "op": "set", "value": true}`, `{"var": "has_key", "op": "increment", "value": 1}`, ReasonInvalidEffect, "content.nodes.gate.choices.search.effects.0"},
		{"unknown op", `{"var": "oil", "op": "decrement", "value": 1}`, `{"var": "oil", "op": "halve", "value": 1}`, ReasonInvalidEffect, "content.nodes.dog.effects.0.op"},
		{"initial of wrong type", `"type": "bool", "initial": false}`, `"type": "bool", "initial": 0}`, ReasonInvalidVariable, "content.variables.has_key.initial"},
		{"initial out of bounds", `"initial": 3, "min": 0`, `"initial": 9, "min": 0`, ReasonInvalidVariable, "content.variables.oil.initial"},
		{"min above max", `"min": 0, "max": 5`, `"min": 6, "max": 5`, ReasonInvalidVariable, "content.variables.oil.min"},
		{"bounds on a string", `"initial": "calm",`, `"initial": "calm", "min": 1,`, ReasonInvalidVariable, "content.variables.mood"},
		{"unknown type", `"type": "string", "initial": "calm"`, `"type": "text", "initial": "calm"`, ReasonInvalidVariable, "content.variables.mood.type"},
		{"visible without label", `"visible": true, "label": "Mood"`, `"visible": true`, core.ReasonMissingStringKey, "content.variables.mood.label"},
		{"unknown field in condition", `"field": "var.has_key", "operator": "equals", "value": true}`, `"field": "var.key", "operator": "equals", "value": true}`, ReasonUnknownConditionField, "content.nodes.gate.choices.open.requires"},
		{"unknown collection", `"requires": {"field": "var.oil", "operator": "greater_than", "value": 10}`, `"requires": {"exists": {"collection": "items", "where": {"field": "id", "operator": "equals", "value": 1}}}`, ReasonUnknownConditionField, "content.nodes.gate.choices.climb.requires"},
		{"bad operator", `"operator": "greater_than"`, `"operator": "bigger"`, ReasonInvalidCondition, "content.nodes.gate.choices.climb.requires"},
		{"ordering a bool", `"field": "var.oil", "operator": "greater_than", "value": 10`, `"field": "var.has_key", "operator": "greater_than", "value": 10`, ReasonInvalidCondition, "content.nodes.gate.choices.climb.requires"},
		{"has_flag on a non-flag", `"field": "var.oil", "operator": "greater_than", "value": 10`, `"field": "flags", "operator": "has_flag", "value": "oil"`, ReasonInvalidCondition, "content.nodes.gate.choices.climb.requires"},
		{"achievement condition", `"field": "var.oil", "operator": "equals", "value": 5}`, `"field": "visits.attic", "operator": "equals", "value": 5}`, ReasonUnknownConditionField, "content.achievements.well_oiled.when"},
		{"unknown unlock", `"unlocks": ["locksmith"]`, `"unlocks": ["burglar"]`, ReasonUnknownAchievement, "content.nodes.gate.choices.open.unlocks.0"},
		{"placeholder of hidden variable", `You have {oil} oil`, `You have {noise} oil`, ReasonInvalidPlaceholder, "content.nodes.gate.textKey"},
		{"placeholder of unknown variable", `You have {oil} oil`, `You have {gold} oil`, ReasonInvalidPlaceholder, "content.nodes.gate.textKey"},
		{"plural without other", `You have {oil} oil`, `You have {oil, plural, one {# can}} oil`, ReasonInvalidPlural, "content.nodes.gate.textKey"},
		{"plural with unknown category", `You have {oil} oil`, `You have {oil, plural, single {# can} other {# cans}} of`, ReasonInvalidPlural, "content.nodes.gate.textKey"},
		{"plural of a string", `You have {oil} oil`, `You have {mood, plural, one {#} other {#}} oil`, ReasonInvalidPlural, "content.nodes.gate.textKey"},
		{"relies on a non-flag", `"outcome": "win"}`, `"outcome": "win", "reliesOn": ["oil"]}`, ReasonUnknownVariable, "content.nodes.home.reliesOn.0"},
		{"plural of a hidden variable", `You have {oil} oil`, `You have {noise, plural, one {#} other {#}} oil`, ReasonInvalidPlaceholder, "content.nodes.gate.textKey"},
		{"choice node without choices", `"text": "The door.", "choices": [`, `"text": "The door.", "effects": [], "choices": [], "x": [`, ReasonInvalidContent, "content"},
		{"random with choices", `{"id": "yard", "type": "random",`, `{"id": "yard", "type": "random", "choices": [{"id": "a", "text": "A", "to": "home"}],`, ReasonInvalidNode, "content.nodes.yard"},
		{"unknown node type", `{"id": "yard", "type": "random"`, `{"id": "yard", "type": "chance"`, ReasonInvalidNode, "content.nodes.yard.type"},
		{"bad outcome", `"outcome": "win"`, `"outcome": "victory"`, ReasonInvalidNode, "content.nodes.home.outcome"},
		{"bad ending id", `"endingId": "home"`, `"endingId": "Home"`, core.ReasonInvalidIdentifier, "content.nodes.home.endingId"},
		{"ending conflict", `"endingId": "fled", "title": "Fled", "text": "You ran.", "outcome": "lose"`, `"endingId": "home", "title": "Home", "text": "You ran.", "outcome": "lose"`, ReasonEndingConflict, "content.nodes.fled"},
		{"string conflict", `"title": "Fled"`, `"title": {"key": "sample.ending.home.title", "text": "Gone"}`, core.ReasonStringConflict, "content.nodes.fled.title"},
		{"reason without requires", `{"id": "knock", "text": "Knock",`, `{"id": "knock", "text": "Knock", "requirementFail": "No.",`, ReasonInvalidNode, "content.nodes.door.choices.knock.requirementFailKey"},
		{"referenced key missing", `"requirementFail": "The gate is locked."`, `"requirementFail": {"key": "sample.shared.locked"}`, core.ReasonMissingStringKey, "content.nodes.gate.choices.open.requirementFailKey"},
		{"bad explicit key", `"text": "Run"`, `"text": {"key": "Run.Away", "text": "Run"}`, core.ReasonInvalidLocKey, "content.nodes.dog.choices.run.labelKey"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if !strings.Contains(sampleSource, tc.from) {
				t.Fatalf("sample has no %q", tc.from)
			}
			errs, _ := validateSource(t, strings.Replace(sampleSource, tc.from, tc.to, 1))
			for _, e := range errs {
				if e.Code == tc.code && e.Path == tc.path {
					if !strings.HasPrefix(e.Message, "story: ") {
						t.Errorf("message %q", e.Message)
					}
					return
				}
			}
			t.Errorf("want %s at %s; got %v", tc.code, tc.path, errs)
		})
	}
	if errs, warns := validateSource(t, sampleSource); len(errs) != 0 || len(warns) != 0 {
		t.Errorf("the sample is not clean: %v %v", errs, warns)
	}
}

// TestValidatePluralDetails: a malformed plural names its syntax code and
// the byte offset where it opens, so an author can find it in long text.
func TestValidatePluralDetails(t *testing.T) {
	errs, _ := validateSource(t, strings.Replace(sampleSource, `You have {oil} oil`, `You have {oil, plural, one {# can}} oil`, 1))
	for _, e := range errs {
		if e.Code == ReasonInvalidPlural {
			if e.Details["syntax"] != "plural_no_other" || e.Details["offset"] != len("A gate. You have ") {
				t.Fatalf("details %v", e.Details)
			}
			return
		}
	}
	t.Fatalf("no %s in %v", ReasonInvalidPlural, errs)
}

// TestValidateReliesOn: tier 3 reports the shortest path that reaches a
// node without a fact its text relies on, and nothing once every path
// establishes it.
func TestValidateReliesOn(t *testing.T) {
	src := strings.Replace(sampleSource, `"outcome": "win"}`, `"outcome": "win", "reliesOn": ["patted"]}`, 1)
	src = strings.Replace(src, `{"id": "noise", "type": "int", "initial": 0}`, `{"id": "noise", "type": "int", "initial": 0}, {"id": "patted", "type": "bool", "initial": false}`, 1)
	src = strings.Replace(src, `{"id": "pat", "text": "Pat the dog", "to": "door"}`, `{"id": "pat", "text": "Pat the dog", "effects": [{"var": "patted", "op": "set", "value": true}], "to": "door"}`, 1)
	tier3 := func(src string) []core.ValidationWarning {
		t.Helper()
		content, _, errs := Kind{}.BuildContent(json.RawMessage(src), "sample")
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		ws, _ := validate.Tier3(Kind{}, &core.Campaign{ID: "sample", KindID: KindID, Version: "1", TitleKey: "sample.title", Content: content}, validate.DefaultBudget())
		return ws
	}
	var found []core.ValidationWarning
	for _, w := range tier3(src) {
		if w.Code == core.ReasonFactUnsupported {
			found = append(found, w)
		}
	}
	if len(found) != 1 || found[0].Path != "content.nodes.home" || !strings.Contains(found[0].Message, "reached without patted after: ") ||
		!strings.Contains(found[0].Message, "knock") || strings.Contains(found[0].Message, "pat ") {
		t.Fatalf("findings %v", found)
	}
	// Only patting the dog leads home: the fact now always holds there.
	fixed := strings.Replace(src, `{"id": "knock", "text": "Knock", "to": "home"}`, `{"id": "knock", "text": "Knock", "requires": {"field": "var.patted", "operator": "equals", "value": true}, "to": "home"}`, 1)
	for _, w := range tier3(fixed) {
		if w.Code == core.ReasonFactUnsupported {
			t.Fatalf("finding on a path that pats the dog: %v", w)
		}
	}
}

// TestValidateTier2: warnings load but flag.
func TestValidateTier2(t *testing.T) {
	tests := []struct {
		name, from, to, code, path string
	}{
		{"unreachable node", `{"id": "fled", "type": "ending"`, `{"id": "attic", "type": "choice", "text": "Dust.", "choices": [{"id": "down", "text": "Down", "to": "gate"}]},
  {"id": "fled", "type": "ending"`, core.ReasonUnreachableContent, "content.nodes.attic"},
		{"loop without exit", `{"id": "knock", "text": "Knock", "to": "home"},
   {"id": "leave", "text": "Leave", "to": "fled"}`, `{"id": "knock", "text": "Knock", "to": "door"},
   {"id": "leave", "text": "Leave", "to": "door"}`, ReasonCycleWithoutExit, "content.nodes.door"},
		{"random cycle", `{"to": "dog", "weight": 1}`, `{"to": "yard", "weight": 1}`, ReasonRandomCycle, "content.nodes.yard"},
		{"no reachable choice", `"start": "gate"`, `"start": "home"`, core.ReasonNoReachableChoice, "content.start"},
		{"achievement nothing unlocks", `"unlocks": ["locksmith"], `, ``, ReasonAchievementUnobtainable, "content.achievements.locksmith"},
		{"unused variable", `{"var": "noise", "op": "increment", "value": 1}`, `{"var": "has_key", "op": "set", "value": true}`, ReasonUnusedVariable, "content.variables.noise"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if !strings.Contains(sampleSource, tc.from) {
				t.Fatalf("sample has no %q", tc.from)
			}
			errs, warns := validateSource(t, strings.Replace(sampleSource, tc.from, tc.to, 1))
			if len(errs) != 0 {
				t.Fatalf("tier 1: %v", errs)
			}
			for _, w := range warns {
				if w.Code == tc.code && w.Path == tc.path {
					return
				}
			}
			t.Errorf("want %s at %s; got %v", tc.code, tc.path, warns)
		})
	}
}

// TestBuildContentKeys: derived keys are namespaced by campaign id, named
// keys are kept, and identical pairs are lifted once.
func TestBuildContentKeys(t *testing.T) {
	src := `{"start": "a", "variables": [{"id": "v", "type": "int", "initial": 0, "visible": true, "label": "V"}],
 "achievements": [{"id": "x", "title": "X", "description": "Do x."}],
 "nodes": [
  {"id": "a", "type": "choice", "text": "A {v}", "choices": [
   {"id": "go", "text": {"key": "shared.go", "text": "Go"}, "requires": {"field": "turn", "operator": "less_than", "value": 9}, "requirementFail": "Too late.", "unlocks": ["x"], "to": "b"},
   {"id": "stay", "text": {"key": "shared.go", "text": "Go"}, "to": "a"}]},
  {"id": "b", "type": "ending", "endingId": "done", "title": "Done", "text": "B", "outcome": "neutral"}]}`
	c, lifted, errs := Kind{}.BuildContent(json.RawMessage(src), "my-camp")
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	var keys []string
	for _, a := range lifted {
		keys = append(keys, a.Key)
	}
	want := "my-camp.variable.v.label my-camp.achievement.x.title my-camp.achievement.x.description my-camp.node.a.text shared.go my-camp.choice.a.go.locked my-camp.node.b.text my-camp.ending.done.title"
	if got := strings.Join(keys, " "); got != want {
		t.Errorf("keys\n got %s\nwant %s", got, want)
	}
	b, _ := json.Marshal(c)
	back, err := Kind{}.DecodeContent(b)
	if err != nil {
		t.Fatal(err)
	}
	b2, _ := json.Marshal(back)
	if string(b) != string(b2) {
		t.Errorf("content does not round-trip:\n%s\n%s", b, b2)
	}
	if _, err := (Kind{}).DecodeContent(json.RawMessage(strings.Replace(string(b), `"start"`, `"extra":1,"start"`, 1))); err == nil {
		t.Error("DecodeContent accepted an unknown field")
	}
}
