package owp

import (
	"bytes"
	"html/template"
	"strconv"

	"github.com/storyloom/storyloom/bundle/owp/wire"
)

// operatorPath is the read-only operator page: rounds, assignments,
// payments and events of this instance, with no private content.
const operatorPath = "/operator"

// OperatorView is a read-only snapshot of the market for the person
// running it: what the coordinator knows, never a context plaintext.
type OperatorView struct {
	InstanceID string
	Now        string
	Identities int
	Rounds     []OperatorRound
	Events     []OperatorEvent
}

// OperatorRound is one round and its assignments.
type OperatorRound struct {
	RoundID    string
	Owner      string
	Capability string
	MediaType  string
	State      string
	Deadline   string
	Context    string // the weather round's policy, "" for writing
	Slots      []OperatorSlot
}

// OperatorSlot is one assignment and its payment.
type OperatorSlot struct {
	MatchID string
	Agent   string
	State   string
	Score   string
	Payment string
	Receipt string
}

// OperatorEvent is one event and the identity it went to.
type OperatorEvent struct {
	Agent string
	wire.Event
}

// Operator returns the current snapshot.
func (s *Server) Operator() OperatorView {
	s.mu.Lock()
	defer s.mu.Unlock()
	v := OperatorView{InstanceID: s.instance, Now: stamp(s.now()), Identities: len(s.m.identities)}
	for _, r := range s.m.rounds {
		or := OperatorRound{
			RoundID: r.id, Owner: r.owner.agentID, Capability: r.job.Capability, MediaType: r.mediaType,
			State: r.state, Deadline: stamp(r.deadline),
		}
		if cr := s.ctx.rounds[r.id]; cr != nil {
			or.Context = "revision " + strconv.Itoa(cr.revision) + ": consent " + cr.policy.Consent +
				", location " + cr.policy.Location + ", provider " + cr.policy.Provider
		}
		for _, a := range r.slots {
			m := a.view()
			slot := OperatorSlot{MatchID: a.id, Agent: a.agent.agentID, State: a.state, Payment: m.Payment.Status + " " + strconv.Itoa(m.Payment.Amount.Amount) + " " + m.Payment.Amount.Unit}
			if m.Score != nil {
				slot.Score = strconv.Itoa(*m.Score)
			}
			if m.Payment.ReceiptID != nil {
				slot.Receipt = *m.Payment.ReceiptID
			}
			or.Slots = append(or.Slots, slot)
		}
		v.Rounds = append(v.Rounds, or)
	}
	for _, it := range s.m.log {
		v.Events = append(v.Events, OperatorEvent{Agent: it.agentID, Event: it.event})
	}
	return v
}

var operatorTemplate = template.Must(template.New("operator").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="2">
<title>OWP market {{.InstanceID}}</title>
<style>body{font:14px/1.4 system-ui,sans-serif;margin:1.5rem}table{border-collapse:collapse;margin:.5rem 0 1.5rem}
td,th{border:1px solid #999;padding:.2rem .5rem;text-align:left}code{font-size:12px}</style></head>
<body><h1>OWP market sandbox (read-only)</h1>
<p>Instance <code>{{.InstanceID}}</code> at {{.Now}}; {{.Identities}} identities, {{len .Rounds}} rounds. The page refreshes every 2 s.</p>
<h2>Rounds and assignments</h2>
{{range .Rounds}}<h3>Round <code>{{.RoundID}}</code>: {{.Capability}} {{.MediaType}}, {{.State}}, deadline {{.Deadline}}</h3>
<p>Owner <code>{{.Owner}}</code>{{if .Context}}; context {{.Context}}{{end}}</p>
<table><tr><th>match</th><th>agent</th><th>state</th><th>score</th><th>payment</th><th>receipt</th></tr>
{{range .Slots}}<tr><td><code>{{.MatchID}}</code></td><td><code>{{.Agent}}</code></td><td>{{.State}}</td><td>{{.Score}}</td><td>{{.Payment}}</td><td><code>{{.Receipt}}</code></td></tr>
{{else}}<tr><td colspan="6">no assignment yet</td></tr>{{end}}</table>
{{else}}<p>No rounds yet.</p>{{end}}
<h2>Events</h2>
<table><tr><th>agent</th><th>#</th><th>type</th><th>at</th><th>round</th><th>match</th></tr>
{{range .Events}}<tr><td><code>{{.Agent}}</code></td><td>{{.Cursor}}</td><td>{{.Type}}</td><td>{{.OccurredAt}}</td><td><code>{{.RoundID}}</code></td><td><code>{{with .MatchID}}{{.}}{{end}}</code></td></tr>
{{end}}</table></body></html>
`))

func (s *Server) operatorPage() []byte {
	var b bytes.Buffer
	if err := operatorTemplate.Execute(&b, s.Operator()); err != nil {
		return []byte("operator page: " + template.HTMLEscapeString(err.Error()))
	}
	return b.Bytes()
}
