package core

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/storyloom/storyloom/engine/strictjson"
)

// DefaultLocale is the locale of a campaign's inline authored text.
const DefaultLocale = "en"

// Campaign is one published campaign (§10.1). Content is the kind's own
// runtime content (LocKeys only), opaque to the core; it must encode to JSON
// and decode back through Kind.DecodeContent.
type Campaign struct {
	ID       string `json:"id"`
	KindID   string `json:"kindId"`
	Version  string `json:"version"`
	TitleKey LocKey `json:"titleKey"`
	// BlurbKey is the key of the campaign's blurb, one or two sentences
	// the library shows under its title; "" when it has none.
	BlurbKey LocKey `json:"blurbKey,omitempty"`
	Content  any    `json:"content"`
	// Migration declares how states made under earlier versions map onto
	// this one (§10.2). Nil means no id moved.
	Migration *CampaignMigration `json:"migration,omitempty"`
	// Includes are the modules composed into Content at registry build
	// (§10.4), kept as provenance only: Content is already composed.
	Includes []Include `json:"includes,omitempty"`
}

// CampaignMigration is a campaign's declarative id migration (§10.2): which
// earlier versions it accepts, and, per id category of the kind (for the
// story-graph kind "node", "variable", "achievement" and "ending"), which old
// ids were renamed and which were removed. A kind implementing
// ContentMigrator applies it; it may only re-address ids, never invent play.
type CampaignMigration struct {
	From    []string                     `json:"from"`
	Renames map[string]map[string]string `json:"renames,omitempty"`
	Removed map[string][]string          `json:"removed,omitempty"`
}

// Accepts reports whether the migration covers states made under version.
func (m *CampaignMigration) Accepts(version string) bool {
	if m == nil {
		return false
	}
	for _, v := range m.From {
		if v == version {
			return true
		}
	}
	return false
}

// CheckMigration is the tier 1 check of a campaign's declared migration
// against the id categories of its kind (ContentMigrator.MigrationIDs): it
// must accept at least one earlier version, name only the kind's
// categories, rename only onto ids this version declares, and remove only
// ids it no longer declares.
func CheckMigration(m *CampaignMigration, version string, cats map[string]func(string) bool) []ValidationError {
	if m == nil {
		return nil
	}
	var errs []ValidationError
	if len(m.From) == 0 {
		errs = append(errs, Errorf(ReasonInvalidIdentifier, "migration.from", "a migration must name the versions it accepts"))
	}
	for i, v := range m.From {
		if v == version || !IsVersion(v) {
			errs = append(errs, Errorf(ReasonInvalidIdentifier, fmt.Sprintf("migration.from[%d]", i), "%q is not an earlier version", v))
		}
	}
	category := func(field, cat string) (func(string) bool, bool) {
		known, ok := cats[cat]
		if !ok {
			errs = append(errs, Errorf(ReasonInvalidIdentifier, "migration."+field+"."+cat, "this kind has no id category %q (it has %s)", cat, strings.Join(slices.Sorted(maps.Keys(cats)), ", ")))
		}
		return known, ok
	}
	for _, cat := range slices.Sorted(maps.Keys(m.Renames)) {
		if known, ok := category("renames", cat); ok {
			for _, old := range slices.Sorted(maps.Keys(m.Renames[cat])) {
				if to := m.Renames[cat][old]; !known(to) {
					errs = append(errs, Errorf(ReasonInvalidIdentifier, "migration.renames."+cat+"."+old, "%s %q is renamed to %q, which this version does not declare", cat, old, to))
				}
			}
		}
	}
	for _, cat := range slices.Sorted(maps.Keys(m.Removed)) {
		if known, ok := category("removed", cat); ok {
			for i, id := range m.Removed[cat] {
				if known(id) {
					errs = append(errs, Errorf(ReasonInvalidIdentifier, fmt.Sprintf("migration.removed.%s[%d]", cat, i), "%s %q is removed but this version still declares it", cat, id))
				}
			}
		}
	}
	return errs
}

// Registry is a frozen, validated set of campaigns and their strings
// (§10.1). Nothing changes a registry once built.
type Registry struct {
	// Order is the campaigns' ids in registry order.
	Order []string
	// Campaigns by id.
	Campaigns map[string]*Campaign
	// Strings is the merged table in the default locale: the core catalog,
	// every registered kind's messages and every campaign's authored text.
	Strings map[LocKey]string
	// Catalogs holds translations of authored text by locale; a key a
	// catalog lacks falls back to Strings.
	Catalogs map[string]map[LocKey]string
	// Provenance records per campaign what it authored, the input to its
	// epoch identity (§4, C28). A registry without it cannot be published.
	Provenance map[string]*Provenance
	// Resolution identifies the ordered pack set the registry was folded
	// from (content.BuildPacks), or is empty for one built from campaign
	// files alone. Nothing reads it in play: it is identity, not input.
	Resolution string
}

// Provenance is what one campaign authored (§10.1): its own strings and
// those of every module it composes, transitively, with their
// translations, and the pack attachments applied to it in composition
// order.
type Provenance struct {
	Strings     map[LocKey]string            `json:"strings"`
	Catalogs    map[string]map[LocKey]string `json:"catalogs,omitempty"`
	Attachments []Attachment                 `json:"attachments,omitempty"`
}

// Campaign returns the campaign id, or nil.
func (r *Registry) Campaign(id string) *Campaign {
	if r == nil {
		return nil
	}
	return r.Campaigns[id]
}

// Locales returns the locales the registry can render campaignID in: the
// default locale first, then every translation it ships, in sorted order.
func (r *Registry) Locales(campaignID string) []string {
	out := []string{DefaultLocale}
	if p := r.Provenance[campaignID]; p != nil {
		out = append(out, slices.Sorted(maps.Keys(p.Catalogs))...)
	}
	return out
}

// ResolutionArchive resolves (campaignId, campaignVersion) to the registry
// that epoch was published in (§4).
type ResolutionArchive interface {
	// Resolve returns the registry holding campaignID at exactly version,
	// or nil.
	Resolve(campaignID, version string) *Registry
	// AuthoredKeys is every authored key any epoch in the archive holds:
	// the scope response aliases are chosen against.
	AuthoredKeys() map[LocKey]bool
}

// CampaignJSON is the encoded form of a campaign's content, for digests and
// storage.
func CampaignJSON(c *Campaign) (json.RawMessage, error) { return json.Marshal(c) }

// SourceText is player-facing text as an author writes it in a campaign's
// source: a plain JSON string, whose key the builder derives from where it
// stands, or {"key": "...", "text": "..."} to name the key.
type SourceText struct {
	Key  LocKey
	Text string
}

// UnmarshalJSON reads a string or a {key, text} object.
func (t *SourceText) UnmarshalJSON(data []byte) error {
	var s string
	if err := json.Unmarshal(data, &s); err == nil {
		*t = SourceText{Text: s}
		return nil
	}
	var obj struct {
		Key  string `json:"key"`
		Text string `json:"text"`
	}
	if err := strictjson.Decode(data, &obj); err != nil {
		return err
	}
	*t = SourceText{Key: obj.Key, Text: obj.Text}
	return nil
}

// MarshalJSON writes the text back in its source form.
func (t SourceText) MarshalJSON() ([]byte, error) {
	if t.Key == "" {
		return json.Marshal(t.Text)
	}
	return json.Marshal(AuthoredText(t))
}

// Lift returns the authored text under its own key, or defaultKey when the
// author named none.
func (t SourceText) Lift(defaultKey LocKey) AuthoredText {
	if t.Key == "" {
		return AuthoredText{Key: defaultKey, Text: t.Text}
	}
	return AuthoredText(t)
}
