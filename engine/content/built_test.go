package content_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/storyloom/storyloom/engine/content"
	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/internal/testkind"
)

// published builds two campaigns and returns their built documents, as
// bytes, with the manifest entries that name them.
func published(t *testing.T) ([][]byte, []content.ManifestEntry) {
	t.Helper()
	raw, entries, err := builtDocs()
	if err != nil {
		t.Fatal(err)
	}
	return raw, entries
}

func builtDocs() ([][]byte, []content.ManifestEntry, error) {
	reg, res := content.Build(kinds, content.Source{Campaign: testkind.Campaign("alpha", "1.0.0", 3)},
		content.Source{Campaign: testkind.Campaign("beta", "2.1.0", 4)})
	if !res.OK {
		return nil, nil, fmt.Errorf("build: %v", res.Errors)
	}
	docs, err := content.Built(kinds, reg)
	if err != nil {
		return nil, nil, err
	}
	var raw [][]byte
	var entries []content.ManifestEntry
	for _, d := range docs {
		b, err := json.Marshal(d)
		if err != nil {
			return nil, nil, err
		}
		raw = append(raw, b)
		entries = append(entries, content.ManifestEntry{ID: d.Form.Campaign.ID, Version: d.Form.Campaign.Version, Digest: d.Digest})
	}
	return raw, entries, nil
}

func TestBuiltDocumentsVerifyAndRestore(t *testing.T) {
	raw, entries := published(t)
	if len(entries) != 2 || entries[0].ID != "alpha" || entries[1].Version != "2.1.0" {
		t.Fatalf("entries %+v", entries)
	}
	// A host that never saw the source restores the verified documents.
	a, err := content.NewArchive(kinds, build(t, "other", "1.0.0", 1))
	if err != nil {
		t.Fatal(err)
	}
	for i, b := range raw {
		s, err := content.VerifyBuilt(b, entries[i])
		if err != nil {
			t.Fatal(err)
		}
		if r := a.Restore(s); r.Outcome != content.Restored {
			t.Fatalf("restore %s: %+v", entries[i].ID, r)
		}
	}
	if a.Resolve("beta", "2.1.0") == nil {
		t.Fatal("beta 2.1.0 not held after restore")
	}
}

func TestVerifyBuiltRefuses(t *testing.T) {
	raw, entries := published(t)
	doc, entry := string(raw[0]), entries[0]
	tests := []struct {
		name  string
		doc   string
		entry content.ManifestEntry
		check string
	}{
		{"text changed", strings.Replace(doc, `"Counter alpha"`, `"Counter alpha!"`, 1), entry, "digest"},
		{"content changed", strings.Replace(doc, `"goal":3`, `"goal":30`, 1), entry, "digest"},
		{"another campaign's document", string(raw[1]), entry, "entry"},
		{"another version named", doc, content.ManifestEntry{ID: "alpha", Version: "1.0.1", Digest: entry.Digest}, "entry"},
		{"another digest named", doc, content.ManifestEntry{ID: "alpha", Version: "1.0.0", Digest: entries[1].Digest}, "entry"},
		{"unknown field", strings.Replace(doc, `{"form"`, `{"extra":1,"form"`, 1), entry, "decode"},
		{"trailing data", doc + "{}", entry, "decode"},
		{"a key in another case", strings.Replace(doc, `{"form"`, `{"Form"`, 1), entry, "decode"},
		{"not json", "<html>", entry, "decode"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := content.VerifyBuilt([]byte(tt.doc), tt.entry)
			var ve core.ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("got %v, want a ValidationError", err)
			}
			if ve.Code != core.ReasonInvalidState || ve.Details["check"] != tt.check || ve.Details["campaignId"] != tt.entry.ID {
				t.Fatalf("got %+v, want invalid_state with check %q", ve, tt.check)
			}
		})
	}
}

// TestVerifyBuiltRefusesADocumentWithoutProvenance: a document whose
// digest and entry agree but that lacks its strings table or its
// attachments is refused with content_provenance_missing.
func TestVerifyBuiltRefusesADocumentWithoutProvenance(t *testing.T) {
	raw, _ := published(t)
	for _, strip := range []string{"strings", "attachments"} {
		t.Run(strip, func(t *testing.T) {
			var d content.StoredEpoch
			if err := json.Unmarshal(raw[0], &d); err != nil {
				t.Fatal(err)
			}
			if strip == "strings" {
				d.Form.Strings = nil
			} else {
				d.Form.Attachments = nil
			}
			var err error
			if d.Digest, err = content.EpochDigest(d.Form); err != nil {
				t.Fatal(err)
			}
			data, err := json.Marshal(d)
			if err != nil {
				t.Fatal(err)
			}
			_, err = content.VerifyBuilt(data, content.ManifestEntry{ID: "alpha", Version: "1.0.0", Digest: d.Digest})
			var ve core.ValidationError
			if !errors.As(err, &ve) || ve.Code != core.ReasonContentProvenanceMissing || ve.Details["campaignId"] != "alpha" {
				t.Fatalf("got %v, want content_provenance_missing for alpha", err)
			}
		})
	}
}

func TestManifestDigest(t *testing.T) {
	_, entries := published(t)
	d, err := content.ManifestDigest(entries)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := content.ManifestDigest([]content.ManifestEntry{entries[0], entries[1]})
	swapped, _ := content.ManifestDigest([]content.ManifestEntry{entries[1], entries[0]})
	changed := []content.ManifestEntry{entries[0], entries[1]}
	changed[1].Digest = entries[0].Digest
	other, _ := content.ManifestDigest(changed)
	empty, _ := content.ManifestDigest(nil)
	if d != again || d == swapped || d == other || d == empty || d == "" {
		t.Fatalf("digests: %s %s %s %s %s", d, again, swapped, other, empty)
	}
}

func FuzzVerifyBuilt(f *testing.F) {
	raw, entries, err := builtDocs()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(raw[0], entries[0].ID, entries[0].Version, entries[0].Digest)
	f.Add([]byte(`{"form":{}}`), "a", "1", "x")
	f.Fuzz(func(t *testing.T, data []byte, id, version, digest string) {
		s, err := content.VerifyBuilt(data, content.ManifestEntry{ID: id, Version: version, Digest: digest})
		if err != nil {
			return
		}
		if d, derr := content.EpochDigest(s.Form); derr != nil || d != digest || s.Form.Campaign.ID != id {
			t.Fatalf("verified a document that does not match: %v %s", derr, d)
		}
	})
}

// TestFromBuilt: the registry of built documents is the one they were
// built from: published again, each campaign's epoch has the built digest.
// A document of a kind the host does not run fails with unknown_kind.
func TestFromBuilt(t *testing.T) {
	raw, entries := published(t)
	var docs []content.StoredEpoch
	for i, b := range raw {
		s, err := content.VerifyBuilt(b, entries[i])
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, s)
	}
	reg, res := content.FromBuilt(kinds, docs...)
	if !res.OK {
		t.Fatal(res.Errors)
	}
	if len(reg.Order) != 2 || reg.Order[1] != "beta" || reg.Strings[reg.Campaigns["alpha"].TitleKey] != "Counter alpha" {
		t.Fatalf("registry order %v, alpha's title %q", reg.Order, reg.Strings[reg.Campaigns["alpha"].TitleKey])
	}
	again, err := content.Built(kinds, reg)
	if err != nil {
		t.Fatal(err)
	}
	for i, d := range again {
		if d.Digest != entries[i].Digest {
			t.Errorf("%s: republished as %s, built as %s", entries[i].ID, d.Digest, entries[i].Digest)
		}
	}
	foreign := docs[0]
	foreign.Form.Campaign.KindID = "chess"
	if _, res := content.FromBuilt(kinds, foreign); res.OK || res.Errors[0].Code != core.ReasonUnknownKind {
		t.Fatalf("an unknown kind gives %+v", res)
	}
	if _, res := content.FromBuilt(kinds, docs[0], docs[0]); res.OK || res.Errors[0].Code != core.ReasonDuplicateCampaignID {
		t.Fatalf("a campaign twice gives %+v", res)
	}
}
