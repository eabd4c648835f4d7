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
	Content   json.RawMessage         `json:"content"`
	Migration *core.CampaignMigration `json:"migration,omitempty"`
	Includes  []include               `json:"includes,omitempty"`
}

// include is one module a campaign composes in (§10.4): the prefix its ids
// take, the campaign and the authored version it pins, and the kind's
// binding.
type include struct {
	Alias string `json:"alias"`
	Ref   struct {
		ID      string `json:"id"`
		Version string `json:"version"`
	} `json:"ref"`
	Binding json.RawMessage `json:"binding,omitempty"`
}

// header is what the composition checks read of every campaign file that
// parsed, built or not.
type header struct {
	src      Source
	id       string
	kind     string
	version  string
	includes []include
}

// built is one campaign after its builder ran.
type built struct {
	source     Source
	campaign   *core.Campaign
	provenance *core.Provenance
}

// Build parses, builds and validates (tiers 1 and 2) every source and
// assembles a frozen registry in source order. The registry is nil when any
// tier 1 error was found. Findings carry the campaign id in
// Details["campaignId"], the file in Details["file"], and the path of the
// element inside the campaign in Path.
func Build(kinds []core.Kind, sources ...Source) (*core.Registry, core.ValidationResult) {
	b := newBuilder(kinds)
	var camps []built
	seen := map[string]string{}
	for _, src := range sources {
		c, ok := b.campaign(src)
		if !ok {
			continue
		}
		if first, dup := seen[c.campaign.ID]; dup {
			b.fail(src, c.campaign.ID, core.Errorf(core.ReasonDuplicateCampaignID, "id", "campaign id %q is also used by %s", c.campaign.ID, first))
			continue
		}
		seen[c.campaign.ID] = src.Path
		camps = append(camps, c)
	}
	b.checkIncludes()
	b.checkKindMessages()
	b.checkCrossCampaignStrings(camps)
	res := b.result()
	if !res.OK {
		return nil, res
	}
	return b.assemble(camps), res
}

type builder struct {
	headers    []header
	kinds      map[string]core.Kind
	kindList   []core.Kind
	engineKeys map[core.LocKey]string
	usedKinds  map[string]bool
	errors     []core.ValidationError
	warnings   []core.ValidationWarning
}

func newBuilder(kinds []core.Kind) *builder {
	b := &builder{kinds: map[string]core.Kind{}, kindList: kinds, engineKeys: core.CoreMessages(), usedKinds: map[string]bool{}}
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

// campaign builds one source; ok is false when it has tier 1 errors.
func (b *builder) campaign(src Source) (built, bool) {
	before := len(b.errors)
	if len(src.Campaign) > MaxCampaignBytes {
		b.fail(src, "", core.Errorf(core.ReasonInputTooLarge, "", "campaign file is %d bytes; the limit is %d", len(src.Campaign), MaxCampaignBytes))
		return built{}, false
	}
	var f campaignFile
	if err := strictjson.Decode(src.Campaign, &f); err != nil {
		b.fail(src, "", core.Errorf(core.ReasonMalformedInput, "", "not a campaign file: %v", err))
		return built{}, false
	}
	switch {
	case f.Format == nil:
		b.fail(src, f.ID, core.Errorf(core.ReasonMalformedInput, "format", "missing format (this build reads format %d)", FileFormat))
		return built{}, false
	case *f.Format != FileFormat:
		b.fail(src, f.ID, core.Errorf(core.ReasonUnsupportedVersion, "format", "campaign format %d is not supported; this build reads format %d", *f.Format, FileFormat))
		return built{}, false
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
		return built{}, false
	}
	b.headers = append(b.headers, header{src: src, id: f.ID, kind: k.ID(), version: f.Version, includes: f.Includes})
	if len(f.Content) == 0 {
		b.fail(src, f.ID, core.Errorf(core.ReasonMalformedInput, "content", "missing content"))
		return built{}, false
	}
	b.usedKinds[k.ID()] = true
	content, lifted, errs := k.BuildContent(f.Content, f.ID)
	for _, e := range errs {
		b.fail(src, f.ID, e)
	}
	title := f.Title.Lift(f.ID + ".title")
	strs := map[core.LocKey]string{}
	for i, t := range append([]core.AuthoredText{title}, lifted...) {
		path := "title"
		if i > 0 {
			path = "content"
		}
		b.addString(src, f.ID, path, strs, t)
	}
	if len(b.errors) > before {
		return built{}, false
	}
	c := &core.Campaign{ID: f.ID, KindID: k.ID(), Version: f.Version, TitleKey: title.Key, Content: content, Migration: f.Migration}
	vr := k.ValidateCampaign(c, strs)
	for _, e := range vr.Errors {
		b.fail(src, f.ID, e)
	}
	for _, w := range vr.Warnings {
		b.warn(src, f.ID, w)
	}
	if !vr.OK && len(vr.Errors) == 0 {
		b.fail(src, f.ID, core.Errorf(core.ReasonInvalidState, "content", "the kind refused the campaign"))
	}
	if c.Migration != nil && vr.OK {
		m, ok := k.(core.ContentMigrator)
		if !ok {
			b.fail(src, f.ID, core.Errorf(core.ReasonMigrationUnsupported, "migration", "kind %q cannot apply a migration; a save made on an earlier version keeps playing it", k.ID()))
		} else {
			for _, e := range core.CheckMigration(c.Migration, c.Version, m.MigrationIDs(c)) {
				b.fail(src, f.ID, e)
			}
		}
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
	prov := &core.Provenance{Strings: strs, Catalogs: b.translations(src, f.ID, strs)}
	if len(b.errors) > before {
		return built{}, false
	}
	return built{source: src, campaign: c, provenance: prov}, true
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
func (b *builder) checkCrossCampaignStrings(camps []built) {
	owner := map[core.LocKey]string{}
	for _, c := range camps {
		for _, key := range slices.Sorted(maps.Keys(c.provenance.Strings)) {
			first, ok := owner[key]
			if !ok {
				owner[key] = c.campaign.ID
				continue
			}
			for _, other := range camps {
				if other.campaign.ID == first && other.provenance.Strings[key] != c.provenance.Strings[key] {
					b.fail(c.source, c.campaign.ID, core.Errorf(core.ReasonStringConflict, "strings."+key,
						"string key %q has another text in campaign %q", key, first))
				}
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
func (b *builder) assemble(camps []built) *core.Registry {
	r := &core.Registry{
		Campaigns:  map[string]*core.Campaign{},
		Strings:    map[core.LocKey]string{},
		Catalogs:   map[string]map[core.LocKey]string{},
		Provenance: map[string]*core.Provenance{},
	}
	for k, v := range b.engineKeys {
		r.Strings[k] = v
	}
	for _, c := range camps {
		id := c.campaign.ID
		r.Order = append(r.Order, id)
		r.Campaigns[id] = c.campaign
		r.Provenance[id] = c.provenance
		for k, v := range c.provenance.Strings {
			r.Strings[k] = v
		}
		for loc, cat := range c.provenance.Catalogs {
			if r.Catalogs[loc] == nil {
				r.Catalogs[loc] = map[core.LocKey]string{}
			}
			for k, v := range cat {
				r.Catalogs[loc][k] = v
			}
		}
	}
	return r
}

// checkIncludes runs the core's composition checks (§10.4) on every
// campaign that includes others, in input order and, per campaign, in the
// specification's order: the module is in the same input
// (include_missing), at the pinned version (include_version_mismatch), of
// the host's kind (include_kind_mismatch); the alias is well-formed
// (invalid_identifier) and unique (include_alias_collision); no campaign
// includes itself (include_cycle). A host that passes them all is refused
// compose_unsupported: no registered kind composes campaigns yet.
func (b *builder) checkIncludes() {
	byID := map[string]*header{}
	for i := range b.headers {
		if _, dup := byID[b.headers[i].id]; !dup {
			byID[b.headers[i].id] = &b.headers[i]
		}
	}
	for _, h := range b.headers {
		if len(h.includes) == 0 {
			continue
		}
		before := len(b.errors)
		aliases := map[string]bool{}
		for i, inc := range h.includes {
			p := fmt.Sprintf("includes[%d]", i)
			mod := byID[inc.Ref.ID]
			switch {
			case mod == nil:
				b.fail(h.src, h.id, core.Errorf(core.ReasonIncludeMissing, p+".ref.id", "included campaign %q is not among the campaigns being built", inc.Ref.ID))
			case mod.version != inc.Ref.Version:
				b.fail(h.src, h.id, core.Errorf(core.ReasonIncludeVersionMismatch, p+".ref.version", "%q is pinned at %s but is at %s", inc.Ref.ID, inc.Ref.Version, mod.version))
			case mod.kind != h.kind:
				b.fail(h.src, h.id, core.Errorf(core.ReasonIncludeKindMismatch, p+".ref.id", "%q is a %s campaign; this one is %s", inc.Ref.ID, mod.kind, h.kind))
			}
			switch {
			case !validAlias(inc.Alias):
				b.fail(h.src, h.id, core.Errorf(core.ReasonInvalidIdentifier, p+".alias", "alias %q must be [a-z0-9_-], not empty", inc.Alias))
			case aliases[inc.Alias]:
				b.fail(h.src, h.id, core.Errorf(core.ReasonIncludeAliasCollision, p+".alias", "alias %q is used twice", inc.Alias))
			}
			aliases[inc.Alias] = true
		}
		if b.includesItself(h.id, byID) {
			b.fail(h.src, h.id, core.Errorf(core.ReasonIncludeCycle, "includes", "campaign %q includes itself, directly or through its modules", h.id))
		}
		if len(b.errors) == before {
			b.fail(h.src, h.id, core.Errorf(core.ReasonComposeUnsupported, "includes", "kind %q cannot compose campaigns", h.kind))
		}
	}
}

// includesItself reports whether id reaches itself through includes.
func (b *builder) includesItself(id string, byID map[string]*header) bool {
	seen := map[string]bool{}
	var reaches func(from string) bool
	reaches = func(from string) bool {
		h := byID[from]
		if h == nil || seen[from] {
			return false
		}
		seen[from] = true
		for _, inc := range h.includes {
			if inc.Ref.ID == id || reaches(inc.Ref.ID) {
				return true
			}
		}
		return false
	}
	return reaches(id)
}

// validAlias reports whether a is an include alias: ASCII [a-z0-9_-], not
// empty (so never ':', which joins an alias to a module id).
func validAlias(a string) bool {
	if a == "" {
		return false
	}
	for _, r := range a {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return false
		}
	}
	return true
}
