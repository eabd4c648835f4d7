// Package story is the story-graph kind (KindID "story-graph"): interactive
// fiction as a graph of nodes. A choice node shows text and choices, a
// random node draws one of its weighted transitions from the action's
// stream, and an ending node closes the game under an authored ending id.
// Choices are gated by Conditions, change typed variables, unlock
// achievements and move the cursor; after every choice the game settles
// through random nodes until it rests on a choice node or an ending.
//
// The contract — state shape, content source format, actions, settle rules,
// validation tiers, projection, migration and reason codes — is
// docs/story-graph-kind.md. Kind implements core.Kind and the optional
// core.TerminalCounter, core.ContentMigrator, core.ContentAdopter and
// validate.Explorable.
//
// Like all of engine/, the package is pure: no I/O, no clock, no global
// mutable state. Content, once built, never changes; a State is immutable
// and every resolution returns a new one.
package story
