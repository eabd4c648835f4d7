// The deck panel of a card-game room: a preconstructed deck in one click
// (rooms/decks.json, the shipped decks), a pasted deck list read against
// the catalog's names with an error per bad line, or a deck built from the
// catalog with filters. The server is the validator: every deck goes as a
// submit_deck, and its lobby_error (a rule the deck breaks) is shown here.

import { h, keepFocus, replace } from "../js/dom.js";
import { en } from "./names.js";
import { tr } from "../js/lang.js";
import { roomsReason, saidNode } from "../online/reasons.js";
import { cardName as nameNode, rulesNode } from "./cardwords.js";
import { deckAbout } from "./offerwords.js";

// The colours by their letter, in the page's language.
const COLOURS = () => ({
  W: tr("White"),
  U: tr("Blue"),
  B: tr("Black"),
  R: tr("Red"),
  G: tr("Green"),
  C: tr("Colourless"),
});
const TYPES = ["creature", "instant", "sorcery", "enchantment", "artifact", "planeswalker", "land"];

let precons = null; // the shipped decks, once fetched
let loading = null;

/** loadPrecons fetches decks.json once and calls done when it is there. */
export function loadPrecons(done) {
  if (precons || loading) return;
  loading = fetch("decks.json")
    .then((r) => (r.ok ? r.json() : { decks: [] }))
    .catch(() => ({ decks: [] }))
    .then((d) => {
      precons = d.decks || [];
      done();
    });
}

/** needsDeck says whether format setup of the catalog takes a deck. */
export function needsDeck(ui, setup) {
  const f = (ui.state.catalog?.formats || []).find((x) => x.game_setup === setup);
  return Boolean(f && !f.deckless && f.min_deck_size > 0);
}

function formatOf(ui, setup) {
  return (ui.state.catalog?.formats || []).find((x) => x.game_setup === setup) || {};
}

/**
 * parseList reads "4 Card Name", "4x Card Name", "Card Name" and
 * "Commander: Card Name" lines against the catalog's names, as the
 * server's deck.ParseList does: {cards, commander, errors: [{line, text, reason}]}.
 */
export function parseList(text, catalogCards) {
  const byName = new Map(catalogCards.map((c) => [c.name.toLowerCase(), c.functional_id]));
  const out = { cards: [], commander: "", errors: [] };
  text.split("\n").forEach((raw, i) => {
    const line = raw.trim();
    if (!line || line.startsWith("#") || line.startsWith("//")) return;
    let n = 1;
    let name = line;
    let commander = false;
    const m = /^commander\s*:\s*(.*)$/i.exec(line);
    if (m) {
      commander = true;
      name = m[1];
    } else {
      const c = /^(\d+)x?\s+(.*)$/i.exec(line);
      if (c) {
        n = Number(c[1]);
        name = c[2];
      }
      if (c && (n < 1 || n > 99)) {
        out.errors.push({
          line: i + 1,
          text: line,
          reason: tr("the count {n} is not a number from 1 to 99", { n: c[1] }),
        });
        return;
      }
    }
    const id = byName.get(name.trim().toLowerCase());
    if (!id) {
      out.errors.push({ line: i + 1, text: line, reason: tr("no card is named “{name}”", { name: name.trim() }) });
      return;
    }
    if (commander) out.commander = id;
    for (let k = 0; k < n; k++) out.cards.push(id);
  });
  return out;
}

/** preconsFor returns the shipped decks a room of format setup can use. */
export function preconsFor(ui, setup) {
  const f = formatOf(ui, setup);
  return (precons || []).filter((d) => (f.requires_commander ? d.format === setup : !d.commander));
}

/** preconDeck resolves a shipped deck to a submit_deck's cards and commander. */
export function preconDeck(ui, d) {
  const l = parseList(d.cards.join("\n"), ui.state.catalog?.cards || []);
  const cmd = d.commander ? parseList(`1 ${d.commander}`, ui.state.catalog?.cards || []).cards[0] || "" : "";
  return { cards: l.cards, commander: cmd };
}

/** createDeckPanel returns the panel for the player's own seat and its render. */
export function createDeckPanel(ui) {
  const box = h("section", { class: "card deck-panel", id: "deck-panel", "aria-labelledby": "deck-h" });
  const st = {
    tab: "precon",
    text: "",
    errors: [],
    built: new Map(),
    commander: "",
    colour: "",
    type: "",
    cost: "",
    query: "",
  };

  function submit(cards, commander) {
    ui.state.deckError = null;
    ui.send({ type: "submit_deck", cards, ...(commander ? { commander } : {}) });
  }

  function render(room, mine) {
    const setup = room.config.game_setup;
    const f = formatOf(ui, setup);
    const err = ui.state.deckError;
    const tabs = [
      ["precon", tr("Preconstructed")],
      ["paste", tr("Paste a list")],
      ["build", tr("Build from the catalog")],
    ];
    keepFocus(() =>
      replace(
        box,
        h("h3", { id: "deck-h", text: tr("Your deck") }),
        mine.decked
          ? h(
              "p",
              { class: "hint", id: "deck-status" },
              tr("Deck accepted"),
              mine.commander ? [`, ${tr("commander")} `, en(cardName(mine.commander))] : "",
              mine.colors?.length ? ` (${mine.colors.join("")})` : "",
              ".",
            )
          : h("p", {
              class: "hint",
              id: "deck-status",
              text: `${tr("No deck yet: {n}+ cards", { n: f.min_deck_size })}${f.max_copies ? tr(", at most {n} of a card", { n: f.max_copies }) : ""}${f.requires_commander ? tr(", with a commander") : ""}.`,
            }),
        err
          ? h(
              "p",
              { class: "deck-error", id: "deck-error", role: "alert" },
              `${tr("Refused:")} `,
              saidNode(roomsReason(err, { min: f.min_deck_size, max: f.max_deck_size, copies: f.max_copies })),
              err.card ? [" (", en(cardName(err.card)), ")"] : "",
              " — ",
              h("code", { translate: "no", text: err.code }),
            )
          : null,
        h(
          "div",
          { class: "row", role: "group", "aria-label": tr("How to choose a deck") },
          tabs.map(([id, label]) =>
            h("button", {
              type: "button",
              class: st.tab === id ? "" : "secondary",
              "aria-pressed": String(st.tab === id),
              dataset: { key: `deck-tab-${id}` },
              text: label,
              onclick: () => {
                st.tab = id;
                render(room, mine);
              },
            }),
          ),
        ),
        st.tab === "precon" ? preconList(setup) : st.tab === "paste" ? pasteForm(room, mine) : builder(room, mine, f),
      ),
    );
  }

  function cardName(id) {
    return (ui.state.catalog?.cards || []).find((c) => c.functional_id === id)?.name || id;
  }

  function preconList(setup) {
    if (!precons) return h("p", { class: "hint", text: tr("Loading the decks…") });
    const list = preconsFor(ui, setup);
    if (!list.length) return h("p", { class: "hint", text: tr("No preconstructed deck fits this format.") });
    return h(
      "ul",
      { class: "precons" },
      list.map((d) =>
        h(
          "li",
          {},
          h(
            "button",
            {
              type: "button",
              dataset: { key: `precon-${d.id}`, precon: d.id },
              onclick: () => {
                const x = preconDeck(ui, d);
                submit(x.cards, x.commander);
              },
            },
            tr("Use"),
            " ",
            nameNode(d.name),
          ),
          " ",
          deckAbout(d.id, d.description),
        ),
      ),
    );
  }

  function pasteForm() {
    return h(
      "form",
      {
        class: "paste-form",
        onsubmit: (e) => {
          e.preventDefault();
          const l = parseList(st.text, ui.state.catalog?.cards || []);
          st.errors = l.errors;
          if (!l.errors.length) submit(l.cards, l.commander);
          render(ui.state.lobby.room, ui.mySeat());
        },
      },
      h("label", {
        for: "deck-text",
        text: tr("One card per line: “4 Card Name”, and “Commander: Name” for a commander."),
      }),
      h(
        "textarea",
        {
          id: "deck-text",
          rows: 10,
          translate: "no",
          dataset: { key: "deck-text" },
          "aria-describedby": st.errors.length ? "deck-lines" : false,
          oninput: (e) => {
            st.text = e.target.value;
          },
        },
        st.text,
      ),
      st.errors.length
        ? h(
            "ul",
            { class: "deck-error", id: "deck-lines", role: "alert" },
            st.errors.map((x) =>
              h("li", { text: tr("Line {n}: “{text}”: {reason}", { n: x.line, text: x.text, reason: x.reason }) }),
            ),
          )
        : null,
      h("button", { type: "submit", dataset: { key: "deck-submit-list" }, text: tr("Submit this list") }),
    );
  }

  function builder(room, mine, f) {
    const cards = (ui.state.catalog?.cards || []).filter(
      (c) =>
        (!st.colour ||
          (st.colour === "C" ? !(c.color_identity || []).length : (c.color_identity || []).includes(st.colour))) &&
        (!st.type || (c.card_types || []).includes(st.type)) &&
        (!st.cost || manaValue(c.mana_cost) === Number(st.cost) || (st.cost === "6" && manaValue(c.mana_cost) >= 6)) &&
        (!st.query || c.name.toLowerCase().includes(st.query.toLowerCase())),
    );
    const total = [...st.built.values()].reduce((a, b) => a + b, 0);
    const set = (id, n) => {
      if (n <= 0) st.built.delete(id);
      else st.built.set(id, n);
      clearTimeout(st.timer);
      // Live validation: the server checks the deck as it grows.
      st.timer = setTimeout(() => {
        if (st.built.size) submit(deckCards(), st.commander);
      }, 600);
      render(room, mine);
    };
    const sel = (id, label, value, options, onchange) =>
      h(
        "label",
        {},
        `${label} `,
        h(
          "select",
          {
            id,
            dataset: { key: id },
            onchange: (e) => {
              onchange(e.target.value);
              render(room, mine);
            },
          },
          options.map(([v, t]) => h("option", { value: v, selected: v === value, text: t })),
        ),
      );
    return h(
      "div",
      { class: "builder" },
      h(
        "div",
        { class: "row filters" },
        sel("f-colour", tr("Colour"), st.colour, [["", tr("Any")], ...Object.entries(COLOURS())], (x) => {
          st.colour = x;
        }),
        sel("f-type", tr("Type"), st.type, [["", tr("Any")], ...TYPES.map((t) => [t, typeWord(t)])], (x) => {
          st.type = x;
        }),
        sel(
          "f-cost",
          tr("Cost"),
          st.cost,
          [["", tr("Any")], ...["0", "1", "2", "3", "4", "5"].map((x) => [x, x]), ["6", "6+"]],
          (x) => {
            st.cost = x;
          },
        ),
        h(
          "label",
          {},
          `${tr("Name")} `,
          h("input", {
            type: "search",
            id: "f-name",
            dataset: { key: "f-name" },
            value: st.query,
            oninput: (e) => {
              st.query = e.target.value;
              render(room, mine);
            },
          }),
        ),
      ),
      h("p", {
        class: "hint",
        "aria-live": "polite",
        text: tr("{shown} cards shown · your deck: {n} cards ({need} needed)", {
          shown: cards.length,
          n: total,
          need: f.min_deck_size,
        }),
      }),
      // A card's buttons are named by a word of the page's and the card's
      // name (aria-labelledby), so that the name keeps its own language.
      h("span", { id: "cat-add", hidden: true, text: tr("Add") }),
      h("span", { id: "cat-rm", hidden: true, text: tr("Remove") }),
      h(
        "ul",
        { class: "catalog" },
        cards.map((c) => {
          const n = st.built.get(c.functional_id) || 0;
          return h(
            "li",
            { dataset: { card: c.functional_id } },
            nameNode(c.name, { class: "ct-name", id: `cat-${c.functional_id}` }),
            " ",
            h("span", { class: "hint" }, `${c.mana_cost || ""} `, rulesNode("span", {}, c.type_line)),
            h("span", { class: "count", text: ` ×${n} ` }),
            h("button", {
              type: "button",
              class: "quiet small",
              dataset: { key: `add-${c.functional_id}` },
              "aria-labelledby": `cat-add cat-${c.functional_id}`,
              text: "+",
              onclick: () => set(c.functional_id, n + 1),
            }),
            h("button", {
              type: "button",
              class: "quiet small",
              dataset: { key: `rm-${c.functional_id}` },
              "aria-labelledby": `cat-rm cat-${c.functional_id}`,
              disabled: !n,
              text: "−",
              onclick: () => set(c.functional_id, n - 1),
            }),
            f.requires_commander
              ? h(
                  "label",
                  { class: "ct-choice" },
                  h("input", {
                    type: "radio",
                    name: "commander",
                    checked: st.commander === c.functional_id,
                    dataset: { key: `cmd-${c.functional_id}` },
                    onchange: () => {
                      st.commander = c.functional_id;
                      if (!n) set(c.functional_id, 1);
                      else set(c.functional_id, n);
                    },
                  }),
                  ` ${tr("commander")}`,
                )
              : null,
          );
        }),
      ),
    );
  }

  function deckCards() {
    return [...st.built.entries()].flatMap(([id, n]) => Array(n).fill(id));
  }

  return { box, render };
}

// typeWord is a card type in the page's language.
function typeWord(type) {
  return (
    {
      creature: tr("creature"),
      instant: tr("instant"),
      sorcery: tr("sorcery"),
      enchantment: tr("enchantment"),
      artifact: tr("artifact"),
      planeswalker: tr("planeswalker"),
      land: tr("land"),
    }[type] || type
  );
}

/** manaValue is a cost's total ("{2}{G}" → 3). */
export function manaValue(cost) {
  let n = 0;
  for (const m of (cost || "").matchAll(/\{([^}]*)\}/g)) n += /^\d+$/.test(m[1]) ? Number(m[1]) : m[1] === "X" ? 0 : 1;
  return n;
}
