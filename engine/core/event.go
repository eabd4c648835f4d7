package core

// Event is one observability event (docs/observability.md): what a
// resolution is doing, for whatever sink a host attached. Events never reach
// a game's state: removing every one leaves Serialize byte-identical.
type Event struct {
	GameID  string         `json:"gameId"`
	Seq     int            `json:"seq"`
	Ordinal int            `json:"ordinal"`
	Name    string         `json:"name"`
	Fields  map[string]any `json:"fields,omitempty"`
}

// Emitter is an event sink.
type Emitter interface {
	Emit(Event)
}

// NullEmitter drops every event.
type NullEmitter struct{}

// Emit implements Emitter.
func (NullEmitter) Emit(Event) {}

// RecordingEmitter keeps every event in order. It is not safe for use by
// several goroutines at once.
type RecordingEmitter struct {
	Events []Event
}

// Emit implements Emitter.
func (r *RecordingEmitter) Emit(e Event) { r.Events = append(r.Events, e) }

// ResolutionEmitter is one resolution's event handle: it stamps each event
// with the game, the seq and an ordinal that restarts per resolution.
type ResolutionEmitter struct {
	sink    Emitter
	gameID  string
	seq     int
	ordinal int
}

// Enabled reports whether events reach a sink; a caller whose fields cost
// something to build checks it first.
func (r *ResolutionEmitter) Enabled() bool {
	if r == nil || r.sink == nil {
		return false
	}
	_, null := r.sink.(NullEmitter)
	return !null
}

// Emit sends the event name with fields to the sink.
func (r *ResolutionEmitter) Emit(name string, fields map[string]any) {
	if !r.Enabled() {
		return
	}
	r.sink.Emit(Event{GameID: r.gameID, Seq: r.seq, Ordinal: r.ordinal, Name: name, Fields: fields})
	r.ordinal++
}
