// Display words for the game's and the lobby's ids. Names are chosen by
// players and always reach the page as text.

import { h } from "../online/dom.js";
import { tr } from "../js/lang.js";

const RANKS = { A: "Aces", 2: "Twos", 3: "Threes", 4: "Fours", 5: "Fives", 6: "Sixes", 7: "Sevens", 8: "Eights", 9: "Nines", 10: "Tens", J: "Jacks", Q: "Queens", K: "Kings" };
const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const SUIT_WORDS = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };

/** "7" → "Sevens"; an unknown rank is shown as it is. */
export function rankWord(rank) {
  return RANKS[rank] || String(rank ?? "");
}

/** A card id such as "QH" → "Q♥". */
export function cardName(id) {
  const s = String(id);
  const suit = s.slice(-1);
  return SUITS[suit] ? s.slice(0, -1) + SUITS[suit] : s;
}

/** A card id → its spoken name, "Q of hearts". */
export function cardSpoken(id) {
  const s = String(id);
  const suit = s.slice(-1);
  return SUIT_WORDS[suit] ? `${s.slice(0, -1)} of ${SUIT_WORDS[suit]}` : s;
}

/** Whether a card is red (hearts, diamonds). */
export function isRed(id) {
  return /[HD]$/.test(String(id));
}

/** The label of a seat in the lobby: its name, else "Player n". */
export function seatLabel(seat, aiName) {
  if (seat.ai) return h("span", {}, en(aiName(seat.ai)), ` ${tr("(AI)")}`);
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

/** Plural helper: plural(3, "card") → "3 cards". */
export function plural(n, word, many = `${word}s`) {
  return `${n} ${n === 1 ? word : many}`;
}
