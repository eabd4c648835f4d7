// The card game's words in the page's language. The server sends its
// display text in English (SAGE's action labels, prompts, option labels,
// rules text, type lines and stack descriptions: the wire and its
// fixtures stay English). The page words actions, prompts and options
// itself, from the structured fields each carries (type, subject, slot,
// kind, count, pip, option id), and shows a card's rules text, type line
// and abilities from the phrasebook the site build publishes
// (rooms/cardtext.<lang>.json: the same generator's text in that
// language, by the English text, engine/cards/card Phrasebook). Card
// names are proper nouns and stay as printed, marked English; a token's
// name is translated like its type. What the page cannot word stays
// English, marked lang="en" (docs/card-game.md, "The table in French").

import { h } from "../js/dom.js";
import { pageLocale, tr } from "../js/lang.js";
import { says } from "./names.js";

// books holds each language's phrasebook once fetched ({} while
// loading); waiting, the calls to make once it is there.
const books = {};
const waiting = {};

/**
 * Fetches the phrasebook of the page's language once; done (a redraw) is
 * called when it arrives, if it was not there yet.
 */
export function loadCardText(done) {
  const lang = pageLocale();
  if (lang === "en") return;
  if (waiting[lang]) {
    waiting[lang].push(done);
    return;
  }
  if (books[lang]) return;
  books[lang] = {};
  waiting[lang] = [done];
  fetch(`cardtext.${lang}.json`)
    .then((r) => (r.ok ? r.json() : {}))
    .then((book) => {
      books[lang] = book;
      const calls = waiting[lang];
      waiting[lang] = null;
      for (const f of calls) f();
    })
    .catch(() => {});
}

/**
 * The server's English text about cards (rules text, a type line, an
 * ability, a mode, an emblem) in the page's language: {text, lang}, lang
 * "en" when the phrasebook has no such text (the English stays).
 */
export function said(en) {
  const lang = pageLocale();
  if (lang === "en" || !en) return { text: en || "", lang: "" };
  const book = books[lang] || {};
  if (Object.hasOwn(book, en)) return { text: book[en], lang: "" };
  const lines = String(en).split("\n");
  if (lines.length > 1 && lines.every((l) => Object.hasOwn(book, l))) {
    return { text: lines.map((l) => book[l]).join("\n"), lang: "" };
  }
  return { text: en, lang: "en" };
}

/** An element tag with attrs showing the server's text en in the page's language (said). */
export function rulesNode(tag, attrs, en) {
  const s = said(en);
  return h(tag, { ...attrs, lang: s.lang || false, text: s.text });
}

/**
 * A card's name: printed, a proper noun, marked English and not for
 * translation; a token's name (a Sapling) is its type's word, translated.
 */
export function cardName(name, attrs = {}) {
  const s = said(name);
  if (!s.lang && s.text !== name) return h("span", { ...attrs, text: s.text });
  return h("span", { ...attrs, lang: "en", translate: "no", text: name });
}

// The keywords by their id, and the counters by their kind.
const KEYWORDS = {
  flying: () => tr("flying"),
  reach: () => tr("reach"),
  vigilance: () => tr("vigilance"),
  haste: () => tr("haste"),
  trample: () => tr("trample"),
  first_strike: () => tr("first strike"),
  deathtouch: () => tr("deathtouch"),
  lifelink: () => tr("lifelink"),
  menace: () => tr("menace"),
  defender: () => tr("defender"),
  unblockable: () => tr("can't be blocked"),
  flash: () => tr("flash"),
  venom: () => tr("venom"),
};

/** A keyword, by its id ("first_strike") or display word ("First strike"), in the page's language. */
export function keywordWord(k) {
  const id = String(k).toLowerCase().replace(/ /g, "_");
  return KEYWORDS[id] ? KEYWORDS[id]() : String(k);
}

const COUNTERS = { poison: () => tr("poison"), loyalty: () => tr("loyalty") };

/** A counter's kind ("+1/+1", "poison") in the page's language. */
export function counterWord(kind) {
  return COUNTERS[kind] ? COUNTERS[kind]() : String(kind);
}

// TARGETS words a target slot's prompt by its target kind (the English
// prompt is "Choose target <kind>" or "Choose any target").
const TARGETS = {
  any: () => tr("Choose any target"),
  player: () => tr("Choose target player"),
  opponent: () => tr("Choose target opponent"),
  creature: () => tr("Choose target creature"),
  creature_you_control: () => tr("Choose target creature you control"),
  creature_opponent_controls: () => tr("Choose target creature an opponent controls"),
  tapped_creature: () => tr("Choose target tapped creature"),
  attacking_creature: () => tr("Choose target attacking creature"),
  flying_creature: () => tr("Choose target flying creature"),
  planeswalker: () => tr("Choose target planeswalker"),
  permanent: () => tr("Choose target permanent"),
  nonland_permanent: () => tr("Choose target nonland permanent"),
  artifact_or_enchantment: () => tr("Choose target artifact or enchantment"),
  land: () => tr("Choose target land"),
  nonbasic_land: () => tr("Choose target nonbasic land"),
  spell: () => tr("Choose target spell"),
  creature_spell: () => tr("Choose target creature spell"),
  noncreature_spell: () => tr("Choose target noncreature spell"),
  creature_card_in_your_graveyard: () => tr("Choose target creature card in your graveyard"),
  card_in_a_graveyard: () => tr("Choose target card in a graveyard"),
};

// SACRIFICES words a cast's sacrifice cost by the kind sacrificed.
const SACRIFICES = {
  creature: () => tr("Sacrifice a creature"),
  artifact: () => tr("Sacrifice an artifact"),
  land: () => tr("Sacrifice a land"),
  permanent: () => tr("Sacrifice a permanent"),
  nonland_permanent: () => tr("Sacrifice a nonland permanent"),
  artifact_or_enchantment: () => tr("Sacrifice an artifact or enchantment"),
};

const COLOURS = {
  W: () => tr("White"),
  U: () => tr("Blue"),
  B: () => tr("Black"),
  R: () => tr("Red"),
  G: () => tr("Green"),
};

/** A colour by its letter ("U") in the page's language; another letter as it is. */
export function colourWord(c) {
  return COLOURS[c] ? COLOURS[c]() : String(c);
}

const en = (text) => h("span", { lang: "en", text });

// after returns what follows prefix in text, or "".
const after = (text, prefix) => (String(text).startsWith(prefix) ? String(text).slice(prefix.length) : "");

/**
 * An action's label in the page's language, as strings and nodes, from
 * its type and subject; name(id) is the name of a card or permanent the
 * view shows.
 */
export function actionLabel(a, name) {
  const subject = name(a.subject?.[0]) || "";
  const card = (n) => cardName(n || subject);
  switch (a.type) {
    case "pass_priority":
      return [a.label === "Resolve" ? tr("Resolve") : tr("Pass")];
    case "play_land":
      return says("Play {card}", { card: card(after(a.label, "Play ")) });
    case "cast_spell":
      return says("Cast {card}", { card: card(after(a.label, "Cast ")) });
    case "activate_ability": {
      const source = subject && a.label.startsWith(`${subject}: `) ? subject : a.label.split(": ")[0];
      const tail = a.label.slice(source.length + 2);
      return a.mana_ability && tail.startsWith("add ")
        ? says("{card}: add {mana}", { card: card(source), mana: tail.slice(4) })
        : says("{card}: {cost}", { card: card(source), cost: tail });
    }
    case "choose_targets":
      return says("Choose targets for {card}", { card: card(after(a.label, "Choose targets for ")) });
    case "declare_attackers":
      return [tr("Declare attackers")];
    case "declare_blockers":
      return [tr("Declare blockers")];
    case "order_combat_damage":
      return [tr("Order blockers for damage")];
    case "player_choice":
      return [tr("Choose")];
    case "concede":
      return [tr("Concede")];
    case "mulligan_decision":
      return [tr("Keep or mulligan")];
    case "discard":
      return [tr("Discard to hand size")];
  }
  return [en(a.label)];
}

/** actionLabel as plain text (for a button's words beside a cost). */
export function actionText(a, name) {
  return actionLabel(a, name)
    .map((x) => (typeof x === "string" ? x : x.textContent))
    .join("");
}

const cards = (n) => tr("{n, plural, one {# card} other {# cards}}", { n });

/**
 * A requirement's or prompt's question in the page's language, as strings
 * and nodes, from its slot, kind, count, pip and zone; name(id) as for
 * actionLabel.
 */
export function promptText(p, name) {
  const slot = String(p.slot || "");
  const text = String(p.prompt || "");
  const n = p.count || 1;
  if (/^(m\d+)?t\d+$/.test(slot)) {
    const kind = text === "Choose any target" ? "any" : after(text, "Choose target ").replace(/ /g, "_");
    if (TARGETS[kind]) return [TARGETS[kind]()];
  }
  if (/^mode\d*$/.test(slot)) {
    return [text === "Choose one" ? tr("Choose one") : tr("Choose a mode (each mode at most once)")];
  }
  if (slot.startsWith("pay")) return says("Pay {pip}", { pip: p.pip || after(text, "Pay ") });
  const perm = slot.split(":")[1];
  switch (slot.split(":")[0]) {
    case "x":
      return [tr("Choose a value for X")];
    case "cost_discard":
    case "discard":
      return [tr("Discard {cards}", { cards: cards(n) })];
    case "cost_sacrifice": {
      const kind = after(text, "Sacrifice a ").replace(/^n /, "").replace(/ /g, "_");
      if (SACRIFICES[kind]) return [SACRIFICES[kind]()];
      break;
    }
    case "cost_exile":
      return [tr("Exile a card from your graveyard")];
    case "attackers":
      return [tr("Choose attackers")];
    case "defender":
      return [tr("Choose what it attacks")];
    case "block":
      return [
        ...says("Choose blockers for {card}", { card: cardName(name(perm) || perm) }),
        text.includes("(menace") ? ` ${tr("(menace: two or more)")}` : "",
      ];
    case "order":
      return says("Order the blockers of {card}", { card: cardName(name(perm) || perm) });
    case "decision":
      return [tr("Keep this hand?")];
    case "bottom":
      return [tr("Put {cards} on the bottom of your library", { cards: cards(n) })];
    case "choice":
      return choiceText(p, text, n);
  }
  return [en(text)];
}

// choiceText words a mid-resolution choice (engine/cards/rules
// choiceAction): what the prompt's kind and zone say, and which of the
// library's questions it is.
function choiceText(p, text, n) {
  if (p.kind === "order") return [tr("Choose the order these go on the bottom of your library, deepest first")];
  if (p.zone === "hand") return [tr("Discard {cards}", { cards: cards(n) })];
  if (p.zone === "battlefield") {
    return [tr("Sacrifice {n, plural, one {# permanent} other {# permanents}}", { n })];
  }
  if (p.zone === "library") {
    if (text.startsWith("Search")) return [tr("Search your library")];
    if (text.startsWith("Choose up to")) return [tr("Choose up to {cards} to put into your hand", { cards: cards(n) })];
    return [tr("Choose the cards to put on the bottom of your library")];
  }
  const enters = / as (.+) enters the battlefield$/.exec(text);
  if (text.startsWith("Choose a color")) {
    return enters ? says("Choose a color as {card} enters", { card: cardName(enters[1]) }) : [tr("Choose a color")];
  }
  if (text.startsWith("Choose a card name")) {
    return enters
      ? says("Choose a card name as {card} enters", { card: cardName(enters[1]) })
      : [tr("Choose a card name")];
  }
  if (text.startsWith("Move your commander")) return [tr("Move your commander to the command zone?")];
  const why = /^Do you want to\? \((.*)\)$/.exec(text);
  if (why) return says("Do you want to? ({card})", { card: cardName(why[1]) });
  return [en(text)];
}

/** An option's label in the page's language, as strings and nodes, by its prompt's slot and its id. */
export function optionLabel(o, p) {
  const slot = String(p.slot || "");
  if (slot === "decision") {
    if (o.id === "mulligan") return [tr("Mulligan")];
    const m = /(\d+) cards? on the bottom/.exec(o.label) || /putting an? card/.exec(o.label);
    if (o.id === "keep")
      return [m ? tr("Keep, putting {cards} on the bottom", { cards: cards(Number(m[1]) || 1) }) : tr("Keep")];
  }
  if (/^mode\d*$/.test(slot)) return [rulesNode("span", {}, o.label)];
  if (slot === "choice") {
    if (o.id === "decline") return [tr("Decline")];
    if (o.id === "accept") {
      if (o.label === "Move it") return [tr("Move it")];
      const pay = after(o.label, "Pay ");
      return [pay ? tr("Pay {cost}", { cost: pay }) : tr("Accept")];
    }
    if (COLOURS[o.id] && !o.id.includes("_")) return [COLOURS[o.id]()];
    return [cardName(o.label)];
  }
  return [en(o.label)];
}

/** A mana source's way of paying ("Add {G}") in the page's language. */
export function manaWay(label) {
  const mana = after(label, "Add ");
  return mana ? tr("Add {mana}", { mana }) : label;
}
