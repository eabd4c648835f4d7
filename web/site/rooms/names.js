// Display words for the game's and the lobby's ids. Names are chosen by
// players and always reach the page as text.

import { h } from "../js/dom.js";
import { tr } from "../js/lang.js";

const RANKS = {
  A: "Aces",
  2: "Twos",
  3: "Threes",
  4: "Fours",
  5: "Fives",
  6: "Sixes",
  7: "Sevens",
  8: "Eights",
  9: "Nines",
  10: "Tens",
  J: "Jacks",
  Q: "Queens",
  K: "Kings",
};
const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const SUIT_WORDS = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };

/** "7" → "Sevens" (in the page's language); an unknown rank is shown as it is. */
export function rankWord(rank) {
  return RANKS[rank] ? tr(RANKS[rank]) : String(rank ?? "");
}

/** A card id such as "QH" → "Q♥". */
export function cardName(id) {
  const s = String(id);
  const suit = s.slice(-1);
  return SUITS[suit] ? s.slice(0, -1) + SUITS[suit] : s;
}

/** A card id → its spoken name, "Q of hearts" (in the page's language). */
export function cardSpoken(id) {
  const s = String(id);
  const suit = s.slice(-1);
  return SUIT_WORDS[suit] ? tr("{rank} of {suit}", { rank: s.slice(0, -1), suit: tr(SUIT_WORDS[suit]) }) : s;
}

/** Whether a card is red (hearts, diamonds). */
export function isRed(id) {
  return /[HD]$/.test(String(id));
}

/** The label of a seat in the lobby: its name, else "Player n"; aiNode(kind) names an AI seat's kind. */
export function seatLabel(seat, aiNode) {
  if (seat.ai) return h("span", {}, aiNode(seat.ai), ` ${tr("(AI)")}`);
  if (seat.name) return seat.name;
  if (seat.occupied_by) return tr("Player {n}", { n: seat.seat + 1 });
  return tr("Empty");
}

/**
 * en marks text the room server sends in English (a game's, a format's or
 * an AI player's name and description: the server has no other language)
 * as English, so a page in another language stays true to what it shows.
 */
export function en(text) {
  return h("span", { lang: "en", text });
}

/** "3 cards" in the page's language. */
export function cards(n) {
  return tr("{n, plural, one {# card} other {# cards}}", { n });
}

/**
 * says is tr(text, params) as strings and nodes: a param that is a node
 * (a player's name, marked not to translate) stands where its
 * placeholder is, so the sentence is the page's language and the name
 * stays what its player chose.
 */
export function says(text, params = {}) {
  const nodes = [];
  const marked = {};
  for (const [k, v] of Object.entries(params)) {
    if (v instanceof Node) {
      marked[k] = `\u0001${nodes.length}\u0001`;
      nodes.push(v);
    } else {
      marked[k] = v;
    }
  }
  return tr(text, marked)
    .split("\u0001")
    .map((part, i) => (i % 2 ? nodes[Number(part)].cloneNode(true) : part))
    .filter((p) => p !== "");
}

/** A player's name as a node: never translated, and marked English when it is an AI's (the server names them in English). */
export function nameNode(text, ai = false) {
  return h("span", { translate: "no", lang: ai ? "en" : undefined, text });
}
