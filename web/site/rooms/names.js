// Display words for the game's and the lobby's ids. Names are chosen by
// players and always reach the page as text.

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
  if (seat.ai) return `${aiName(seat.ai)} (AI)`;
  if (seat.name) return seat.name;
  if (seat.occupied_by) return `Player ${seat.seat + 1}`;
  return "Empty";
}

/** Plural helper: plural(3, "card") → "3 cards". */
export function plural(n, word, many = `${word}s`) {
  return `${n} ${n === 1 ? word : many}`;
}
