// Package multiplayer holds the browser scenarios of the multiplayer pages,
// played against whichever host serves them: the rooms page
// (web/site/rooms: Cheat in [PlayCheat], the card game in [PlayCardDuel],
// [PlayCommander], [PlayCardUndo], [PlayCardReconnect] and
// [PlayCardPhone]) and the Freeport page (web/site/freeport,
// [TradeThree]). The native host's tests (bundle/e2e, bundle/e2e/freeport)
// and the edge worker's under `wrangler dev` (bundle/edge) call the same
// scenario, so both hosts are held to the same behaviour.
//
// It builds on bundle/browsertest: every tab fails its test on a console
// error, an uncaught exception or an error log entry, screenshots go under
// testout/<test name>/, and axe-core checks the screens. Waits are upper
// bounds, generous enough for the edge worker under a loaded machine; no
// step times anything.
package multiplayer
