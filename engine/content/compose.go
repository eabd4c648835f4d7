package content

import (
	"fmt"
	"maps"
	"strings"

	"github.com/storyloom/storyloom/engine/core"
)

// compose composes u (§10.4) depth-first: every module it includes, then
// every module attached to it, is composed before it, and each once. The
// core's checks run in the specification's order: the module is in the
// input (include_missing), at the pinned authored version
// (include_version_mismatch), of the host's kind (include_kind_mismatch);
// the alias is well-formed (invalid_identifier) and unique among the host's
// includes and attachments (include_alias_collision); no campaign includes
// itself (include_cycle); the host's kind composes (compose_unsupported).
// Then the kind merges. It reports whether u composed.
func (b *builder) compose(u *unit) bool {
	switch u.state {
	case composed:
		return true
	case failed, composing:
		return false
	}
	if len(u.campaign.Includes) == 0 && len(u.attachments) == 0 {
		u.composed, u.prov, u.state = u.campaign, u.own, composed
		return true
	}
	u.state = composing
	before := len(b.errors)
	u.modules = map[string]*unit{}
	aliases := map[string]bool{}
	var modules []core.ComposedModule
	for i, inc := range u.campaign.Includes {
		if m := b.include(u, inc, aliases, u.src, fmt.Sprintf("includes[%d]", i)); m != nil {
			modules = append(modules, core.ComposedModule{Include: inc, Campaign: m.composed})
		}
	}
	var atts []core.ComposedAttachment
	for _, a := range u.attachments {
		if m := b.include(u, a.Include, aliases, Source{Path: a.file}, fmt.Sprintf("attachments[%d].include", a.index)); m != nil {
			atts = append(atts, core.ComposedAttachment{Payload: a.Payload, Module: core.ComposedModule{Include: a.Include, Campaign: m.composed}})
		}
	}
	composer, ok := u.kind.(core.Composer)
	if len(b.errors) == before && !ok {
		e := core.Errorf(core.ReasonComposeUnsupported, "includes", "kind %q cannot compose campaigns", u.kind.ID())
		src := u.src
		if len(u.campaign.Includes) == 0 {
			// Only packs attach to it: the first attachment is the one to fix.
			e.Path, src = fmt.Sprintf("attachments[%d]", u.attachments[0].index), Source{Path: u.attachments[0].file}
		}
		b.fail(src, u.campaign.ID, e)
	}
	if len(b.errors) > before || len(modules)+len(atts) < len(u.campaign.Includes)+len(u.attachments) {
		u.state = failed
		return false
	}
	content, errs := composer.ComposeContent(u.campaign, modules, atts)
	for _, e := range errs {
		b.fail(u.src, u.campaign.ID, e)
	}
	if len(errs) > 0 {
		u.state = failed
		return false
	}
	c := *u.campaign
	c.Content = content
	prov := &core.Provenance{Strings: maps.Clone(u.own.Strings), Catalogs: map[string]map[core.LocKey]string{}}
	mergeStrings(prov.Strings, prov.Catalogs, u.own)
	for _, m := range u.modules {
		mergeStrings(prov.Strings, prov.Catalogs, m.prov)
	}
	for _, a := range u.attachments {
		prov.Attachments = append(prov.Attachments, a.Attachment)
	}
	if len(prov.Catalogs) == 0 {
		prov.Catalogs = nil
	}
	u.composed, u.prov, u.state = &c, prov, composed
	return true
}

// include checks one include of host, declared in file src at path, and
// returns its module composed, or nil. aliases are those host's earlier
// includes and attachments took.
func (b *builder) include(host *unit, inc core.Include, aliases map[string]bool, src Source, path string) *unit {
	before := len(b.errors)
	fail := func(code, at, format string, args ...any) {
		b.fail(src, host.campaign.ID, core.Errorf(code, path+at, format, args...))
	}
	h, found := b.headers[inc.Ref.ID]
	switch {
	case !found:
		fail(core.ReasonIncludeMissing, ".ref.id", "included campaign %q is not among the campaigns being built", inc.Ref.ID)
	case h.version != inc.Ref.Version:
		fail(core.ReasonIncludeVersionMismatch, ".ref.version", "%q is pinned at %s but is at %s", inc.Ref.ID, inc.Ref.Version, h.version)
	case h.kind != host.kind.ID():
		fail(core.ReasonIncludeKindMismatch, ".ref.id", "%q is a %s campaign; this one is %s", inc.Ref.ID, h.kind, host.kind.ID())
	}
	switch {
	case !core.IsAlias(inc.Alias):
		fail(core.ReasonInvalidIdentifier, ".alias", "alias %q must be 1–64 characters of [a-z0-9_-]", inc.Alias)
	case aliases[inc.Alias]:
		fail(core.ReasonIncludeAliasCollision, ".alias", "alias %q is used twice", inc.Alias)
	}
	aliases[inc.Alias] = true
	m := b.units[inc.Ref.ID]
	if len(b.errors) > before || m == nil {
		return nil
	}
	if m.state == composing {
		fail(core.ReasonIncludeCycle, ".ref.id", "campaign %q includes itself, directly or through its modules", inc.Ref.ID)
		return nil
	}
	if !b.compose(m) {
		return nil
	}
	host.modules[inc.Alias] = m
	return m
}

// origin returns the unit whose own content holds the element at path of
// u's composed content, and the element's path there.
func (u *unit) origin(path string) (*unit, string) {
	owner := u
	path = ownPath(path, func(alias string) bool {
		m := owner.modules[alias]
		if m == nil {
			return false
		}
		owner = m
		return true
	})
	return owner, path
}

// Origin returns the campaign whose own content holds the element at path
// of campaign id's composed content in r, and the element's path there: id
// and path themselves unless the path names a composed id
// ("<alias>::<id>"), which belongs to the module included under alias.
func Origin(r *core.Registry, id, path string) (string, string) {
	path = ownPath(path, func(alias string) bool {
		c := r.Campaign(id)
		if c == nil {
			return false
		}
		incs := c.Includes
		if p := r.Provenance[id]; p != nil {
			for _, a := range p.Attachments {
				incs = append(incs[:len(incs):len(incs)], a.Include)
			}
		}
		for _, inc := range incs {
			if inc.Alias == alias {
				id = inc.Ref.ID
				return true
			}
		}
		return false
	})
	return id, path
}

// ownPath rewrites the first composed id in a dotted element path to the
// id its module declares, descending one module per alias while descend
// accepts it.
func ownPath(path string, descend func(alias string) bool) string {
	segs := strings.Split(path, ".")
	for i, seg := range segs {
		if !strings.Contains(seg, core.ComposedSeparator) {
			continue
		}
		parts := strings.Split(seg, core.ComposedSeparator)
		n := 0
		for n < len(parts)-1 && descend(parts[n]) {
			n++
		}
		segs[i] = strings.Join(parts[n:], core.ComposedSeparator)
		return strings.Join(segs, ".")
	}
	return path
}
