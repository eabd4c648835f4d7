package content

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/display"
	"github.com/storyloom/storyloom/engine/strictjson"
)

// FileFormat is the campaign file format version this build reads.
const FileFormat = 1

// MaxCampaignBytes bounds one campaign file.
const MaxCampaignBytes = 8 << 20

// Source is one campaign's files, as bytes.
type Source struct {
	// Path names the campaign file in messages, e.g.
	// "static/campaigns/lighthouse-keeper/campaign.json".
	Path string
	// Campaign is the campaign file.
	Campaign []byte
	// Translations maps a locale (e.g. "fr") to its catalog file: a JSON
	// object of LocKey → text.
	Translations map[string][]byte
}

// campaignFile is the campaign file's envelope.
type campaignFile struct {
	Format    *int                    `json:"format"`
	ID        string                  `json:"id"`
	Kind      string                  `json:"kind"`
	Version   string                  `json:"version"`
	Title     core.SourceText         `json:"title"`
	Blurb     *core.SourceText        `json:"blurb,omitempty"`
	Content   json.RawMessage         `json:"content"`
	Migration *core.CampaignMigration `json:"migration,omitempty"`
	Includes  []core.Include          `json:"includes,omitempty"`
}

// header is what the composition checks read of every campaign file that
// parsed, built or not.
type header struct {
	version string
	kind    string
}

// unit is one campaign through the build: as its file built it, the pack
// attachments it receives, and, once composed, the campaign play sees with
// its provenance.
type unit struct {
	src         Source
	kind        core.Kind
	campaign    *core.Campaign
	own         *core.Provenance
	attachments []attached
	// state is 0 before composition, composing during it, then composed
	// or failed.
	state    int
	composed *core.Campaign
	prov     *core.Provenance
	// modules are the units composed in, by alias, to find the file an
	// element of the composed content comes from.
	modules map[string]*unit
	// findings are the kind's validation of the composed campaign.
	findings core.ValidationResult
}

// attached is a pack attachment on its way to its host: the pack file it
// was declared in and its index there.
type attached struct {
	core.Attachment
	file  string
	index int
}

const (
	composing = iota + 1
	composed
	failed
)

// Build parses, builds, composes (§10.4) and validates (tiers 1 and 2)
// every source and assembles a frozen registry in source order. The
// registry is nil when any tier 1 error was found. Findings carry the
// campaign id in Details["campaignId"], the file in Details["file"], and
// the path of the element inside the campaign in Path; a finding in
// content a campaign composed in from a module names the module's file and
// id, the element's path there, and the composing campaign in
// Details["composedIn"].
func Build(kinds []core.Kind, sources ...Source) (*core.Registry, core.ValidationResult) {
	return build(kinds, sources, nil)
}

// build is Build with the pack attachments a pack set declares.
func build(kinds []core.Kind, sources []Source, attachments []attached) (*core.Registry, core.ValidationResult) {
	b := newBuilder(kinds)
	for _, src := range sources {
		u, ok := b.campaign(src)
		if !ok {
			continue
		}
		if first, dup := b.units[u.campaign.ID]; dup {
			b.fail(src, u.campaign.ID, core.Errorf(core.ReasonDuplicateCampaignID, "id", "campaign id %q is also used by %s", u.campaign.ID, first.src.Path))
			continue
		}
		b.units[u.campaign.ID] = u
		b.order = append(b.order, u)
	}
	for _, a := range attachments {
		host := b.units[a.HostCampaignID]
		if host == nil {
			if _, parsed := b.headers[a.HostCampaignID]; !parsed {
				b.fail(Source{Path: a.file}, "", core.Errorf(core.ReasonAttachmentHostMissing, fmt.Sprintf("attachments[%d].hostCampaignId", a.index),
					"attachment host %q is not among the campaigns being built", a.HostCampaignID))
			}
			continue
		}
		host.attachments = append(host.attachments, a)
	}
	for _, u := range b.order {
		b.compose(u)
	}
	for _, u := range b.order {
		if u.state == composed {
			b.validateComposed(u)
		}
	}
	b.report()
	b.checkKindMessages()
	b.checkCrossCampaignStrings()
	res := b.result()
	if !res.OK {
		return nil, res
	}
	return b.assemble(), res
}

type builder struct {
	headers    map[string]header
	units      map[string]*unit
	order      []*unit
	kinds      map[string]core.Kind
	kindList   []core.Kind
	engineKeys map[core.LocKey]string
	usedKinds  map[string]bool
	errors     []core.ValidationError
	warnings   []core.ValidationWarning
}

func newBuilder(kinds []core.Kind) *builder {
	b := &builder{headers: map[string]header{}, units: map[string]*unit{}, kinds: map[string]core.Kind{}, kindList: kinds, engineKeys: core.CoreMessages(), usedKinds: map[string]bool{}}
	for _, k := range kinds {
		b.kinds[k.ID()] = k
		for key, text := range k.ReasonMessages() {
			b.engineKeys[key] = text
		}
	}
	return b
}

func annotate(src Source, campaignID string, e core.ValidationError) core.ValidationError {
	d := make(map[string]any, len(e.Details)+2)
	for k, v := range e.Details {
		d[k] = v
	}
	if src.Path != "" {
		d["file"] = src.Path
	}
	if campaignID != "" {
		d["campaignId"] = campaignID
	}
	e.Details = d
	return e
}

func (b *builder) fail(src Source, id string, e core.ValidationError) {
	b.errors = append(b.errors, annotate(src, id, e))
}

func (b *builder) warn(src Source, id string, w core.ValidationWarning) {
	b.warnings = append(b.warnings, annotate(src, id, w))
}

func (b *builder) result() core.ValidationResult {
	return core.ValidationResult{OK: len(b.errors) == 0, Errors: orNone(b.errors), Warnings: orNone(b.warnings)}
}

func orNone(v []core.ValidationError) []core.ValidationError {
	if v == nil {
		return []core.ValidationError{}
	}
	return v
}

// campaign builds one source as its file stands, before composition; ok
// is false when it has tier 1 errors.
func (b *builder) campaign(src Source) (*unit, bool) {
	before := len(b.errors)
	if len(src.Campaign) > MaxCampaignBytes {
		b.fail(src, "", core.Errorf(core.ReasonInputTooLarge, "", "campaign file is %d bytes; the limit is %d", len(src.Campaign), MaxCampaignBytes))
		return nil, false
	}
	var f campaignFile
	if err := strictjson.Decode(src.Campaign, &f); err != nil {
		b.fail(src, "", core.Errorf(core.ReasonMalformedInput, "", "not a campaign file: %v", err))
		return nil, false
	}
	switch {
	case f.Format == nil:
		b.fail(src, f.ID, core.Errorf(core.ReasonMalformedInput, "format", "missing format (this build reads format %d)", FileFormat))
		return nil, false
	case *f.Format != FileFormat:
		b.fail(src, f.ID, core.Errorf(core.ReasonUnsupportedVersion, "format", "campaign format %d is not supported; this build reads format %d", *f.Format, FileFormat))
		return nil, false
	}
	if !core.IsCampaignID(f.ID) {
		b.fail(src, f.ID, core.Errorf(core.ReasonInvalidIdentifier, "id", "campaign id %q must be kebab-case ASCII [a-z0-9-]", f.ID))
	}
	if !core.IsVersion(f.Version) {
		b.fail(src, f.ID, core.Errorf(core.ReasonInvalidIdentifier, "version", "version %q must be 1–64 characters of [A-Za-z0-9.+-]", f.Version))
	}
	if f.Title.Text == "" {
		b.fail(src, f.ID, core.Errorf(core.ReasonMissingStringKey, "title", "the campaign needs a title"))
	}
	k := b.kinds[f.Kind]
	if k == nil {
		b.fail(src, f.ID, core.Errorf(core.ReasonUnknownKind, "kind", "kind %q is not one of %s", f.Kind, b.kindNames()))
		return nil, false
	}
	if _, dup := b.headers[f.ID]; !dup {
		b.headers[f.ID] = header{version: f.Version, kind: k.ID()}
	}
	if len(f.Content) == 0 {
		b.fail(src, f.ID, core.Errorf(core.ReasonMalformedInput, "content", "missing content"))
		return nil, false
	}
	b.usedKinds[k.ID()] = true
	content, lifted, errs := k.BuildContent(f.Content, f.ID)
	for _, e := range errs {
		b.fail(src, f.ID, e)
	}
	title := f.Title.Lift(f.ID + ".title")
	strs := map[core.LocKey]string{}
	b.addString(src, f.ID, "title", strs, title)
	var blurb core.AuthoredText
	if f.Blurb != nil {
		blurb = f.Blurb.Lift(f.ID + ".blurb")
		b.addString(src, f.ID, "blurb", strs, blurb)
	}
	for _, t := range lifted {
		b.addString(src, f.ID, "content", strs, t)
	}
	// The default table's plurals: their syntax is the kind's to check
	// (it knows where each text stands), their cases are checked here.
	for _, key := range slices.Sorted(maps.Keys(strs)) {
		for _, se := range display.CheckPlurals(core.DefaultLocale, strs[key]) {
			if se.Reason == "plural_category_unused" {
				e := core.Errorf(core.ReasonInvalidPlural, "strings#"+key, "%s", se.Msg)
				e.Details = map[string]any{"offset": se.Offset, "syntax": se.Reason, "locale": core.DefaultLocale}
				b.fail(src, f.ID, e)
			}
		}
	}
	own := &core.Provenance{Strings: strs, Catalogs: b.translations(src, f.ID, strs)}
	if len(b.errors) > before {
		return nil, false
	}
	c := &core.Campaign{ID: f.ID, KindID: k.ID(), Version: f.Version, TitleKey: title.Key, BlurbKey: blurb.Key, Content: content, Migration: f.Migration, Includes: f.Includes}
	return &unit{src: src, kind: k, campaign: c, own: own}, true
}

// validateComposed runs the kind's tiers 1 and 2 on the composed campaign
// against its strings and those of its modules (§11), and checks its
// declared migration.
func (b *builder) validateComposed(u *unit) {
	c, k := u.composed, u.kind
	vr := k.ValidateCampaign(c, u.prov.Strings)
	if !vr.OK && len(vr.Errors) == 0 {
		vr.Errors = []core.ValidationError{core.Errorf(core.ReasonInvalidState, "content", "the kind refused the campaign")}
	}
	if c.Migration != nil && vr.OK {
		m, ok := k.(core.ContentMigrator)
		if !ok {
			vr.Errors = append(vr.Errors, core.Errorf(core.ReasonMigrationUnsupported, "migration", "kind %q cannot apply a migration; a save made on an earlier version keeps playing it", k.ID()))
		} else {
			vr.Errors = append(vr.Errors, core.CheckMigration(c.Migration, c.Version, m.MigrationIDs(c))...)
		}
	}
	vr.OK = len(vr.Errors) == 0
	u.findings = vr
}

// report adds every campaign's validation findings, each against the file
// that authored the element it is about: a finding in content composed in
// from a module is the module's, at the module's own path, and is left out
// when the module's own validation already reported it.
func (b *builder) report() {
	seen := map[string]bool{}
	key := func(code, file, path string) string { return code + "\x00" + file + "\x00" + path }
	for _, u := range b.order {
		for _, e := range u.findings.Errors {
			seen[key(e.Code, u.src.Path, e.Path)] = true
		}
		for _, w := range u.findings.Warnings {
			seen[key(w.Code, u.src.Path, w.Path)] = true
		}
	}
	for _, u := range b.order {
		place := func(e core.ValidationError) (core.ValidationError, bool) {
			owner, path := u.origin(e.Path)
			if owner == u {
				return annotate(u.src, u.campaign.ID, e), true
			}
			if seen[key(e.Code, owner.src.Path, path)] {
				return e, false
			}
			e.Path = path
			e = annotate(owner.src, owner.campaign.ID, e)
			e.Details["composedIn"] = u.campaign.ID
			return e, true
		}
		for _, e := range u.findings.Errors {
			if e, ok := place(e); ok {
				b.errors = append(b.errors, e)
			}
		}
		for _, w := range u.findings.Warnings {
			if w, ok := place(w); ok {
				b.warnings = append(b.warnings, w)
			}
		}
	}
}

// addString adds one authored string to a campaign's table, refusing bad or
// reserved keys and a key given two texts.
func (b *builder) addString(src Source, id, path string, strs map[core.LocKey]string, t core.AuthoredText) {
	switch {
	case strings.Contains(t.Key, "~"):
		e := core.Errorf(core.ReasonProtectedStringKey, path, "string key %q uses '~', which is reserved for response aliases", t.Key)
		e.Details = map[string]any{"key": t.Key, "reason": "response_alias_namespace"}
		b.fail(src, id, e)
	case !core.IsLocKey(t.Key):
		b.fail(src, id, core.Errorf(core.ReasonInvalidLocKey, path, "string key %q must be dotted segments of [a-z0-9_-]", t.Key))
	case b.engineKeys[t.Key] != "" || strings.HasPrefix(t.Key, core.CoreReasonKey("")):
		e := core.Errorf(core.ReasonProtectedStringKey, path, "string key %q is reserved by the engine", t.Key)
		e.Details = map[string]any{"key": t.Key, "reason": "engine_reserved"}
		b.fail(src, id, e)
	case t.Text == "":
		b.fail(src, id, core.Errorf(core.ReasonMissingStringKey, path, "string key %q has no text", t.Key))
	default:
		if prev, ok := strs[t.Key]; ok && prev != t.Text {
			b.fail(src, id, core.Errorf(core.ReasonStringConflict, path, "string key %q has two different texts", t.Key))
			return
		}
		strs[t.Key] = t.Text
	}
}

// checkPlurals refuses (invalid_plural) a text of locale whose plurals are
// malformed or have a case the locale never picks, and, in a translation
// (orig is the default text it translates, "" for the default table
// itself), a plural counting a name the default text does not show: the
// engine sends only what the default text shows.
func (b *builder) checkPlurals(src Source, id, locale, path, text, orig string) {
	for _, se := range display.CheckPlurals(locale, text) {
		e := core.Errorf(core.ReasonInvalidPlural, path, "%s", se.Msg)
		e.Details = map[string]any{"offset": se.Offset, "syntax": se.Reason, "locale": locale}
		b.fail(src, id, e)
	}
	if orig == "" {
		return
	}
	shown := map[string]bool{}
	args, _ := display.Arguments(orig)
	for _, a := range args {
		shown[a.Name] = true
	}
	args, _ = display.Arguments(text)
	for _, a := range args {
		if a.Plural && !shown[a.Name] {
			e := core.Errorf(core.ReasonInvalidPlural, path, "{%s, plural, ...} counts %s, which the default text does not show", a.Name, a.Name)
			e.Details = map[string]any{"offset": a.Offset, "syntax": "plural_unknown_argument", "locale": locale}
			b.fail(src, id, e)
		}
	}
}

// translations reads a campaign's catalogs: keys it does not author are
// refused, keys it lacks are a tier 2 warning (they show in the default
// locale).
func (b *builder) translations(src Source, id string, strs map[core.LocKey]string) map[string]map[core.LocKey]string {
	if len(src.Translations) == 0 {
		return nil
	}
	out := map[string]map[core.LocKey]string{}
	for _, locale := range slices.Sorted(maps.Keys(src.Translations)) {
		path := "strings/" + locale + ".json"
		if !isLocale(locale) || locale == core.DefaultLocale {
			b.fail(src, id, core.Errorf(core.ReasonInvalidIdentifier, path, "%q is not a translation locale (e.g. fr, pt-br)", locale))
			continue
		}
		var cat map[string]string
		if err := strictjson.Decode(src.Translations[locale], &cat); err != nil {
			b.fail(src, id, core.Errorf(core.ReasonMalformedInput, path, "not a catalog of string keys to texts: %v", err))
			continue
		}
		for _, key := range slices.Sorted(maps.Keys(cat)) {
			if _, ok := strs[key]; !ok {
				b.fail(src, id, core.Errorf(core.ReasonMissingStringKey, path+"#"+key, "the catalog translates %q, which the campaign does not author", key))
			}
		}
		for _, key := range slices.Sorted(maps.Keys(cat)) {
			if orig, ok := strs[key]; ok {
				b.checkPlurals(src, id, locale, path+"#"+key, cat[key], orig)
			}
		}
		missing := 0
		for key := range strs {
			if cat[key] == "" {
				missing++
			}
		}
		if missing > 0 {
			w := core.Errorf(core.ReasonMissingTranslation, path, "%d of %d strings are not translated", missing, len(strs))
			w.Details = map[string]any{"missing": missing, "locale": locale}
			b.warn(src, id, w)
		}
		out[locale] = cat
	}
	return out
}

func isLocale(s string) bool {
	if len(s) < 2 || len(s) > 16 {
		return false
	}
	for i, part := range strings.Split(s, "-") {
		if part == "" || (i == 0 && (len(part) < 2 || len(part) > 3)) {
			return false
		}
		for j := 0; j < len(part); j++ {
			c := part[j]
			if !(c >= 'a' && c <= 'z' || i > 0 && c >= '0' && c <= '9') {
				return false
			}
		}
	}
	return true
}

// checkCrossCampaignStrings refuses one key authored with two texts by two
// campaigns of one registry: the merged table could hold only one of them.
func (b *builder) checkCrossCampaignStrings() {
	owner := map[core.LocKey]*unit{}
	for _, u := range b.order {
		if u.state != composed {
			continue
		}
		for _, key := range slices.Sorted(maps.Keys(u.own.Strings)) {
			first, ok := owner[key]
			if !ok {
				owner[key] = u
				continue
			}
			if first.own.Strings[key] != u.own.Strings[key] {
				b.fail(u.src, u.campaign.ID, core.Errorf(core.ReasonStringConflict, "strings."+key,
					"string key %q has another text in campaign %q", key, first.campaign.ID))
			}
		}
	}
}

// checkKindMessages refuses a used kind that registers a reason code with no
// message (§12).
func (b *builder) checkKindMessages() {
	for _, k := range b.kindList {
		if !b.usedKinds[k.ID()] {
			continue
		}
		msgs := k.ReasonMessages()
		for _, code := range k.ReasonCodes() {
			if msgs[core.KindReasonKey(k.ID(), code)] == "" {
				b.errors = append(b.errors, core.Errorf(core.ReasonMissingKindReasonMessage, "kinds."+k.ID(),
					"kind %q registers reason code %q without a message %q", k.ID(), code, core.KindReasonKey(k.ID(), code)))
			}
		}
	}
}

func (b *builder) kindNames() string {
	names := make([]string, 0, len(b.kinds))
	for n := range b.kinds {
		names = append(names, fmt.Sprintf("%q", n))
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// assemble merges the engine catalog and every campaign's strings into one
// frozen registry.
func (b *builder) assemble() *core.Registry {
	r := &core.Registry{
		Campaigns:  map[string]*core.Campaign{},
		Strings:    map[core.LocKey]string{},
		Catalogs:   map[string]map[core.LocKey]string{},
		Provenance: map[string]*core.Provenance{},
	}
	for k, v := range b.engineKeys {
		r.Strings[k] = v
	}
	for _, u := range b.order {
		id := u.campaign.ID
		r.Order = append(r.Order, id)
		r.Campaigns[id] = u.composed
		r.Provenance[id] = u.prov
		mergeStrings(r.Strings, r.Catalogs, u.prov)
	}
	return r
}

// mergeStrings adds p's strings and catalogs to strs and catalogs.
func mergeStrings(strs map[core.LocKey]string, catalogs map[string]map[core.LocKey]string, p *core.Provenance) {
	maps.Copy(strs, p.Strings)
	for loc, cat := range p.Catalogs {
		if catalogs[loc] == nil {
			catalogs[loc] = map[core.LocKey]string{}
		}
		maps.Copy(catalogs[loc], cat)
	}
}
