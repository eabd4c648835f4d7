package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
)

// Story is a generated branching story, independent of either format.
type Story struct {
	// Nodes are the story's nodes; Nodes[0] is the start and the last one
	// is the ending.
	Nodes []Node
}

// Node is one node: a choice node, a random node or the ending.
type Node struct {
	// ID names the node in both formats (an ink knot name, a story-graph
	// node id).
	ID string
	// Kind is "choice", "random" or "ending".
	Kind string
	// Effects apply each time the node is entered.
	Effects []Effect
	// Choices are a choice node's choices, in order.
	Choices []Choice
	// Transitions are a random node's weighted transitions.
	Transitions []Transition
}

// Effect changes one variable: op is "set", "increment" or "decrement".
type Effect struct {
	Var   string
	Op    string
	Value any // int or bool
}

// Cond is one comparison: field is "var.<id>" or "visits.<node>", op is
// "equals" or "greater_or_equal".
type Cond struct {
	Field string
	Op    string
	Value any
}

// Choice is one choice of a choice node, shown only when When holds.
type Choice struct {
	ID      string
	Label   string
	When    *Cond
	Effects []Effect
	To      string
}

// Transition is one weighted edge of a random node.
type Transition struct {
	To     string
	Weight int
}

// variable is one declared variable of the generated story.
type variable struct {
	id      string
	initial any
	label   string // non-empty: visible, shown in the text
}

var variables = []variable{
	{id: "gold", initial: 0, label: "Gold"},
	{id: "courage", initial: 0},
	{id: "lamp", initial: false},
	{id: "key", initial: false},
}

// farGold gates the ending: gold rises by at most five per choice and is
// spent often, so no benchmark run reaches it.
const farGold = 100000

// Generate returns a story of n nodes (n ≥ 10) drawn from seed.
func Generate(n int, seed uint64) Story {
	if n < 10 {
		n = 10
	}
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	id := func(i int) string { return fmt.Sprintf("n%d", i) }
	last := n - 1 // the ending
	isRandom := func(i int) bool { return i%5 == 3 && i < last }
	// anyNode is any node but the ending; choiceNode is a choice node.
	anyNode := func() string { return id(r.IntN(last)) }
	choiceNode := func() string {
		for {
			if i := r.IntN(last); !isRandom(i) {
				return id(i)
			}
		}
	}
	s := Story{Nodes: make([]Node, n)}
	for i := 0; i < n; i++ {
		nd := Node{ID: id(i)}
		switch {
		case i == last:
			nd.Kind = "ending"
		case isRandom(i):
			nd.Kind = "random"
			if i%2 == 0 {
				nd.Effects = []Effect{{"lamp", "set", true}}
			}
			for k := 0; k < 2+i%2; k++ {
				nd.Transitions = append(nd.Transitions, Transition{To: choiceNode(), Weight: 1 + r.IntN(3)})
			}
		default:
			nd.Kind = "choice"
			nd.Effects = []Effect{{"courage", "increment", 1}}
			next := (i + 1) % last
			nd.Choices = []Choice{
				{ID: "on", Label: "Go on", To: id(next)},
				{ID: "jump", Label: "Take the side path", Effects: []Effect{{"gold", "increment", 1}}, To: anyNode()},
			}
			if i%2 == 0 {
				nd.Choices = append(nd.Choices, Choice{ID: "lamp", Label: "Raise the lamp",
					When:    &Cond{"var.lamp", "equals", true},
					Effects: []Effect{{"lamp", "set", false}, {"key", "set", true}}, To: anyNode()})
			}
			if i%3 == 0 {
				nd.Choices = append(nd.Choices, Choice{ID: "remember", Label: "Remember the way",
					When: &Cond{"visits." + choiceNode(), "greater_or_equal", 2}, To: anyNode()})
			}
			if i%4 == 1 {
				nd.Choices = append(nd.Choices, Choice{ID: "spend", Label: "Pay the toll",
					When:    &Cond{"var.gold", "greater_or_equal", 3},
					Effects: []Effect{{"gold", "decrement", 3}, {"courage", "increment", 2}}, To: anyNode()})
			}
			if i%7 == 0 {
				nd.Choices = append(nd.Choices, Choice{ID: "door", Label: "Unlock the door",
					When:    &Cond{"var.key", "equals", true},
					Effects: []Effect{{"key", "set", false}, {"gold", "increment", 5}}, To: anyNode()})
			}
			if i == 0 {
				nd.Choices = append(nd.Choices, Choice{ID: "leave", Label: "Leave for good",
					When: &Cond{"var.gold", "greater_or_equal", farGold}, To: id(last)})
			}
		}
		s.Nodes[i] = nd
	}
	return s
}

// text is a node's text in both formats: {gold} is interpolated by both.
func (n Node) text() string {
	switch n.Kind {
	case "ending":
		return "You leave for good."
	case "random":
		return ""
	}
	return fmt.Sprintf("You stand at %s. You have {gold} gold.", n.ID)
}

// Campaign renders the story as a story-graph campaign file
// (docs/story-graph-kind.md §2).
func (s Story) Campaign(id string) []byte {
	type jsonEffect struct {
		Var   string `json:"var"`
		Op    string `json:"op"`
		Value any    `json:"value"`
	}
	type jsonCond struct {
		Field    string `json:"field"`
		Operator string `json:"operator"`
		Value    any    `json:"value"`
	}
	type jsonChoice struct {
		ID       string       `json:"id"`
		Text     string       `json:"text"`
		ShowWhen *jsonCond    `json:"showWhen,omitempty"`
		Effects  []jsonEffect `json:"effects,omitempty"`
		To       string       `json:"to"`
	}
	type jsonTransition struct {
		To     string `json:"to"`
		Weight int    `json:"weight"`
	}
	type jsonNode struct {
		ID          string           `json:"id"`
		Type        string           `json:"type"`
		Text        string           `json:"text,omitempty"`
		Effects     []jsonEffect     `json:"effects,omitempty"`
		Choices     []jsonChoice     `json:"choices,omitempty"`
		Transitions []jsonTransition `json:"transitions,omitempty"`
		EndingID    string           `json:"endingId,omitempty"`
		Title       string           `json:"title,omitempty"`
		Outcome     string           `json:"outcome,omitempty"`
	}
	type jsonVar struct {
		ID      string `json:"id"`
		Type    string `json:"type"`
		Initial any    `json:"initial"`
		Visible bool   `json:"visible,omitempty"`
		Label   string `json:"label,omitempty"`
	}
	effects := func(es []Effect) []jsonEffect {
		var out []jsonEffect
		for _, e := range es {
			out = append(out, jsonEffect(e))
		}
		return out
	}
	var vars []jsonVar
	for _, v := range variables {
		t := "int"
		if _, ok := v.initial.(bool); ok {
			t = "bool"
		}
		vars = append(vars, jsonVar{ID: v.id, Type: t, Initial: v.initial, Visible: v.label != "", Label: v.label})
	}
	var nodes []jsonNode
	for _, n := range s.Nodes {
		jn := jsonNode{ID: n.ID, Type: n.Kind, Text: n.text(), Effects: effects(n.Effects)}
		for _, c := range n.Choices {
			jc := jsonChoice{ID: c.ID, Text: c.Label, Effects: effects(c.Effects), To: c.To}
			if c.When != nil {
				jc.ShowWhen = &jsonCond{c.When.Field, c.When.Op, c.When.Value}
			}
			jn.Choices = append(jn.Choices, jc)
		}
		for _, t := range n.Transitions {
			jn.Transitions = append(jn.Transitions, jsonTransition(t))
		}
		if n.Kind == "ending" {
			jn.EndingID, jn.Title, jn.Outcome = "gone", "Gone", "neutral"
		}
		nodes = append(nodes, jn)
	}
	doc := map[string]any{
		"format": 1, "id": id, "kind": "story-graph", "version": "1.0.0", "title": "Peer benchmark story",
		"content": map[string]any{"start": s.Nodes[0].ID, "variables": vars, "nodes": nodes},
	}
	b, err := json.MarshalIndent(doc, "", " ")
	if err != nil {
		panic(err) // only plain values above
	}
	return append(b, '\n')
}

// Ink renders the story as ink source: a knot per node, sticky choices
// (`+`) because a story-graph choice can be taken on every visit, and a
// random node as RANDOM over the summed weights.
func (s Story) Ink() string {
	var b strings.Builder
	for _, v := range variables {
		fmt.Fprintf(&b, "VAR %s = %v\n", v.id, v.initial)
	}
	fmt.Fprintf(&b, "\n-> %s\n", s.Nodes[0].ID)
	effect := func(indent string, e Effect) {
		switch e.Op {
		case "set":
			fmt.Fprintf(&b, "%s~ %s = %v\n", indent, e.Var, e.Value)
		case "increment":
			fmt.Fprintf(&b, "%s~ %s = %s + %v\n", indent, e.Var, e.Var, e.Value)
		case "decrement":
			fmt.Fprintf(&b, "%s~ %s = %s - %v\n", indent, e.Var, e.Var, e.Value)
		}
	}
	for _, n := range s.Nodes {
		fmt.Fprintf(&b, "\n=== %s ===\n", n.ID)
		for _, e := range n.Effects {
			effect("", e)
		}
		switch n.Kind {
		case "ending":
			fmt.Fprintf(&b, "%s\n-> END\n", n.text())
		case "random":
			total := 0
			for _, t := range n.Transitions {
				total += t.Weight
			}
			b.WriteString("~ temp r = RANDOM(1, " + fmt.Sprint(total) + ")\n")
			acc := 0
			for i, t := range n.Transitions {
				acc += t.Weight
				if i == len(n.Transitions)-1 {
					fmt.Fprintf(&b, "-> %s\n", t.To)
				} else {
					fmt.Fprintf(&b, "{ r <= %d: -> %s }\n", acc, t.To)
				}
			}
		default:
			b.WriteString(n.text() + "\n")
			for _, c := range n.Choices {
				b.WriteString("+ ")
				if c.When != nil {
					b.WriteString("{" + inkCond(*c.When) + "} ")
				}
				b.WriteString("[" + c.Label + "]\n")
				for _, e := range c.Effects {
					effect("    ", e)
				}
				fmt.Fprintf(&b, "    -> %s\n", c.To)
			}
		}
	}
	return b.String()
}

// inkCond renders a condition as an ink expression: a knot's name reads
// its visit count.
func inkCond(c Cond) string {
	name := c.Field[strings.IndexByte(c.Field, '.')+1:]
	op := "=="
	if c.Op == "greater_or_equal" {
		op = ">="
	}
	return fmt.Sprintf("%s %s %v", name, op, c.Value)
}
