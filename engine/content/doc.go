// Package content turns authors' campaign files into a frozen, validated
// core.Registry, and keeps published epochs of campaigns in an Archive.
//
// A campaign file (docs/campaign-format.md) is a JSON document:
//
//	{
//	  "format": 1,
//	  "id": "lighthouse-keeper",
//	  "kind": "story-graph",
//	  "version": "1.0.0",
//	  "title": "The Lighthouse Keeper",
//	  "content": { ... the kind's own source ... }
//	}
//
// Player-facing text is written inline and lifted into the registry's string
// table under LocKeys (§10.1); translations are separate catalogs, one per
// locale, mapping LocKey to text. A campaign may include others as modules,
// and a content pack (BuildPacks) may attach modules to campaigns it does
// not own; both compose before validation (§10.4). The engine never reads
// files: a host reads the bytes and hands them to Build as Sources, or to
// BuildPacks as Packs.
package content
