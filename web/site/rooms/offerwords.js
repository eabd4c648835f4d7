// What the room server's catalog offers (formats, AI players) and the
// preconstructed decks, in the page's words by their id. The server names
// and describes them in English (CatalogView, decks.json); the page has
// its own words for the ids it knows, and an id it does not know keeps the
// server's English, marked lang="en". A deck's name is a proper noun and
// stays as it is.

import { h } from "../js/dom.js";
import { tr } from "../js/lang.js";

const FORMATS = {
  "starter-1v1": () => tr("Starter duel"),
  standard_ffa: () => tr("Free-for-all"),
  commander: () => tr("Commander"),
  cheat: () => tr("Cheat"),
};

const FORMAT_ABOUT = {
  "starter-1v1": () => tr("Two players, 40-card decks, up to four copies of a card, 20 life."),
  standard_ffa: () => tr("Three or four players, each for themselves; starter deck rules, 20 life."),
  commander: () => tr("Two to four players, 40-card singleton decks led by a legendary creature, 30 life."),
  cheat: () => tr("Shed your hand by claiming cards face down; lie when you must, and call out the liars."),
};

const AIS = { pilot: () => tr("Pilot"), random: () => tr("Random"), fox: () => tr("Fox") };

// An AI's description depends on the game it plays (Cheat's random is not the card game's).
const AI_ABOUT = {
  pilot: () => tr("Curves out, races and trades sensibly, blocks lethal and aims removal at the biggest threat."),
  "random|card": () => tr("Plays any legal move at random: a sparring partner that never concedes."),
  "random|cheat": () => tr("Plays random cards and calls at random."),
  fox: () => tr("Tells the truth when it can, bluffs with the cards it needs least, and calls what cannot be true."),
};

const DECK_ABOUT = {
  ember_rush: () =>
    tr("Mono-red: fast raiders, burn for the last points, and a planeswalker who keeps the fire going."),
  thornwild_stampede: () => tr("Mono-green: ramp with elves, then trample over with boars and a colossus."),
  sunroot_vanguard: () => tr("White-green: a wide army of soldiers and beasts, lifted by banners."),
  hollow_tide: () => tr("Blue-black: answer everything, take their best cards, win in the air."),
  skyhall_watch: () => tr("White-blue: hold the ground with walls and snares while fliers do the work."),
  ashen_pact: () => tr("Black-red: trade creatures gladly, drain and burn, and let the venom finish it."),
  wildfire_chieftain: () => tr("Brakka leads red and green: haste, trample, burn and big bodies."),
  hollow_archive: () => tr("Vesk leads blue and black: every spell mills the table, and the dead come back."),
};

// worded is table's words for id, else the server's English text: {text, lang}.
function worded(table, id, server) {
  return table[id] ? { text: table[id](), lang: "" } : { text: server || String(id ?? ""), lang: "en" };
}

/** A format's name ({text, lang}), from its game_setup id; name is the server's. */
export function formatText(setup, name) {
  return worded(FORMATS, setup, name);
}

/** An AI kind's name ({text, lang}); name is the server's. */
export function aiText(id, name) {
  return worded(AIS, id, name);
}

/** The words w ({text, lang}) as a span, marked English when they are the server's. */
export function wordsNode(w, attrs = {}) {
  return h("span", { ...attrs, lang: w.lang || false, text: w.text });
}

/** A format's description as a node; description is the server's. */
export function formatAbout(setup, description) {
  return wordsNode(worded(FORMAT_ABOUT, setup, description));
}

/** An AI kind's description, for a game of format setup, as a node. */
export function aiAbout(id, setup, description) {
  const key = AI_ABOUT[id] ? id : `${id}|${setup === "cheat" ? "cheat" : "card"}`;
  return wordsNode(worded(AI_ABOUT, key, description));
}

/** A preconstructed deck's description as a node; description is decks.json's. */
export function deckAbout(id, description) {
  return wordsNode(worded(DECK_ABOUT, id, description));
}
