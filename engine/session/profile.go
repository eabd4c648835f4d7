package session

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"sync"

	"github.com/storyloom/storyloom/engine/canon"
	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/strictjson"
)

// ProfileFormatVersion is the shape version of a PlayerProfile (§7.1).
// Versions 1 and 2 read as 3 with the fields they lack empty.
const ProfileFormatVersion = 3

// MaxKindDataBytes is the largest canonical serialization of one kind's
// profile slice a fold may write (§7.1).
const MaxKindDataBytes = 65536

// Profile is a player's cross-game record (§7.1's PlayerProfile): the
// achievements unlocked, the endings reached and each kind's own slice.
type Profile struct {
	FormatVersion int                 `json:"formatVersion"`
	ProfileID     string              `json:"profileId"`
	Achievements  []AchievementRecord `json:"achievements"`
	Terminals     []TerminalRecord    `json:"terminals"`
	// KindData holds at most one record per kind, ordered by KindID.
	KindData []KindProfileRecord `json:"kindData"`
}

// AchievementRecord is one unlocked achievement; its id is unique within its
// campaign only.
type AchievementRecord struct {
	CampaignID    string `json:"campaignId"`
	AchievementID string `json:"achievementId"`
}

// TerminalRecord is one ending reached (§3.2's terminalId).
type TerminalRecord struct {
	CampaignID string `json:"campaignId"`
	TerminalID string `json:"terminalId"`
}

// KindProfileRecord is one kind's cross-game slice, opaque to the store. A
// record of a kind this build does not know is kept byte for byte.
type KindProfileRecord struct {
	KindID      string          `json:"kindId"`
	DataVersion int             `json:"dataVersion"`
	Data        json.RawMessage `json:"data"`
}

// NewProfile returns the empty version-3 profile of profileID.
func NewProfile(profileID string) Profile {
	return Profile{FormatVersion: ProfileFormatVersion, ProfileID: profileID,
		Achievements: []AchievementRecord{}, Terminals: []TerminalRecord{}, KindData: []KindProfileRecord{}}
}

// Clone returns a deep copy of p.
func (p Profile) Clone() Profile {
	c := p
	c.Achievements = append([]AchievementRecord{}, p.Achievements...)
	c.Terminals = append([]TerminalRecord{}, p.Terminals...)
	c.KindData = make([]KindProfileRecord, len(p.KindData))
	for i, r := range p.KindData {
		r.Data = cloneBytes(r.Data)
		c.KindData[i] = r
	}
	return c
}

// ProfileWarning is a degradation of the profile mirror (§7.1): a warning,
// never a failure of the command it rides on.
type ProfileWarning struct {
	// Code is profile_missing, profile_corrupt, profile_write_failed,
	// profile_kind_data_unreadable or profile_kind_data_rejected.
	Code      string `json:"code"`
	ProfileID string `json:"profileId"`
	// KindID is set iff the warning is about one kind's slice.
	KindID string `json:"kindId,omitempty"`
}

// Warning returns w as the client-facing ValidationWarning.
func (w ProfileWarning) Warning() core.ValidationWarning {
	v := core.Errorf(w.Code, "", "profile %q", w.ProfileID)
	v.Details = map[string]any{"profileId": w.ProfileID}
	if w.KindID != "" {
		v.Details["kindId"] = w.KindID
		v.Message += fmt.Sprintf(", kind %q", w.KindID)
	}
	return v
}

// ProfileLoadResult is a loaded profile and how its load degraded.
type ProfileLoadResult struct {
	Profile  Profile
	Warnings []ProfileWarning
}

// ProfileStore keeps profiles (§7.1). Load returns an empty profile with
// profile_missing or profile_corrupt rather than an error when the document
// is absent or unreadable; an error means the storage itself failed. The
// adapter owns the formatVersion migration: DecodeProfile does it. Save
// writes the whole profile; EncodeProfile gives its one serialization.
type ProfileStore interface {
	Load(ctx context.Context, profileID string) (ProfileLoadResult, error)
	Save(ctx context.Context, p Profile) error
}

// profileJSON reads any version: every field optional so that a version 1
// or 2 document parses.
type profileJSON struct {
	FormatVersion *int                `json:"formatVersion"`
	ProfileID     *string             `json:"profileId"`
	Achievements  []AchievementRecord `json:"achievements"`
	Terminals     []TerminalRecord    `json:"terminals"`
	KindData      []KindProfileRecord `json:"kindData"`
}

// DecodeProfile reads a stored profile document of any format version,
// migrating version 1 (no terminals, no kind data) and version 2 (no kind
// data) to 3. Nil data yields the empty profile and profile_missing; a
// document that is not a profile, or is of an unknown version, yields the
// empty profile and profile_corrupt.
func DecodeProfile(profileID string, data []byte) (Profile, []ProfileWarning) {
	if data == nil {
		return NewProfile(profileID), []ProfileWarning{{Code: core.ReasonProfileMissing, ProfileID: profileID}}
	}
	corrupt := func() (Profile, []ProfileWarning) {
		return NewProfile(profileID), []ProfileWarning{{Code: core.ReasonProfileCorrupt, ProfileID: profileID}}
	}
	var doc profileJSON
	if err := strictjson.Decode(data, &doc); err != nil || doc.FormatVersion == nil || doc.ProfileID == nil {
		return corrupt()
	}
	if doc.Achievements == nil {
		return corrupt()
	}
	switch *doc.FormatVersion {
	case 1:
		if doc.Terminals != nil || doc.KindData != nil {
			return corrupt()
		}
	case 2:
		if doc.Terminals == nil || doc.KindData != nil {
			return corrupt()
		}
	case 3:
		if doc.Terminals == nil || doc.KindData == nil {
			return corrupt()
		}
	default:
		return corrupt()
	}
	p := NewProfile(profileID)
	p.Achievements = append(p.Achievements, doc.Achievements...)
	p.Terminals = append(p.Terminals, doc.Terminals...)
	seen := map[string]bool{}
	for _, r := range doc.KindData {
		if r.KindID == "" || seen[r.KindID] || len(r.Data) == 0 {
			return corrupt()
		}
		seen[r.KindID] = true
		r.Data = cloneBytes(r.Data)
		p.KindData = append(p.KindData, r)
	}
	sortKindData(p.KindData)
	return p, nil
}

// EncodeProfile returns p's one canonical serialization, as version 3 with
// its kind data ordered by kind id (P5).
func EncodeProfile(p Profile) ([]byte, error) {
	c := p.Clone()
	c.FormatVersion = ProfileFormatVersion
	sortKindData(c.KindData)
	for i := 1; i < len(c.KindData); i++ {
		if c.KindData[i].KindID == c.KindData[i-1].KindID {
			return nil, fmt.Errorf("session: profile %q holds two records of kind %q", p.ProfileID, c.KindData[i].KindID)
		}
	}
	return canon.Marshal(c)
}

func sortKindData(r []KindProfileRecord) {
	sort.SliceStable(r, func(i, j int) bool { return r[i].KindID < r[j].KindID })
}

// MemoryProfiles is an in-memory ProfileStore holding each profile as its
// encoded document, so a caller mutating a loaded Profile changes nothing
// stored. It is safe for concurrent use.
type MemoryProfiles struct {
	mu    sync.Mutex
	docs  map[string][]byte
	saves int
}

// NewMemoryProfiles returns an empty in-memory profile store.
func NewMemoryProfiles() *MemoryProfiles { return &MemoryProfiles{docs: map[string][]byte{}} }

// Load implements ProfileStore.
func (m *MemoryProfiles) Load(_ context.Context, profileID string) (ProfileLoadResult, error) {
	m.mu.Lock()
	doc := m.docs[profileID]
	m.mu.Unlock()
	p, w := DecodeProfile(profileID, doc)
	return ProfileLoadResult{Profile: p, Warnings: w}, nil
}

// Save implements ProfileStore.
func (m *MemoryProfiles) Save(_ context.Context, p Profile) error {
	doc, err := EncodeProfile(p)
	if err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.docs[p.ProfileID] = doc
	m.saves++
	return nil
}

// Document returns the stored document of profileID, or nil.
func (m *MemoryProfiles) Document(profileID string) []byte {
	m.mu.Lock()
	defer m.mu.Unlock()
	return cloneBytes(m.docs[profileID])
}

// SetDocument stores doc as profileID's document verbatim, as a host
// restoring an older or damaged profile would.
func (m *MemoryProfiles) SetDocument(profileID string, doc []byte) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.docs[profileID] = cloneBytes(doc)
}

// Writes returns how many times Save has stored a profile.
func (m *MemoryProfiles) Writes() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.saves
}
