// Package authoring holds what the simulation and world-graph kinds share
// when they read the source of a campaign an author wrote and check the
// content built from it (tier 1, §11):
//
//   - Num, a whole number as the author wrote it, so that a bad number is
//     reported at its path rather than failing the whole document;
//   - Builder, which lifts inline text (core.SourceText) to LocKeys under
//     the campaign's namespace and converts numbers, collecting findings;
//   - Findings, which collects tier 1 errors with element paths: ranges,
//     ids, and conditions against a kind's field vocabulary;
//   - the reason codes of those findings and their English messages, which
//     each kind ships under its own "<kindId>.reason.<code>" keys.
//
// Every message starts with the kind's short prefix ("sim: …", "world: …"),
// so findings read the same whichever kind reports them.
package authoring
