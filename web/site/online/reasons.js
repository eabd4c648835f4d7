// The servers' refusals in the page's language. The room server
// (engine/rooms/codes.go) and Freeport (engine/freeport/errors.go and the
// host's own hostError codes) send each refusal as a stable code with an
// English reason. The code is the key: the page words every code it knows
// itself, through tr() (js/lang.js), so the words follow the page's
// language; the server's English is the fallback, for a code this page
// does not know yet, and is then marked lang="en".

import { tr } from "../js/lang.js";
import { h } from "../js/dom.js";

// What a name (a player's or a room's) was refused for: the name policy's
// finer code (bundle/displayname), sent as the rejection's detail.
const nameDetail = {
  name_empty: () => tr("A name cannot be empty."),
  name_too_long: () => tr("A name is at most 32 characters."),
  name_invalid_utf8: () => tr("A name must be text: it held bytes that are not."),
  name_control_character: () => tr("A name cannot hold control characters (tabs, line breaks)."),
  name_invisible_character: () => tr("A name cannot hold invisible characters."),
  name_bidi_control: () => tr("A name cannot hold text-direction marks."),
  name_too_many_marks: () => tr("A name cannot stack so many accents on one letter."),
  name_disallowed_character: () => tr("A name cannot hold one of its characters."),
};

// The room server's codes. p holds what the page knows beside the code:
// the format's deck bounds (min, max, copies) for the deck rules.
const roomsText = {
  frame_too_large: () => tr("That message was too large for the room server."),
  malformed_frame: () => tr("The room server could not read that message."),
  unknown_command: () => tr("The room server does not know that command."),
  rate_limited: () => tr("Too many messages at once: wait a moment, then try again."),
  too_many_rooms: () => tr("The server holds as many rooms as it can: join one, or try again later."),
  too_many_connections: () => tr("The room server is full right now: try again in a moment."),
  too_many_spectators: () => tr("That game has as many spectators as it allows."),
  session_taken: () => tr("This session was opened in another tab or window, which now holds your seat."),
  unknown_session: () => tr("Your earlier session had expired: you have a new one."),
  wrong_server: () => tr("That is done from the lobby: leave the table first."),
  invalid_seat_count: () => tr("A room has from 2 to 8 seats."),
  seat_count_for_format: () => tr("This game cannot be played with that number of seats."),
  unknown_format: () => tr("This server does not offer that game."),
  seats_below_occupancy: () => tr("More players are seated than that number of seats."),
  invalid_room_name: (p) => nameDetail[p.detail]?.() || tr("That room name cannot be used."),
  not_host: () => tr("Only the host (the first seat) may do that."),
  invalid_visibility: () => tr("A room is public or private."),
  invalid_clock: () => tr("The clock is 0 (none) or from 5 to 3600 seconds."),
  below_minimum: (p) =>
    p.min ? tr("The deck has too few cards: it needs at least {n}.", { n: p.min }) : tr("The deck has too few cards."),
  above_maximum: (p) =>
    p.max ? tr("The deck has too many cards: it takes at most {n}.", { n: p.max }) : tr("The deck has too many cards."),
  copy_limit: (p) =>
    p.copies ? tr("Too many copies of one card: at most {n}.", { n: p.copies }) : tr("Too many copies of one card."),
  missing_commander: () => tr("This format needs a commander."),
  commander_not_in_deck: () => tr("The commander must be one of the deck’s cards."),
  commander_not_legendary_creature: () => tr("The commander must be a legendary creature."),
  out_of_identity: () => tr("A card is outside the commander’s colours."),
  unknown_card: () => tr("A card of the deck is not in the catalog."),
  no_deck_needed: () => tr("This game needs no deck."),
  deck_required: () => tr("Choose a deck before you say you are ready."),
  unknown_room: () => tr("There is no such room: it may have closed."),
  room_full: () => tr("That room has no open seat."),
  already_in_room: () => tr("You are already in a room: leave it first."),
  not_in_room: () => tr("You are not in a room."),
  game_started: () => tr("That game has started: watch it instead."),
  not_running: () => tr("That room has no game running to watch."),
  invalid_seat: () => tr("There is no such seat."),
  seat_occupied: () => tr("That seat is taken."),
  not_ai_seat: () => tr("That seat is not an AI player’s."),
  unknown_ai: () => tr("This game has no AI player of that kind."),
  invalid_name: (p) => nameDetail[p.detail]?.() || tr("That name cannot be used."),
  in_game: () => tr("Not while you are in a game: your seat is held for you."),
  not_in_game: () => tr("No game is running for you."),
  invalid_page: () => tr("There is no such page of rooms."),
  stale_action: () => tr("The game had moved on: this is the table as it stands now."),
  invalid_choice: () => tr("That choice is not one the game allows."),
  game_over: () => tr("The game is over: its result stands."),
  undo_disabled: () => tr("This table does not allow taking moves back."),
  nothing_to_undo: () => tr("There is no move left to take back."),
  invalid_stops: () => tr("Those stops are not steps of this game."),
  internal: () => tr("The room server failed to do that; try again."),
  action_not_offered: () => tr("That action is not offered right now."),
  // The page's own, for a command that never reached the server.
  not_connected: () => tr("Not connected to the room server right now; it reconnects on its own, then try again."),
  not_sent: () => tr("The command could not reach the room server; try again."),
};

// Freeport's codes: the Game Master's refusals and the host's.
const freeportText = {
  authentication_required: () => tr("The market no longer knows this tab’s key: it asks for a new one."),
  malformed_request: () => tr("The market could not read that request."),
  unsupported_protocol_version: () => tr("This page speaks another version of the market’s protocol: reload it."),
  not_enrolled: () => tr("Join the market first."),
  unknown_player: () => tr("That trader is not in this market."),
  command_id_reuse: () => tr("That request was already sent with other details; try again."),
  invalid_trading_name: () => tr("A trading name is at most 32 characters, with no control characters."),
  insufficient_available: () => tr("Not enough available: some of it may be reserved by your open exchanges."),
  self_dealing: () => tr("You cannot trade with yourself."),
  unknown_asset: () => tr("That good cannot be traded here."),
  unknown_exchange: () => tr("There is no such exchange."),
  not_a_party: () => tr("You are not a party to that exchange."),
  not_your_turn: () => tr("It is not your turn on that exchange."),
  exchange_not_open: () => tr("That exchange has already concluded."),
  stale_exchange_version: () => tr("The exchange moved on before your answer arrived; here it is as it stands now."),
  terms_mismatch: () => tr("The terms changed before your answer arrived; here they are as they stand now."),
  // The host's.
  unknown_game: () => tr("There is no Freeport game here."),
  enrolment_closed: () => tr("This game is closed to new traders; its standing is still open to read."),
  unavailable: () => tr("The market is unavailable for a moment; try again shortly."),
  rate_limited: () => tr("Slow down a little: the market is busy."),
  offline: () => tr("The market cannot be reached. Retrying…"),
};

function words(table, code, english, params) {
  const own = Object.hasOwn(table, code) ? table[code](params || {}) : "";
  if (own) return { text: own, lang: null };
  // A code this page does not know (an HTTP status it read no body from,
  // a newer server's): the server's English, marked so.
  return { text: english || code || "", lang: "en" };
}

/**
 * A room server refusal {code, reason, detail} as {text, lang}: text in
 * the page's language and lang null when the page knows the code, else
 * the server's English reason and lang "en". params: the deck bounds.
 */
export function roomsReason(e, params) {
  return words(roomsText, e.code, e.reason, { ...params, detail: e.detail });
}

/** A Freeport refusal (the Game Master's or the host's) as roomsReason's {text, lang}. */
export function freeportReason(code, message) {
  if (/^http_\d+$/.test(code || ""))
    return { text: tr("The market answered with an error ({status}).", { status: code.slice(5) }), lang: null };
  return words(freeportText, code, String(message || "").replace(/^freeport: /, ""));
}

/** The element (or text) that shows said, a {text, lang}. */
export function saidNode(said) {
  return said.lang ? h("span", { lang: said.lang, text: said.text }) : said.text;
}

// How a game ended, by the result's reason code (Cheat's and the card
// game's), to go in "You won ({reason})!".
const resultText = {
  emptied_hand: () => tr("an emptied hand"),
  concede: () => tr("by concession"),
  life_zero: () => tr("no life left"),
  decked: () => tr("a draw from an empty library"),
  poison: () => tr("ten poison counters"),
  commander_damage: () => tr("21 damage from one commander"),
  stalled: () => tr("the game stalled"),
};

/** A game result's reason code as {text, lang}: the page's words, or the code itself marked English. */
export function resultReason(code) {
  return words(resultText, code, String(code || "").replace(/_/g, " "));
}
