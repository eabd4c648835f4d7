package session

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"slices"
	"strconv"

	"github.com/storyloom/storyloom/engine/canon"
	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/strictjson"
)

// Versions this build writes and reads in a SaveEnvelope (§10.2). A save of
// another saveFormatVersion or serializationVersion is refused
// save_requires_migration.
const (
	SaveFormatVersion    = 1
	SerializationVersion = 1
)

// EngineVersion is recorded in every save for provenance; it is the
// engine's own (core.EngineVersion) and never gates a load by itself.
const EngineVersion = core.EngineVersion

// MaxSaveBytes is the largest save document LoadGame and ImportSave read.
const MaxSaveBytes = core.MaxStateBytes + 4096

// SaveEnvelope wraps a serialized GameState with what a load needs to judge
// it (§10.2). Checksum is the SHA-256 of the canonical
// {replayCompatible, state}; the other fields are cross-checked against the
// state they describe.
type SaveEnvelope struct {
	SaveFormatVersion    int             `json:"saveFormatVersion"`
	SerializationVersion int             `json:"serializationVersion"`
	EngineVersion        string          `json:"engineVersion"`
	KindID               string          `json:"kindId"`
	KindVersion          string          `json:"kindVersion"`
	CampaignID           string          `json:"campaignId"`
	CampaignVersion      string          `json:"campaignVersion"`
	ReplayCompatible     bool            `json:"replayCompatible"`
	Checksum             string          `json:"checksum"`
	State                json.RawMessage `json:"state"`
}

// saveChecksum hashes the canonical {replayCompatible, state}; state is
// already canonical. The two keys are written in canonical order, and the
// state is hashed where it lies, never copied.
func saveChecksum(replayCompatible bool, state []byte) string {
	h := sha256.New()
	h.Write([]byte(checksumHead(replayCompatible)))
	h.Write(state)
	h.Write([]byte{'}'})
	return hex.EncodeToString(h.Sum(nil))
}

// sealEnvelope builds the canonical save document of a canonical serialized
// state of size bytes, which state appends, and whose checksum is known.
// The members are written in canonical (sorted) order by hand, so the
// state, already canonical, is never encoded twice.
func sealEnvelope(size int, state func([]byte) []byte, s *core.GameState, kindVersion string, replayCompatible bool, checksum string) []byte {
	b := make([]byte, 0, size+512)
	str := func(key, v string) {
		b = append(b, '"')
		b = append(b, key...)
		b = append(b, '"', ':')
		b = canon.AppendString(b, v)
		b = append(b, ',')
	}
	b = append(b, '{')
	str("campaignId", s.CampaignID)
	str("campaignVersion", s.CampaignVersion)
	str("checksum", checksum)
	str("engineVersion", EngineVersion)
	str("kindId", s.KindID)
	str("kindVersion", kindVersion)
	b = append(b, `"replayCompatible":`...)
	b = strconv.AppendBool(b, replayCompatible)
	b = append(b, `,"saveFormatVersion":`...)
	b = strconv.AppendInt(b, SaveFormatVersion, 10)
	b = append(b, `,"serializationVersion":`...)
	b = strconv.AppendInt(b, SerializationVersion, 10)
	b = append(b, `,"state":`...)
	b = state(b)
	return append(b, '}')
}

// envelopeJSON is the strict wire form: every field required.
type envelopeJSON struct {
	SaveFormatVersion    *int            `json:"saveFormatVersion"`
	SerializationVersion *int            `json:"serializationVersion"`
	EngineVersion        *string         `json:"engineVersion"`
	KindID               *string         `json:"kindId"`
	KindVersion          *string         `json:"kindVersion"`
	CampaignID           *string         `json:"campaignId"`
	CampaignVersion      *string         `json:"campaignVersion"`
	ReplayCompatible     *bool           `json:"replayCompatible"`
	Checksum             *string         `json:"checksum"`
	State                json.RawMessage `json:"state"`
}

// StateHeader is what a serialized state says it is: its kind, campaign
// and epoch. A save envelope cross-checks it; a host reads it to route a
// stored session to its campaign without decoding the state.
type StateHeader struct {
	KindID          string `json:"kindId"`
	CampaignID      string `json:"campaignId"`
	CampaignVersion string `json:"campaignVersion"`
}

// ReadStateHeader reads the header of a serialized state without decoding
// the rest of it (the log and the kind state are only stepped over). It
// checks the object's structure, not the state's validity.
func ReadStateHeader(state []byte) (StateHeader, error) {
	var h StateHeader
	err := members(state, func(key, value []byte) {
		var dst *string
		switch string(key) {
		case "kindId":
			dst = &h.KindID
		case "campaignId":
			dst = &h.CampaignID
		case "campaignVersion":
			dst = &h.CampaignVersion
		default:
			return
		}
		_ = json.Unmarshal(value, dst)
	})
	return h, err
}

// readHeader is ReadStateHeader of a state whose log closes at end (0
// when unknown), reading only the members after the log: finding the end
// of the log already stepped over it, with the same checks, so a second
// pass over it could not fail.
func readHeader(state []byte, end int) (StateHeader, error) {
	if end == 0 || len(state) < end+2 || state[end+1] != ',' {
		return ReadStateHeader(state)
	}
	rest := make([]byte, 0, len(state)-end)
	rest = append(rest, '{')
	return ReadStateHeader(append(rest, state[end+2:]...))
}

// OpenEnvelope reads a save document and checks everything that needs no
// engine: its shape, its versions, its checksum and that its outer ids and
// version agree with the state it carries. It returns the envelope with
// State in canonical form. A document that is not a save envelope is
// malformed_input; an unknown version save_requires_migration; a checksum
// or cross-check failure (a corrupted or tampered save) invalid_state.
func OpenEnvelope(data []byte) (SaveEnvelope, *Error) {
	env, _, err := openEnvelope(data)
	return env, err
}

// openEnvelope is OpenEnvelope, also returning the running checksum of the
// state's log that verifying the checksum computed on the way (nil when
// the state is not laid out as a canonical state is), so that a session
// loaded from the save never hashes its log again.
func openEnvelope(data []byte) (SaveEnvelope, *runningChecksum, *Error) {
	const op = "OpenEnvelope"
	if len(data) > MaxSaveBytes {
		return SaveEnvelope{}, nil, errorf(op, core.ReasonInputTooLarge, "the save is %d bytes; the limit is %d", len(data), MaxSaveBytes)
	}
	// The state is most of the document: find it without decoding it, and
	// decode the rest strictly.
	var stateRaw []byte
	states := 0
	rest := make([]byte, 0, 512)
	rest = append(rest, '{')
	err := members(data, func(key, value []byte) {
		if string(key) == "state" {
			stateRaw = value
			states++
			return
		}
		rest = appendMember(rest, key, value)
	})
	rest = append(rest, '}')
	var raw envelopeJSON
	if err != nil || states > 1 || strictjson.Decode(rest, &raw) != nil {
		return SaveEnvelope{}, nil, errorf(op, core.ReasonMalformedInput, "not a save envelope")
	}
	raw.State = stateRaw
	if raw.SaveFormatVersion == nil || raw.SerializationVersion == nil || raw.EngineVersion == nil ||
		raw.KindID == nil || raw.KindVersion == nil || raw.CampaignID == nil || raw.CampaignVersion == nil ||
		raw.ReplayCompatible == nil || raw.Checksum == nil || len(raw.State) == 0 {
		return SaveEnvelope{}, nil, errorf(op, core.ReasonMalformedInput, "the save envelope lacks a field")
	}
	if *raw.SaveFormatVersion != SaveFormatVersion {
		return SaveEnvelope{}, nil, errorf(op, core.ReasonSaveRequiresMigration, "save format version %d is not supported", *raw.SaveFormatVersion)
	}
	if *raw.SerializationVersion != SerializationVersion {
		return SaveEnvelope{}, nil, errorf(op, core.ReasonSaveRequiresMigration, "serialization version %d is not supported", *raw.SerializationVersion)
	}
	// A state whose own bytes hash to the checksum is the canonical form
	// the checksum was taken over; anything else is canonicalized first.
	state := raw.State
	sum, end := startChecksum(*raw.ReplayCompatible, state, -1)
	got, ok := "", false
	if sum != nil {
		got, ok = sum.finish(*raw.ReplayCompatible, state[end:], sum.count())
	}
	if !ok {
		got = saveChecksum(*raw.ReplayCompatible, state)
	}
	if got != *raw.Checksum {
		sum = nil
		c, err := canon.Canonicalize(raw.State)
		if err != nil || saveChecksum(*raw.ReplayCompatible, c) != *raw.Checksum {
			return SaveEnvelope{}, nil, errorf(op, core.ReasonInvalidState, "the save's checksum does not match: it is corrupted or was altered")
		}
		state = c
	}
	if sum == nil {
		end = 0
	}
	h, err := readHeader(state, end)
	if err != nil {
		return SaveEnvelope{}, nil, errorf(op, core.ReasonInvalidState, "the saved state is not a game state")
	}
	if h.KindID != *raw.KindID || h.CampaignID != *raw.CampaignID || h.CampaignVersion != *raw.CampaignVersion {
		return SaveEnvelope{}, nil, errorf(op, core.ReasonInvalidState, "the save's envelope does not describe its state")
	}
	return SaveEnvelope{
		SaveFormatVersion:    *raw.SaveFormatVersion,
		SerializationVersion: *raw.SerializationVersion,
		EngineVersion:        *raw.EngineVersion,
		KindID:               *raw.KindID,
		KindVersion:          *raw.KindVersion,
		CampaignID:           *raw.CampaignID,
		CampaignVersion:      *raw.CampaignVersion,
		ReplayCompatible:     *raw.ReplayCompatible,
		Checksum:             *raw.Checksum,
		State:                state,
	}, sum, nil
}

// resolveEnvelope resolves an opened save's state against e (§10.2): kind
// migration, then campaign migration when the save's epoch is no longer
// held, then the kind judges the result. replayCompatible comes back false
// once anything migrated, and stays false once it was. serialized is the
// state's canonical serialization when nothing migrated, and nil
// otherwise.
func resolveEnvelope(op string, e *core.Engine, env SaveEnvelope) (s *core.GameState, replayCompatible bool, serialized []byte, err *Error) {
	k := e.Kind(env.KindID)
	if k == nil {
		return nil, false, nil, errorf(op, core.ReasonUnknownKind, "kind %q is not registered", env.KindID)
	}
	res, migrated := e.MigrateSave(env.State, env.KindVersion)
	if !res.OK {
		return nil, false, nil, refusal(op, res.Errors)
	}
	if !migrated {
		serialized = env.State
	}
	return res.Value, env.ReplayCompatible && !migrated, serialized, nil
}

// saveFile is the standalone document ExportSave writes: the envelope, the
// creation input a branch of the loaded game will need, the name the
// player gave the save, and (from format 2) a checksum of the whole file.
// profileId never travels in it.
type saveFile struct {
	Envelope       json.RawMessage `json:"envelope"`
	FileChecksum   *string         `json:"fileChecksum"`
	Format         string          `json:"format"`
	Initialization *Initialization `json:"initialization,omitempty"`
	Name           string          `json:"name,omitempty"`
	// sums counts the document's fileChecksum members as readSaveFile
	// found them, the last one's value at [sumStart, sumEnd); 0 when the
	// document was read otherwise.
	sums             int
	sumStart, sumEnd int
}

// Export document formats. Format 1 (until December 2026) is checked by
// its envelope's checksum only, which covers {replayCompatible, state}: an
// edit to engineVersion or to initialization went unnoticed. Format 2 adds
// fileChecksum, over every byte of the file but its own 64 hex digits.
// Both are read; format 2 is written.
const (
	saveFileFormat   = "storyloom.save/2"
	saveFileFormatV1 = "storyloom.save/1"
)

// sealSaveFile writes a format 2 export document: the document with an
// empty fileChecksum, whose SHA-256 then fills it. An envelope with
// nothing json.Marshal would escape (<, >, &, U+2028, U+2029, which a
// canonical string keeps as they are) is copied into the document as it
// is, rather than compacted and checked by json.Marshal, and the checksum
// is taken around the gap its value fills: for the compact envelopes a
// store holds (sealEnvelope's), the bytes json.Marshal writes, with two
// fewer passes and copies of the whole save. Any other envelope goes
// through json.Marshal.
func sealSaveFile(envelope []byte, init *Initialization, name string) ([]byte, error) {
	if bytes.ContainsAny(envelope, "<>&\u2028\u2029") {
		return sealSaveFileMarshalled(envelope, init, name)
	}
	const head, mid = `{"envelope":`, `,"fileChecksum":"`
	tail := []byte(`","format":"` + saveFileFormat + `"`)
	if init != nil {
		b, err := json.Marshal(init)
		if err != nil {
			return nil, err
		}
		tail = append(append(tail, `,"initialization":`...), b...)
	}
	if name != "" {
		b, err := json.Marshal(name)
		if err != nil {
			return nil, err
		}
		tail = append(append(tail, `,"name":`...), b...)
	}
	tail = append(tail, '}')
	h := sha256.New()
	h.Write([]byte(head))
	h.Write(envelope)
	h.Write([]byte(mid))
	h.Write(tail)
	doc := make([]byte, 0, len(head)+len(envelope)+len(mid)+sha256.Size*2+len(tail))
	doc = append(append(doc, head...), envelope...)
	doc = hex.AppendEncode(append(doc, mid...), h.Sum(nil))
	return append(doc, tail...), nil
}

// sealSaveFileMarshalled is sealSaveFile through json.Marshal.
func sealSaveFileMarshalled(envelope []byte, init *Initialization, name string) ([]byte, error) {
	empty := ""
	doc, err := json.Marshal(saveFile{Envelope: envelope, FileChecksum: &empty, Format: saveFileFormat, Initialization: init, Name: name})
	if err != nil {
		return nil, err
	}
	sum, at, ok := fileChecksum(doc)
	if !ok {
		return nil, errors.New("session: the export has no fileChecksum member")
	}
	return slices.Concat(doc[:at+1], []byte(sum), doc[at+1:]), nil
}

// fileChecksum finds the top-level fileChecksum member of a save file and
// returns the SHA-256 (hex) of the file with that member's value emptied
// to "", and the offset of the value's opening quote. ok is false when the
// file is not an object with exactly one fileChecksum string member.
func fileChecksum(doc []byte) (sum string, at int, ok bool) {
	start, end, found := 0, 0, 0
	if err := memberSpans(doc, func(key []byte, s, e int) {
		if string(key) == "fileChecksum" {
			start, end = s, e
			found++
		}
	}); err != nil {
		return "", 0, false
	}
	return fileChecksumAt(doc, found, start, end)
}

// fileChecksumAt is fileChecksum of a document of found fileChecksum
// members, the last one's value at doc[start:end].
func fileChecksumAt(doc []byte, found, start, end int) (sum string, at int, ok bool) {
	if found != 1 || end-start < 2 || doc[start] != '"' {
		return "", 0, false
	}
	h := sha256.New()
	h.Write(doc[:start])
	h.Write([]byte(`""`))
	h.Write(doc[end:])
	return hex.EncodeToString(h.Sum(nil)), start, true
}

// readSaveFile reads an export document's members as json.Unmarshal into
// a saveFile would, without decoding its envelope: the envelope is found
// by counting brackets and kept as its bytes (the member named envelope in
// any case, the last one when there are several, as encoding/json takes
// it), and the other members, a few hundred bytes, are decoded. ok is
// false when data is not such a document (a bare envelope, or not JSON).
func readSaveFile(data []byte) (file saveFile, ok bool) {
	var envelope []byte
	escaped, sums, sumStart, sumEnd := false, 0, 0, 0
	rest := make([]byte, 0, 512)
	rest = append(rest, '{')
	err := memberSpans(data, func(key []byte, start, end int) {
		value := data[start:end]
		if bytes.IndexByte(key, '\\') >= 0 {
			escaped = true
		}
		if string(key) == "fileChecksum" {
			sums, sumStart, sumEnd = sums+1, start, end
		}
		if bytes.EqualFold(key, []byte("envelope")) {
			envelope = value
			return
		}
		rest = appendMember(rest, key, value)
	})
	if escaped {
		// A key written with escapes: leave its reading to encoding/json.
		return file, json.Unmarshal(data, &file) == nil
	}
	rest = append(rest, '}')
	if err != nil || json.Unmarshal(rest, &file) != nil {
		return saveFile{}, false
	}
	if envelope != nil {
		file.Envelope = envelope
	}
	file.sums, file.sumStart, file.sumEnd = sums, sumStart, sumEnd
	return file, true
}

// SaveFileHeader is what a save file (or a bare envelope) says of itself
// before it is checked: the campaign its envelope names and the name the
// player gave the save. A host reads it to route an import to the store
// of that campaign, whose ImportSave then checks the file.
type SaveFileHeader struct {
	CampaignID string
	Name       string
}

// ReadSaveFileHeader reads a save file's header without decoding its
// state: one pass over the file, and the envelope's members only as far
// as its campaignId (its first, in the canonical order a store writes);
// ok is false when the document names no campaign.
func ReadSaveFileHeader(data []byte) (h SaveFileHeader, ok bool) {
	envelope := data
	if file, isFile := readSaveFile(data); isFile && file.Envelope != nil {
		envelope, h.Name = file.Envelope, file.Name
	}
	_ = walkMembers(envelope, func(key []byte, start, end int) bool {
		if string(key) != "campaignId" {
			return true
		}
		_ = json.Unmarshal(envelope[start:end], &h.CampaignID)
		return false
	})
	return h, h.CampaignID != ""
}

// openSaveFile reads an export document of either format into its
// envelope and initialization, checking a format 2 file's checksum.
func openSaveFile(op string, data []byte, file saveFile) ([]byte, *Initialization, *Error) {
	switch file.Format {
	case saveFileFormatV1:
		if file.FileChecksum != nil {
			return nil, nil, errorf(op, core.ReasonInvalidState, "a %s file carries no fileChecksum: it is corrupted or was altered", saveFileFormatV1)
		}
	case saveFileFormat:
		sum, _, ok := fileChecksumAt(data, file.sums, file.sumStart, file.sumEnd)
		if file.sums == 0 {
			sum, _, ok = fileChecksum(data)
		}
		if !ok || file.FileChecksum == nil || sum != *file.FileChecksum {
			return nil, nil, errorf(op, core.ReasonInvalidState, "the save file's checksum does not match: it is corrupted or was altered")
		}
	default:
		return nil, nil, errorf(op, core.ReasonSaveRequiresMigration, "save file format %q is not supported", file.Format)
	}
	return file.Envelope, file.Initialization, nil
}

// Checksum returns the checksum a save envelope carries for a canonical
// serialized state: the SHA-256 of the canonical {replayCompatible, state}.
func Checksum(replayCompatible bool, state []byte) string {
	return saveChecksum(replayCompatible, state)
}

// appendMember adds the member key: value, both raw JSON as read, to the
// object being written in rest (which starts with its '{'), with the comma
// every member after the first needs.
func appendMember(rest, key, value []byte) []byte {
	if len(rest) > 1 {
		rest = append(rest, ',')
	}
	rest = append(rest, '"')
	rest = append(rest, key...)
	rest = append(rest, '"', ':')
	return append(rest, value...)
}
