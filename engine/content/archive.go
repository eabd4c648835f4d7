package content

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/storyloom/storyloom/engine/canon"
	"github.com/storyloom/storyloom/engine/core"
)

// EpochRef names one published epoch: a campaign at a version.
type EpochRef struct {
	CampaignID      string `json:"campaignId"`
	CampaignVersion string `json:"campaignVersion"`
}

// EpochForm is an epoch's identity (C28): exactly what is hashed and what a
// host persists. Strings and Catalogs are the campaign's authored text only,
// never an engine message.
type EpochForm struct {
	Campaign    StoredCampaign                    `json:"campaign"`
	Attachments []core.Attachment                 `json:"attachments"`
	Strings     map[core.LocKey]string            `json:"strings"`
	Catalogs    map[string]map[core.LocKey]string `json:"catalogs,omitempty"`
}

// StoredCampaign is a campaign in its encoded form.
type StoredCampaign struct {
	ID        string                  `json:"id"`
	KindID    string                  `json:"kindId"`
	Version   string                  `json:"version"`
	TitleKey  core.LocKey             `json:"titleKey"`
	BlurbKey  core.LocKey             `json:"blurbKey,omitempty"`
	Content   json.RawMessage         `json:"content"`
	Migration *core.CampaignMigration `json:"migration,omitempty"`
	Includes  []core.Include          `json:"includes,omitempty"`
}

// EpochPublication is recorded beside the form at publication, not hashed.
type EpochPublication struct {
	KindID       string        `json:"kindId"`
	KindVersion  string        `json:"kindVersion"`
	ReservedKeys []core.LocKey `json:"reservedKeys"`
}

// StoredEpoch is what a host persists of an epoch and hands back to Restore.
type StoredEpoch struct {
	Form        EpochForm        `json:"form"`
	Publication EpochPublication `json:"publication"`
	Digest      string           `json:"digest"`
}

// EpochDigest is the canonical digest of a form (§4).
func EpochDigest(form EpochForm) (string, error) { return canon.Digest(form) }

// Restore outcomes.
const (
	Restored         = "restored"
	Unsupported      = "unsupported"
	IntegrityFailure = "integrity_failure"
)

// RestoreResult says what Restore did with a stored epoch. An unsupported
// one names the kind that rejected it and the kind that published it, and
// its one warning is epoch_unsupported with the details campaignId,
// campaignVersion and potentialRegression (true when the same kind at the
// same version published and now rejects it).
type RestoreResult struct {
	Outcome     string                   `json:"outcome"`
	Ref         EpochRef                 `json:"ref"`
	RejectedBy  *KindRef                 `json:"rejectedBy,omitempty"`
	PublishedBy *KindRef                 `json:"publishedBy,omitempty"`
	Errors      []core.ValidationError   `json:"errors,omitempty"`
	Warnings    []core.ValidationWarning `json:"warnings,omitempty"`
}

// KindRef names a kind at a version.
type KindRef struct {
	KindID      string `json:"kindId"`
	KindVersion string `json:"kindVersion"`
}

// Archive is the reference content archive (§4): every published epoch in
// memory, append-only, and the channel naming each campaign's current
// version. It implements core.ResolutionArchive. It is safe for concurrent
// use.
type Archive struct {
	mu         sync.RWMutex
	kinds      map[string]core.Kind
	engineKeys map[core.LocKey]string
	epochs     map[EpochRef]*epoch
	current    map[string]string
	latest     *core.Registry
	authored   map[core.LocKey]bool
	// unsupported are the epochs a Restore found this build cannot run.
	unsupported map[EpochRef]bool
}

type epoch struct {
	stored   StoredEpoch
	registry *core.Registry
}

// NewArchive returns an archive whose first publication is initial; an
// initial registry that cannot be published is a construction error.
func NewArchive(kinds []core.Kind, initial *core.Registry) (*Archive, error) {
	a := &Archive{
		kinds: map[string]core.Kind{}, engineKeys: core.CoreMessages(),
		epochs: map[EpochRef]*epoch{}, current: map[string]string{}, authored: map[core.LocKey]bool{},
		unsupported: map[EpochRef]bool{},
	}
	for _, k := range kinds {
		a.kinds[k.ID()] = k
		for key, text := range k.ReasonMessages() {
			a.engineKeys[key] = text
		}
	}
	if res := a.Publish(initial); !res.OK {
		return nil, fmt.Errorf("content: initial registry cannot be published: %v", res.Errors)
	}
	return a, nil
}

// Publish adds every campaign of r as an epoch and makes r the latest
// publication. Under one write lock it refuses a registry without
// provenance, an authored key the engine reserves (any core.reason.* key,
// a key of the core catalog or of a registered kind's messages) or that
// contains '~', a campaign of an unregistered kind or one its kind does not
// validate against its authored strings, and a held (campaign, version)
// whose content differs (content_version_conflict). It returns the epochs
// newly added; an identical republish adds none and still becomes the
// latest.
func (a *Archive) Publish(r *core.Registry) core.Result[[]EpochRef] {
	if r == nil || r.Provenance == nil {
		return core.Fail[[]EpochRef](core.Errorf(core.ReasonContentProvenanceMissing, "", "a registry without provenance cannot be published"))
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	type pending struct {
		ref EpochRef
		ep  *epoch
	}
	var adds []pending
	for _, id := range r.Order {
		c := r.Campaigns[id]
		p := r.Provenance[id]
		if p == nil {
			return core.Fail[[]EpochRef](core.Errorf(core.ReasonContentProvenanceMissing, id, "campaign %q has no provenance", id))
		}
		k := a.kinds[c.KindID]
		if k == nil {
			return core.Fail[[]EpochRef](core.Errorf(core.ReasonUnknownKind, id, "campaign %q is of unregistered kind %q", id, c.KindID))
		}
		for _, key := range slices.Sorted(maps.Keys(p.Strings)) {
			if e, bad := a.reservedKey(key); bad {
				e.Path = id
				return core.Fail[[]EpochRef](e)
			}
		}
		if vr := k.ValidateCampaign(c, p.Strings); !vr.OK {
			if len(vr.Errors) == 0 {
				vr.Errors = []core.ValidationError{core.Errorf(core.ReasonInvalidState, id, "the kind refused campaign %q", id)}
			}
			return core.Result[[]EpochRef]{Errors: vr.Errors, Warnings: vr.Warnings}
		}
		form, err := formOf(c, p)
		if err != nil {
			return core.Fail[[]EpochRef](core.Errorf(core.ReasonInvalidState, id, "campaign %q does not encode: %v", id, err))
		}
		digest, err := EpochDigest(form)
		if err != nil {
			return core.Fail[[]EpochRef](core.Errorf(core.ReasonInvalidState, id, "campaign %q does not encode: %v", id, err))
		}
		ref := EpochRef{CampaignID: id, CampaignVersion: c.Version}
		if held := a.epochs[ref]; held != nil {
			if held.stored.Digest != digest {
				return core.Fail[[]EpochRef](core.Errorf(core.ReasonContentVersionConflict, id,
					"campaign %q version %s was already published with other content", id, c.Version))
			}
			continue
		}
		stored := StoredEpoch{Form: form, Digest: digest, Publication: EpochPublication{
			KindID: c.KindID, KindVersion: k.Version(), ReservedKeys: a.reservedKeys(),
		}}
		adds = append(adds, pending{ref, &epoch{stored: stored, registry: a.epochRegistry(c, p)}})
	}
	out := []EpochRef{}
	for _, p := range adds {
		a.epochs[p.ref] = p.ep
		for k := range p.ep.stored.Form.Strings {
			a.authored[k] = true
		}
		out = append(out, p.ref)
	}
	for _, id := range r.Order {
		a.current[id] = r.Campaigns[id].Version
	}
	a.latest = r
	return core.Succeed(out)
}

// reservedKey reports whether an authored key may not be published, with
// the protected_string_key error that says why.
func (a *Archive) reservedKey(key core.LocKey) (core.ValidationError, bool) {
	switch {
	case strings.Contains(key, "~"):
		e := core.Errorf(core.ReasonProtectedStringKey, "", "authored key %q uses '~', which is reserved for response aliases", key)
		e.Details = map[string]any{"key": key, "reason": "response_alias_namespace"}
		return e, true
	case strings.HasPrefix(key, core.CoreReasonKey("")) || a.engineKeys[key] != "":
		e := core.Errorf(core.ReasonProtectedStringKey, "", "authored key %q is reserved by the engine", key)
		e.Details = map[string]any{"key": key, "reason": "engine_reserved"}
		return e, true
	}
	return core.ValidationError{}, false
}

func formOf(c *core.Campaign, p *core.Provenance) (EpochForm, error) {
	raw, err := json.Marshal(c.Content)
	if err != nil {
		return EpochForm{}, err
	}
	return EpochForm{
		Campaign:    StoredCampaign{ID: c.ID, KindID: c.KindID, Version: c.Version, TitleKey: c.TitleKey, BlurbKey: c.BlurbKey, Content: raw, Migration: c.Migration, Includes: c.Includes},
		Attachments: append([]core.Attachment{}, p.Attachments...),
		Strings:     p.Strings,
		Catalogs:    p.Catalogs,
	}, nil
}

// epochRegistry is the one-campaign registry an epoch resolves to: the
// running engine's catalog with the campaign's authored strings.
func (a *Archive) epochRegistry(c *core.Campaign, p *core.Provenance) *core.Registry {
	strs := make(map[core.LocKey]string, len(a.engineKeys)+len(p.Strings))
	for k, v := range a.engineKeys {
		strs[k] = v
	}
	for k, v := range p.Strings {
		strs[k] = v
	}
	return &core.Registry{
		Order:      []string{c.ID},
		Campaigns:  map[string]*core.Campaign{c.ID: c},
		Strings:    strs,
		Catalogs:   p.Catalogs,
		Provenance: map[string]*core.Provenance{c.ID: p},
	}
}

func (a *Archive) reservedKeys() []core.LocKey {
	keys := make([]core.LocKey, 0, len(a.engineKeys))
	for k := range a.engineKeys {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Restore brings back an epoch a previous process published, from exactly
// what it persisted: a digest mismatch, a key reserved at publication, or a
// held key with another digest is an integrity failure; a form the running
// kind refuses is unsupported; otherwise it is restored. It moves neither
// Latest nor Current.
func (a *Archive) Restore(s StoredEpoch) RestoreResult {
	ref := EpochRef{CampaignID: s.Form.Campaign.ID, CampaignVersion: s.Form.Campaign.Version}
	integrity := func(format string, args ...any) RestoreResult {
		return RestoreResult{Outcome: IntegrityFailure, Ref: ref, Errors: []core.ValidationError{
			core.Errorf(core.ReasonInvalidState, "", format, args...)}}
	}
	digest, err := EpochDigest(s.Form)
	if err != nil || digest != s.Digest {
		return integrity("stored digest does not match the form")
	}
	reservedThen := map[string]bool{}
	for _, k := range s.Publication.ReservedKeys {
		reservedThen[k] = true
	}
	var warnings []core.ValidationWarning
	for _, key := range slices.Sorted(maps.Keys(s.Form.Strings)) {
		if reservedThen[key] || strings.HasPrefix(key, core.CoreReasonKey("")) {
			return integrity("authored key %q was reserved when the epoch was published", key)
		}
		if a.engineKeys[key] != "" {
			w := core.Errorf(core.ReasonHistoricalStringCollision, key, "authored key %q is now reserved by the engine", key)
			w.Details = map[string]any{"campaignId": ref.CampaignID, "campaignVersion": ref.CampaignVersion, "key": key}
			warnings = append(warnings, w)
		}
	}
	a.mu.RLock()
	held := a.epochs[ref]
	a.mu.RUnlock()
	if held != nil {
		if held.stored.Digest != s.Digest {
			return integrity("campaign %q version %s is held with another digest", ref.CampaignID, ref.CampaignVersion)
		}
		return RestoreResult{Outcome: Restored, Ref: ref, Warnings: warnings}
	}
	k := a.kinds[s.Form.Campaign.KindID]
	published := &KindRef{KindID: s.Publication.KindID, KindVersion: s.Publication.KindVersion}
	rejected := &KindRef{KindID: s.Form.Campaign.KindID}
	if k != nil {
		rejected.KindVersion = k.Version()
	}
	unsupported := func(errs []core.ValidationError) RestoreResult {
		a.mu.Lock()
		a.unsupported[ref] = true
		a.mu.Unlock()
		w := core.Errorf(core.ReasonEpochUnsupported, "", "campaign %q version %s cannot run on this build", ref.CampaignID, ref.CampaignVersion)
		w.Details = map[string]any{"campaignId": ref.CampaignID, "campaignVersion": ref.CampaignVersion,
			"potentialRegression": k != nil && *rejected == *published}
		return RestoreResult{Outcome: Unsupported, Ref: ref, RejectedBy: rejected, PublishedBy: published, Errors: errs, Warnings: []core.ValidationWarning{w}}
	}
	if k == nil {
		return unsupported([]core.ValidationError{core.Errorf(core.ReasonUnknownKind, "kindId", "kind %q is not registered", s.Form.Campaign.KindID)})
	}
	c, p, errs := decodeForm(k, s.Form)
	if errs != nil {
		return unsupported(errs)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if _, held := a.epochs[ref]; !held {
		a.epochs[ref] = &epoch{stored: s, registry: a.epochRegistry(c, p)}
		for key := range s.Form.Strings {
			a.authored[key] = true
		}
	}
	return RestoreResult{Outcome: Restored, Ref: ref, Warnings: warnings}
}

// decodeForm turns a stored form back into the campaign and provenance it
// was published from, as k decodes and validates it now.
func decodeForm(k core.Kind, f EpochForm) (*core.Campaign, *core.Provenance, []core.ValidationError) {
	content, err := k.DecodeContent(f.Campaign.Content)
	if err != nil {
		return nil, nil, []core.ValidationError{core.Errorf(core.ReasonInvalidState, "content", "%v", err)}
	}
	sc := f.Campaign
	c := &core.Campaign{ID: sc.ID, KindID: sc.KindID, Version: sc.Version, TitleKey: sc.TitleKey, BlurbKey: sc.BlurbKey, Content: content, Migration: sc.Migration, Includes: sc.Includes}
	if vr := k.ValidateCampaign(c, f.Strings); !vr.OK {
		return nil, nil, vr.Errors
	}
	return c, &core.Provenance{Strings: f.Strings, Catalogs: f.Catalogs, Attachments: f.Attachments}, nil
}

// Stored returns the persistable form of a held epoch.
func (a *Archive) Stored(campaignID, version string) (StoredEpoch, bool) {
	a.mu.RLock()
	defer a.mu.RUnlock()
	e := a.epochs[EpochRef{campaignID, version}]
	if e == nil {
		return StoredEpoch{}, false
	}
	return e.stored, true
}

// Latest returns the last registry published successfully.
func (a *Archive) Latest() *core.Registry {
	a.mu.RLock()
	defer a.mu.RUnlock()
	return a.latest
}

// Current returns the version of campaignID in the last publication that held
// it, or "" — the content channel of §7.
func (a *Archive) Current(campaignID string) string {
	a.mu.RLock()
	defer a.mu.RUnlock()
	return a.current[campaignID]
}

// Resolve implements core.ResolutionArchive.
func (a *Archive) Resolve(campaignID, version string) *core.Registry {
	a.mu.RLock()
	defer a.mu.RUnlock()
	if e := a.epochs[EpochRef{campaignID, version}]; e != nil {
		return e.registry
	}
	return nil
}

// AuthoredKeys implements core.ResolutionArchive.
func (a *Archive) AuthoredKeys() map[core.LocKey]bool {
	a.mu.RLock()
	defer a.mu.RUnlock()
	out := make(map[core.LocKey]bool, len(a.authored))
	for k := range a.authored {
		out[k] = true
	}
	return out
}

// Unsupported reports whether a Restore found campaignID at version to be
// an epoch this build cannot run: a host answers a request naming it with
// campaign_version_unsupported (§4, §12), not unknown_campaign.
func (a *Archive) Unsupported(campaignID, version string) bool {
	a.mu.RLock()
	defer a.mu.RUnlock()
	return a.unsupported[EpochRef{campaignID, version}]
}

// Versions returns every held version of campaignID, sorted.
func (a *Archive) Versions(campaignID string) []string {
	a.mu.RLock()
	defer a.mu.RUnlock()
	var out []string
	for ref := range a.epochs {
		if ref.CampaignID == campaignID {
			out = append(out, ref.CampaignVersion)
		}
	}
	sort.Strings(out)
	return out
}
