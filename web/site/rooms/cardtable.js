// The card game's table: every member of a card-game GameView or
// SpectatorView (normalized by protocol.js), and the acting panel. The page
// decides no legality: it lists the view's valid_actions, lets the player
// answer an action's requirements and prompts in one panel (or by clicking
// permanents on the board, for attackers, blockers and targets), and sends
// one choose_action. Everything is rebuilt from the latest view; the only
// state kept is the action being answered and the answers so far.

import { announce, h, keepFocus } from "../js/dom.js";
import { morphChildren, createMemo, setData } from "./morph.js";
import { normalize, word as wordEn, WORDS } from "./protocol.js";
import { tr } from "../js/lang.js";
import { resultReason, saidNode } from "../online/reasons.js";
import { says, nameNode } from "./names.js";
import {
  actionLabel,
  cardName,
  colourWord,
  counterWord,
  keywordWord,
  loadCardText,
  manaWay,
  optionLabel,
  promptText,
  said,
  rulesNode,
} from "./cardwords.js";

// word is protocol.js's word for a classifying value, in the page's language.
const word = (cls, value) => tr(wordEn(cls, value));
// en marks text the server sends that the page cannot word (cardwords.js) as English.
const en = (text) => h("span", { lang: "en", text });

const PHASES = Object.keys(WORDS.phase);

// A player's status, a sentence the server sends in English
// (engine/cards/rules statuses), in the page's words; a sentence the page
// does not know stays the server's, marked English.
const STATUSES = [
  [/^Deciding on a mulligan$/, () => tr("Deciding on a mulligan")],
  [
    /^Deciding on a mulligan, after (\d+) mulligans?$/,
    (n) => tr("Deciding on a mulligan, after {n, plural, one {# mulligan} other {# mulligans}}", { n }),
  ],
  [/^Kept seven cards$/, () => tr("Kept seven cards")],
  [
    /^Kept, with (\d+) cards? to the bottom$/,
    (n) => tr("Kept, with {n, plural, one {# card} other {# cards}} to the bottom", { n }),
  ],
  [/^Played a land this turn$/, () => tr("Played a land this turn")],
  [/^No maximum hand size$/, () => tr("No maximum hand size")],
  [/^Lost: no life left$/, () => tr("Lost: no life left")],
  [/^Lost: drew from an empty library$/, () => tr("Lost: drew from an empty library")],
  [/^Lost: ten poison counters$/, () => tr("Lost: ten poison counters")],
  [/^Lost: 21 damage from one commander$/, () => tr("Lost: 21 damage from one commander")],
  [/^Conceded$/, () => tr("Conceded")],
];

// The log's events the live region also says when they are new.
const SAID_EVENTS = new Set([
  "spell_cast",
  "spell_countered",
  "damage_dealt",
  "life_changed",
  "permanent_died",
  "player_eliminated",
  "undone",
  "timed_out",
]);

function statusNode(s) {
  for (const [re, say] of STATUSES) {
    const m = re.exec(s);
    if (m) return say(Number(m[1]));
  }
  return en(s);
}

/** Whether view v is the card game's (it has a battlefield). */
export function isCardView(v) {
  return Array.isArray(v?.battlefield);
}

export function createCardTable(root, ui) {
  let pick = null; // {action, answers: {slot: [ids]}} while an action is answered
  let focusOn = ""; // the card or permanent whose actions are shown
  let confirming = false; // concede asked once
  let lastKey = "";
  let saidUpTo = -1; // the log's last sequence the live region has seen (-1: no view yet)
  let clockTimer = 0;
  let moreOpen = false; // the list of every action is open (built only then)
  let memo = createMemo();
  let v = null;
  // The rules text in the page's language comes once its phrasebook is
  // there; the parts built before it are built again.
  loadCardText(() => {
    memo = createMemo();
    if (v) render(ui.state.game);
  });

  const spectator = () => ui.state.spectator;

  function playerName(pid) {
    const seat = (v.seats || []).find((s) => s.player_id === pid);
    const named = v.player_names?.[pid] || seat?.name;
    let n = seat?.ai
      ? ui.aiSeat(seat.ai, named).text
      : named || (seat ? tr("Player {n}", { n: seat.seat + 1 }) : String(pid || "?"));
    if (!spectator() && pid === v.you) n = tr("{name} (you)", { name: n });
    return n;
  }

  // who is playerName as a node, not translated (an AI's, which the
  // server names in English, marked so).
  const who = (pid) => {
    const seat = (v.seats || []).find((s) => s.player_id === pid);
    return nameNode(
      playerName(pid),
      Boolean(seat?.ai) && ui.aiSeat(seat.ai, v.player_names?.[pid] || seat.name).lang === "en",
    );
  };

  // thing names what an id stands for: a seat's player, or a card.
  const thing = (id, nm) => ((v.seats || []).some((s) => s.player_id === id) ? who(id) : cardName(nm.get(id) || id));

  // names maps every id the view shows to what a player reads.
  function names() {
    const m = new Map();
    const put = (c) => {
      if (c?.id) m.set(c.id, c.name);
    };
    (v.my_hand || []).forEach(put);
    (v.revealed || []).forEach(put);
    for (const p of v.battlefield) m.set(p.id, p.card.name);
    for (const s of v.stack) m.set(s.id, s.card?.name || s.description);
    for (const z of [...v.graveyards, ...v.exile, ...v.command]) z.cards.forEach(put);
    for (const s of v.seats || []) if (s.player_id) m.set(s.player_id, playerName(s.player_id));
    return m;
  }

  function render(view) {
    v = normalize(view, spectator() ? "spectator" : "game");
    setData(root, "mode", spectator() ? "spectator" : "player");
    setData(root, "result", v.result ? "over" : "");
    v.valid_actions ||= [];
    v.mana_pool ||= [];
    if (pick && !v.valid_actions.some((a) => a.id === pick.action.id && a.token === pick.action.token)) pick = null;
    const nm = names();
    // The table is built afresh and morphed into the page: what did not
    // change stays as it was (morph.js), and memo skips building parts
    // whose inputs are unchanged.
    keepFocus(() =>
      morphChildren(
        root,
        h(
          "div",
          {},
          head(),
          v.result ? result() : null,
          phaseTrack(),
          passedFor(),
          players(),
          h(
            "div",
            { class: "ct-grid" },
            h(
              "div",
              { class: "ct-main" },
              stack(nm),
              battlefield(nm),
              spectator() ? null : hand(),
              spectator() ? watching() : actions(nm),
            ),
            h("div", { class: "ct-side" }, zones(), commander(), emblems(), logBox()),
          ),
        ),
      ),
    );
    memo.flip();
    patchLog(nm);
    tickClock();
    say(nm);
  }

  // say tells the live region what changed: the log's new spells, damage,
  // deaths and take-backs (as the log words them; a first view says none
  // of the history), then the turn and step, the top of the stack and who
  // has priority when they changed.
  function say(nm) {
    const top = v.stack[v.stack.length - 1];
    const mine = v.valid_actions.some((a) => a.type !== "concede");
    const key = `${v.turn}|${v.phase}|${v.priority_player}|${top?.id || ""}|${mine}|${v.result ? "over" : ""}`;
    const last = v.log.length ? v.log[v.log.length - 1].sequence : 0;
    const news =
      saidUpTo < 0
        ? []
        : v.log
            .filter((e) => e.sequence > saidUpTo && SAID_EVENTS.has(e.event?.type))
            .map((e) => h("p", {}, ...logLine(e.event, nm)).textContent);
    saidUpTo = last;
    const changed = key !== lastKey;
    if (!changed && !news.length) return;
    lastKey = key;
    const parts = news;
    if (v.result) {
      parts.push(h("p", {}, resultText()).textContent);
    } else if (changed) {
      parts.push(
        tr("Turn {n}, {phase}, turn of {name}.", {
          n: v.turn,
          phase: word("phase", v.phase),
          name: playerName(v.active_player),
        }),
      );
      if (top)
        parts.push(
          tr("On the stack: {what}.", {
            what: `${top.card?.name || said(top.description).text}${top.targets.length ? ` → ${top.targets.map((t) => nm.get(t.id || t.player) || t.id || t.player).join(", ")}` : ""}`,
          }),
        );
      if (mine) parts.push(tr("You may act."));
      else if (v.priority_player) parts.push(tr("{name} has priority.", { name: playerName(v.priority_player) }));
    }
    announce(parts.join(" "));
  }

  function head() {
    return h(
      "header",
      { class: "table-head" },
      h("h1", ui.state.roomName ? { translate: "no", text: ui.state.roomName } : { text: tr("Card game") }),
      h(
        "p",
        { class: "facts" },
        spectator() ? h("span", { class: "badge", text: tr("Watching") }) : null,
        " ",
        v.format?.id ? ui.formatNode(v.format.id) : null,
        ` ${v.format?.id ? "· " : ""}${tr("Turn {n}", { n: v.turn })} · ${word("phase", v.phase)} · ${tr("room")} `,
        h("code", { translate: "no", text: v.room_id || "" }),
      ),
      clock(),
    );
  }

  // The decision clock: the element carries its end (data-end, on the
  // page's clock) and one timer counts down whichever #ct-clock is shown.
  function clock() {
    if (v.action_deadline == null || v.result || spectator()) return null;
    const end = Math.round(performance.now() + Number(v.action_deadline) * 1000);
    return h("p", {
      class: "clock",
      id: "ct-clock",
      role: "timer",
      "aria-live": "off",
      dataset: { end },
      text: tr("{n} s left to decide", { n: Number(v.action_deadline) }),
    });
  }

  function tickClock() {
    clearTimeout(clockTimer);
    const out = root.querySelector("#ct-clock");
    if (!out) return;
    const left = Math.max(0, Math.ceil((Number(out.dataset.end) - performance.now()) / 1000));
    out.textContent = tr("{n} s left to decide", { n: left });
    out.classList.toggle("low", left <= 10);
    if (left > 0) clockTimer = setTimeout(tickClock, 500);
  }

  // resultText says how the game ended, as text and nodes (the reason in
  // the page's words, online/reasons.js).
  function resultText() {
    const r = v.result;
    const why = h("span", {}, saidNode(resultReason(r.reason)));
    if (!r.winner) return says("The game ended without a winner ({reason}).", { reason: why });
    if (!spectator() && r.winner === v.you) return says("You won ({reason})!", { reason: why });
    return says("{name} won ({reason}).", { name: playerName(r.winner), reason: why });
  }

  function result() {
    const won = !spectator() && v.result.winner === v.you;
    return h(
      "section",
      { class: `card result${won ? " won" : ""}`, id: "ct-result", "aria-labelledby": "ct-result-h" },
      h("h2", { id: "ct-result-h", text: won ? tr("You won!") : tr("Game over") }),
      h("p", {}, resultText()),
      v.result.losers.length
        ? h("p", { text: tr("Lost: {names}.", { names: v.result.losers.map(playerName).join(", ") }) })
        : null,
      h("button", {
        type: "button",
        id: "ct-back-lobby",
        dataset: { key: "ct-back-lobby" },
        text: spectator() ? tr("Back to the lobby") : tr("Leave the table"),
        onclick: () => (spectator() ? ui.stopWatching() : ui.send({ type: "leave" })),
      }),
    );
  }

  // The step track: a step changes only when it becomes or stops being
  // the current one.
  function phaseTrack() {
    return h(
      "ol",
      { class: "ct-phases", "aria-label": tr("Steps of the turn") },
      PHASES.map((p) => {
        const on = p === v.phase;
        return memo(`phase|${p}|${on}`, () =>
          h(
            "li",
            { class: on ? "on" : "", "aria-current": on ? "step" : false, dataset: { key: `phase-${p}` } },
            on ? h("span", { "aria-hidden": "true", text: "▶ " }) : null,
            word("phase", p),
          ),
        );
      }),
    );
  }

  // The steps the stops passed for you on the way to this view.
  function passedFor() {
    if (spectator() || !v.auto_passed_steps.length) return null;
    return h("p", {
      class: "hint",
      id: "ct-passed",
      text: tr("Passed for you: {steps}.", {
        steps: v.auto_passed_steps
          .map((s) => tr("{phase} (turn {n})", { phase: word("phase", s.phase), n: s.turn }))
          .join(", "),
      }),
    });
  }

  function counters(list) {
    return list.length
      ? h("span", { class: "ct-counters", text: list.map((c) => `${c.count}× ${counterWord(c.kind)}`).join(", ") })
      : null;
  }

  function players() {
    return memo(
      JSON.stringify([
        "players",
        v.me,
        v.opponents,
        v.players,
        v.seats,
        v.player_names,
        v.active_player,
        v.priority_player,
        v.mana_pool,
        (v.my_hand || []).length,
        v.you,
        spectator(),
        ui.state.catalog?.ai_opponents,
      ]),
      () => playersBuilt(),
    );
  }

  function playersBuilt() {
    const rows = [];
    if (v.me && !spectator()) rows.push({ player_id: v.you, ...v.me, hand_size: v.my_hand.length, me: true });
    for (const o of spectator() ? v.players : v.opponents) rows.push(o);
    return h(
      "section",
      { class: "card", "aria-labelledby": "ct-players-h" },
      h("h2", { id: "ct-players-h", text: tr("Players") }),
      h(
        "ul",
        { class: "ct-players" },
        rows.map((p) => {
          const seat = (v.seats || []).find((s) => s.player_id === p.player_id);
          const active = p.player_id === v.active_player;
          return h(
            "li",
            {
              class: `ct-player${active ? " active" : ""}${p.eliminated ? " out" : ""}`,
              dataset: { player: p.player_id },
            },
            h("strong", {}, who(p.player_id)),
            active ? h("span", { class: "badge", text: tr("active") }) : null,
            p.player_id === v.priority_player ? h("span", { class: "badge", text: tr("priority") }) : null,
            seat?.ai ? h("span", { class: "badge" }, `${tr("AI")}: `, ui.aiNode(seat.ai)) : null,
            seat?.connected === false ? h("span", { class: "badge warn", text: tr("disconnected") }) : null,
            p.eliminated ? h("span", { class: "badge warn", text: tr("eliminated") }) : null,
            h("span", { class: "ct-life", text: tr("Life {n}", { n: p.life }) }),
            h("span", {
              text: `${tr("Hand {n}", { n: p.hand_size })}${p.me ? maxHand(p.maximum_hand_size) : ""} · ${tr("Library {n}", { n: p.library_size })}${p.graveyard_size != null ? ` · ${tr("Graveyard {n}", { n: p.graveyard_size })}` : ""}`,
            }),
            counters(p.counters || []),
            p.statuses?.length
              ? h(
                  "span",
                  { class: "ct-statuses" },
                  p.statuses.flatMap((s, i) => [i ? " · " : "", statusNode(s)]),
                )
              : null,
            p.me && v.mana_pool.length
              ? h("span", { class: "ct-pool", text: tr("Mana pool: {mana}", { mana: v.mana_pool.join(" ") }) })
              : null,
          );
        }),
      ),
    );
  }

  // maxHand words the seat's maximum hand size: {cards: n} or "unlimited".
  function maxHand(m) {
    if (m === "unlimited") return ` ${tr("(no maximum)")}`;
    return m?.cards != null ? ` ${tr("(maximum {n})", { n: m.cards })}` : "";
  }

  // The slot the board answers while an action is picked: its first
  // requirement, or the one whose candidates include id.
  function boardSlot(id) {
    if (!pick) return null;
    return (pick.action.requirements || []).find((r) => r.candidates.includes(id)) || null;
  }

  function toggle(slot, id, max) {
    const cur = pick.answers[slot] || [];
    pick.answers[slot] = cur.includes(id) ? cur.filter((x) => x !== id) : max <= 1 ? [id] : [...cur, id].slice(-max);
    render(ui.state.game);
  }

  function actionsOf(id) {
    return v.valid_actions.filter((a) => (a.subject || []).includes(id));
  }

  function permanent(p, nm) {
    const slot = boardSlot(p.id);
    const chosen = Boolean(slot && (pick.answers[slot.slot] || []).includes(p.id));
    const refs = [p.attacking_planeswalker, p.attacking_player, ...p.blocking, p.attached_to, p.owner].map(
      (id) => nm.get(id) || "",
    );
    const key = JSON.stringify([
      p,
      slot,
      chosen,
      refs,
      actionsOf(p.id).length > 0,
      spectator(),
      p.owner && playerName(p.owner),
    ]);
    return memo(key, () => buildPermanent(p, nm, slot, chosen));
  }

  function buildPermanent(p, nm, slot, chosen) {
    const c = p.card;
    const facts = [
      c.power != null && c.toughness != null ? `${c.power}/${c.toughness}` : "",
      c.loyalty ? tr("loyalty {n}", { n: c.loyalty }) : "",
      p.tapped ? tr("tapped") : "",
      p.summoning_sick ? tr("summoning sick") : "",
      p.attacking
        ? tr("attacking {what}", { what: nm.get(p.attacking_planeswalker) || nm.get(p.attacking_player) || "" }).trim()
        : "",
      p.blocking.length ? tr("blocking {what}", { what: p.blocking.map((b) => nm.get(b) || b).join(", ") }) : "",
      p.owner && p.owner !== p.controller ? tr("owned by {name}", { name: playerName(p.owner) }) : "",
      p.damage ? tr("{n} damage", { n: p.damage }) : "",
      p.attached_to ? tr("attached to {what}", { what: nm.get(p.attached_to) || p.attached_to }) : "",
      p.is_commander ? tr("commander") : "",
      p.skips_next_untap ? tr("skips next untap") : "",
      p.chosen_color ? tr("colour {c}", { c: colourWord(p.chosen_color) }) : "",
      p.named_card ? h("span", {}, ...says("named {name}", { name: cardName(p.named_card) })) : "",
      c.token ? tr("token") : "",
    ].filter(Boolean);
    const kw = [
      ...(c.keywords || []).map(keywordWord),
      ...p.granted_keywords.map((k) => tr("{keyword} (granted)", { keyword: keywordWord(k) })),
    ];
    const rules = said(c.rules_text);
    const acts = actionsOf(p.id);
    return h(
      "li",
      {
        dataset: { key: `li-${p.id}`, perm: p.id },
        class: `ct-perm${p.tapped ? " tapped" : ""}${p.attacking ? " attacking" : ""}${p.blocking.length ? " blocking" : ""}${chosen ? " chosen" : ""}`,
      },
      h(
        "button",
        {
          type: "button",
          class: "ct-card",
          dataset: { key: `perm-${p.id}`, id: p.id },
          "aria-pressed": slot ? String(Boolean(chosen)) : false,
          title: (!rules.lang && rules.text) || false,
          disabled: spectator() || (!slot && !acts.length),
          onclick: () => (slot ? toggle(slot.slot, p.id, slot.count || 1) : show(p.id)),
        },
        cardName(c.name, { class: "ct-name", title: (rules.lang && rules.text) || false }),
        facts.length ? h("span", { class: "ct-facts" }, ...facts.flatMap((f, i) => (i ? [" · ", f] : [f]))) : null,
        kw.length ? h("span", { class: "ct-kw", text: kw.join(", ") }) : null,
        counters(p.counters),
        slot ? h("span", { class: "sr-only" }, " (", ...promptText(slot, (id) => nm.get(id)), ")") : null,
      ),
    );
  }

  function battlefield(nm) {
    const ctrls = [...new Set([...(v.seat_order || []), ...v.battlefield.map((p) => p.controller)])];
    return h(
      "section",
      { class: "card", "aria-labelledby": "ct-bf-h" },
      h("h2", { id: "ct-bf-h", text: tr("Battlefield") }),
      ctrls.map((pid) => {
        const perms = v.battlefield.filter((p) => p.controller === pid);
        if (!perms.length) return null;
        return h(
          "div",
          { class: "ct-side-bf", dataset: { controller: pid } },
          h("h3", {}, who(pid)),
          h(
            "ul",
            { class: "ct-perms" },
            perms.map((p) => permanent(p, nm)),
          ),
        );
      }),
    );
  }

  // The stack, as it was, unless a spell or ability or a name it shows changed.
  function stack(nm) {
    if (!v.stack.length) return null;
    const shown = v.stack.map((s) => [
      playerName(s.controller),
      nm.get(s.source),
      s.targets.map((t) => nm.get(t.id || t.player)),
    ]);
    return memo(JSON.stringify(["stack", v.stack, shown]), () => stackBuilt(nm));
  }

  function stackBuilt(nm) {
    return h(
      "section",
      { class: "card ct-stack", "aria-labelledby": "ct-stack-h" },
      h("h2", { id: "ct-stack-h", text: tr("Stack (bottom to top)") }),
      h(
        "ol",
        {},
        v.stack.map((s, i) =>
          h(
            "li",
            { dataset: { stack: s.id } },
            s.card ? h("strong", {}, cardName(s.card.name)) : rulesNode("strong", {}, s.description),
            " — ",
            ...(s.source && s.kind !== "spell" && nm.get(s.source)
              ? says("{kind} of {source} by {name}", {
                  kind: word("stack", s.kind),
                  source: cardName(nm.get(s.source)),
                  name: who(s.controller),
                })
              : says("{kind} by {name}", { kind: word("stack", s.kind), name: who(s.controller) })),
            s.targets.length
              ? h("span", {}, " → ", ...s.targets.flatMap((t, k) => [k ? ", " : "", thing(t.id || t.player, nm)]))
              : "",
            i === v.stack.length - 1 ? h("span", { class: "badge", text: tr("top") }) : null,
            s.card && s.description && s.description !== s.card.name
              ? s.description.startsWith(`${s.card.name} `)
                ? h("span", { class: "hint", text: s.description.slice(s.card.name.length) })
                : rulesNode("span", { class: "hint" }, ` ${s.description}`)
              : null,
          ),
        ),
      ),
    );
  }

  function hand() {
    const rev =
      pick && v.revealed.length
        ? h(
            "div",
            { class: "ct-revealed" },
            h("h3", { text: tr("Revealed to you") }),
            h(
              "ul",
              { class: "ct-perms" },
              v.revealed.map((c) => h("li", { dataset: { revealed: c.id } }, cardText(c))),
            ),
          )
        : null;
    return h(
      "section",
      { class: "card", id: "ct-hand", "aria-labelledby": "ct-hand-h" },
      h("h2", { id: "ct-hand-h", text: tr("Your hand ({n})", { n: v.my_hand.length }) }),
      h(
        "ul",
        { class: "ct-perms ct-hand" },
        v.my_hand.map((c) => {
          const acts = actionsOf(c.id);
          return memo(JSON.stringify(["hand", c, acts.length > 0]), () =>
            h(
              "li",
              { dataset: { card: c.id, key: `li-${c.id}` } },
              h(
                "button",
                {
                  type: "button",
                  class: "ct-card",
                  dataset: { key: `card-${c.id}`, id: c.id },
                  disabled: !acts.length,
                  onclick: () => show(c.id),
                },
                cardText(c),
                acts.length ? null : h("span", { class: "sr-only", text: ` ${tr("(no action now)")}` }),
              ),
            ),
          );
        }),
      ),
      rev,
    );
  }

  function cardText(c) {
    return h(
      "span",
      { class: "ct-cardtext" },
      cardName(c.name, { class: "ct-name" }),
      c.mana_cost ? h("span", { class: "ct-cost", text: ` ${c.mana_cost}` }) : null,
      h(
        "span",
        { class: "ct-facts" },
        rulesNode("span", {}, c.type_line),
        `${c.power ? ` ${c.power}/${c.toughness}` : ""}${c.loyalty ? ` · ${tr("loyalty {n}", { n: c.loyalty })}` : ""}`,
      ),
      c.rules_text ? rulesNode("span", { class: "ct-rules" }, c.rules_text) : null,
    );
  }

  function show(id) {
    focusOn = focusOn === id ? "" : id;
    const acts = actionsOf(id);
    if (acts.length === 1) start(acts[0]);
    else render(ui.state.game);
  }

  function start(a) {
    if (!(a.requirements || []).length && !(a.prompts || []).length) {
      send(a, []);
      return;
    }
    pick = { action: a, answers: {} };
    for (const p of a.prompts || []) {
      if (p.kind === "order") pick.answers[p.slot] = p.items.slice();
      if (p.kind === "option" && p.options.length) pick.answers[p.slot] = [p.options[0].id];
      if (p.kind === "number") pick.answers[p.slot] = [String(p.values?.[0]?.value ?? p.min ?? 0)];
    }
    // The suggested payment: each pip's first way whose source no earlier pip used.
    const used = new Set();
    for (const p of a.prompts || []) {
      if (p.kind !== "pay_mana") continue;
      const c = (p.candidates || []).find((x) => !used.has(x.source)) || p.candidates?.[0];
      if (c) {
        used.add(c.source);
        pick.answers[p.slot] = [c.id];
      }
    }
    render(ui.state.game);
    root.querySelector("#ct-prompt")?.focus();
  }

  function send(a, targets) {
    const msg = { type: "choose_action", action_id: a.id, token: a.token, submission: `c${++ui.state.submission}` };
    if (targets.length) msg.targets = targets;
    pick = null;
    focusOn = "";
    confirming = false;
    if (ui.send(msg)) for (const b of root.querySelectorAll("button.act, #ct-prompt button")) b.disabled = true;
  }

  // The slots the chosen options require ("keep" requires "bottom"), and
  // those only an option not chosen requires, which are not sent.
  function optionSlots() {
    const need = new Set();
    const other = new Set();
    for (const p of pick.action.prompts || []) {
      if (p.kind !== "option") continue;
      const chosen = (pick.answers[p.slot] || [])[0];
      for (const o of p.options) for (const s of o.requires || []) (o.id === chosen ? need : other).add(s);
    }
    for (const s of need) other.delete(s);
    return { need, other };
  }

  // owed is the first question still to answer: a mandatory
  // requirement, the defender of a chosen attacker, a slot the chosen
  // option requires, a prompt below its minimum.
  function owed() {
    const a = pick.action;
    const { need, other } = optionSlots();
    const chosenAttackers = pick.answers.attackers || [];
    for (const r of a.requirements || []) {
      const must =
        !r.optional ||
        need.has(r.slot) ||
        (r.slot.startsWith("defender:") && chosenAttackers.includes(r.slot.slice(9)));
      if (must && !(pick.answers[r.slot] || []).length) return r;
    }
    for (const p of a.prompts || []) {
      if (other.has(p.slot)) continue;
      const n = (pick.answers[p.slot] || []).length;
      const min = need.has(p.slot) ? p.count || 1 : (p.min ?? (p.kind === "select_from_zone" ? p.count || 1 : 1));
      if (p.kind === "select_from_zone" ? n < min : !n) return p;
    }
    return null;
  }

  // answers is what Confirm sends: every answered slot but those only an
  // option not chosen requires.
  function answers() {
    const { other } = optionSlots();
    return Object.entries(pick.answers)
      .filter(([slot, c]) => c.length && !other.has(slot))
      .map(([slot, chosen]) => ({ slot, chosen }));
  }

  function promptPanel(nm) {
    const a = pick.action;
    const label = (id) => nm.get(id) || id;
    const name = (id) => nm.get(id);
    const choices = (slot, cands, max, legend) =>
      h(
        "fieldset",
        { class: "ct-slot", dataset: { slot } },
        h("legend", {}, ...legend),
        cands.map((id) => {
          const on = (pick.answers[slot] || []).includes(id);
          return h(
            "label",
            { class: "ct-choice" },
            h("input", {
              type: max <= 1 ? "radio" : "checkbox",
              name: `slot-${slot}`,
              checked: on,
              dataset: { key: `slot-${slot}-${id}`, choice: id },
              onchange: () => toggle(slot, id, max),
            }),
            " ",
            thing(id, nm),
          );
        }),
      );
    // select is a prompt answered by one pick from a list: options are
    // {value, text}, and the slot's answer is the chosen value.
    const select = (p, options) =>
      h(
        "label",
        { class: "ct-slot" },
        ...promptText(p, name),
        " ",
        h(
          "select",
          {
            dataset: { key: `slot-${p.slot}`, slot: p.slot },
            onchange: (e) => {
              pick.answers[p.slot] = [e.target.value];
            },
          },
          options.map((o) =>
            h("option", { value: o.value, selected: o.value === (pick.answers[p.slot] || [])[0], text: o.text }),
          ),
        ),
      );
    const parts = (a.requirements || []).map((r) =>
      choices(r.slot, r.candidates, r.count || 1, [...promptText(r, name), r.optional ? ` ${tr("(optional)")}` : ""]),
    );
    for (const p of a.prompts || []) {
      switch (p.kind) {
        case "option":
          parts.push(
            h(
              "fieldset",
              { class: "ct-slot", dataset: { slot: p.slot } },
              h("legend", {}, ...promptText(p, name)),
              p.options.map((o) =>
                h(
                  "label",
                  { class: "ct-choice" },
                  h("input", {
                    type: "radio",
                    name: `slot-${p.slot}`,
                    checked: (pick.answers[p.slot] || [])[0] === o.id,
                    dataset: { key: `slot-${p.slot}-${o.id}`, choice: o.id },
                    onchange: () => {
                      pick.answers[p.slot] = [o.id];
                      render(ui.state.game);
                    },
                  }),
                  " ",
                  ...optionLabel(o, p),
                ),
              ),
            ),
          );
          break;
        case "number": {
          const vals = p.values?.length
            ? p.values
            : Array.from({ length: (p.max ?? 0) - (p.min ?? 0) + 1 }, (_, i) => ({ value: (p.min ?? 0) + i }));
          parts.push(
            select(
              p,
              vals.map((x) => ({
                value: String(x.value),
                text: `${x.value}${x.cost ? ` ${tr("(costs {cost})", { cost: x.cost })}` : ""}`,
              })),
            ),
          );
          break;
        }
        case "order": {
          const items = pick.answers[p.slot];
          const move = (i, d) => {
            const j = i + d;
            [items[i], items[j]] = [items[j], items[i]];
            render(ui.state.game);
          };
          parts.push(
            h(
              "fieldset",
              { class: "ct-slot", dataset: { slot: p.slot } },
              h("legend", {}, ...promptText(p, name)),
              h(
                "ol",
                {},
                items.map((id, i) =>
                  h(
                    "li",
                    {},
                    thing(id, nm),
                    " ",
                    h("button", {
                      type: "button",
                      class: "quiet small",
                      disabled: i === 0,
                      "aria-label": tr("Move {name} earlier", { name: label(id) }),
                      dataset: { key: `up-${p.slot}-${id}` },
                      text: "↑",
                      onclick: () => move(i, -1),
                    }),
                    h("button", {
                      type: "button",
                      class: "quiet small",
                      disabled: i === items.length - 1,
                      "aria-label": tr("Move {name} later", { name: label(id) }),
                      dataset: { key: `down-${p.slot}-${id}` },
                      text: "↓",
                      onclick: () => move(i, 1),
                    }),
                  ),
                ),
              ),
            ),
          );
          break;
        }
        case "pay_mana":
          parts.push(
            select(
              p,
              (p.candidates || []).map((c) => ({
                value: c.id,
                text: `${label(c.source)}${c.label ? `: ${manaWay(c.label)}` : ""}${c.taps ? ` ${tr("(taps)")}` : ""}`,
              })),
            ),
          );
          break;
        case "select_from_zone":
          parts.push(
            choices(p.slot, p.candidates || [], p.count || 1, [
              ...promptText(p, name),
              ` (${p.min === 0 ? tr("up to {n}", { n: p.count || 1 }) : tr("exactly {n}", { n: p.count || 1 })}${p.zone ? `, ${tr("from {zone}", { zone: word("zone", p.zone) })}` : ""})`,
            ]),
          );
          break;
        default:
          parts.push(
            h(
              "p",
              { class: "hint" },
              ...promptText(p, name),
              ` ${tr("({kind}: this page cannot answer it)", { kind: word("prompt", p.kind) })}`,
            ),
          );
      }
    }
    const missing = owed();
    return h(
      "section",
      { class: "card ct-prompt", id: "ct-prompt", tabindex: "-1", "aria-labelledby": "ct-prompt-h" },
      h("h2", { id: "ct-prompt-h" }, ...actionLabel(a, name)),
      a.cost
        ? h("p", {
            text:
              a.cost.printed && a.cost.printed !== a.cost.modified
                ? tr("Cost: {cost} (printed {printed})", { cost: a.cost.modified, printed: a.cost.printed })
                : tr("Cost: {cost}", { cost: a.cost.modified }),
          })
        : null,
      parts,
      missing
        ? h("p", { class: "hint", id: "ct-owed" }, `${tr("Still to answer:")} `, ...promptText(missing, name))
        : null,
      h(
        "div",
        { class: "row" },
        h(
          "button",
          {
            type: "button",
            class: "act",
            id: "ct-confirm",
            dataset: { key: "ct-confirm" },
            disabled: Boolean(missing),
            onclick: () => send(a, answers()),
          },
          `${tr("Confirm:")} `,
          ...actionLabel(a, name),
        ),
        h("button", {
          type: "button",
          class: "quiet",
          dataset: { key: "ct-cancel" },
          text: tr("Cancel"),
          onclick: () => {
            pick = null;
            render(ui.state.game);
          },
        }),
      ),
    );
  }

  function actions(nm) {
    if (pick) return promptPanel(nm);
    const all = v.valid_actions.filter((a) => a.type !== "concede");
    // An action is listed here unless its card or permanent is a button
    // that shows it (a commander in the command zone is not).
    const onPage = new Set([...v.my_hand.map((c) => c.id), ...v.battlefield.map((p) => p.id)]);
    const shown = focusOn
      ? actionsOf(focusOn)
      : all.filter((a) => !(a.subject || []).some((id) => onPage.has(id)) || a.requirements?.length);
    const concede = v.valid_actions.find((a) => a.type === "concede");
    const btn = (a) =>
      h(
        "button",
        {
          type: "button",
          class: `act act-${a.type}`,
          dataset: { key: `act-${a.id}`, actionId: a.id, actionType: a.type, token: a.token },
          onclick: () => start(a),
        },
        ...actionLabel(a, (id) => nm.get(id)),
        a.cost ? ` (${a.cost.modified})` : "",
      );
    return h(
      "section",
      { class: "card actions", id: "ct-actions", "aria-labelledby": "ct-actions-h" },
      focusOn
        ? h("h2", { id: "ct-actions-h" }, ...says("Actions of {card}", { card: cardName(nm.get(focusOn) || focusOn) }))
        : h("h2", { id: "ct-actions-h", text: all.length ? tr("Your move") : tr("Actions") }),
      focusOn
        ? h("button", {
            type: "button",
            class: "quiet small",
            dataset: { key: "ct-all" },
            text: tr("Show every action"),
            onclick: () => {
              focusOn = "";
              render(ui.state.game);
            },
          })
        : null,
      shown.length
        ? h("div", { class: "row act-row" }, shown.map(btn))
        : h("p", {
            class: "hint",
            text: v.result
              ? tr("The game is over.")
              : all.length
                ? tr("Click a card in your hand or on the battlefield for its actions.")
                : tr("Nothing to do right now: wait for the others."),
          }),
      focusOn || !all.some((a) => (a.subject || []).length)
        ? null
        : h(
            "details",
            {
              class: "ct-more",
              dataset: { key: "ct-more" },
              open: moreOpen,
              ontoggle: (e) => {
                if (e.target.open !== moreOpen) {
                  moreOpen = e.target.open;
                  render(ui.state.game);
                }
              },
            },
            h("summary", { text: tr("Every action ({n})", { n: all.length }) }),
            moreOpen ? h("div", { class: "row act-row" }, all.map(btn)) : null,
          ),
      v.undo
        ? h(
            "p",
            { class: "undo-line" },
            h("button", {
              type: "button",
              class: "quiet",
              id: "ct-undo",
              dataset: { key: "ct-undo" },
              disabled: !v.undo.available,
              "aria-describedby": v.result ? "ct-undo-hint" : false,
              text: tr("Undo ({n} of {limit})", { n: v.undo.available, limit: v.undo.limit }),
              onclick: () => ui.send({ type: "undo" }),
            }),
            // After a result undo is off (docs/rooms.md, "Undo"): say why.
            v.result
              ? h("span", { class: "hint", id: "ct-undo-hint", text: ` ${tr("The game is over: its result stands.")}` })
              : null,
          )
        : null,
      stops(),
      concede
        ? confirming
          ? h(
              "p",
              { class: "ct-concede" },
              `${tr("Concede the game?")} `,
              h("button", {
                type: "button",
                class: "danger",
                id: "ct-concede-yes",
                dataset: { key: "ct-concede-yes" },
                text: tr("Yes, concede"),
                onclick: () => send(concede, []),
              }),
              h("button", {
                type: "button",
                class: "quiet",
                dataset: { key: "ct-concede-no" },
                text: tr("Keep playing"),
                onclick: () => {
                  confirming = false;
                  render(ui.state.game);
                },
              }),
            )
          : h("button", {
              type: "button",
              class: "quiet",
              id: "ct-concede",
              dataset: { key: "ct-concede" },
              text: tr("Concede…"),
              onclick: () => {
                confirming = true;
                render(ui.state.game);
                root.querySelector("#ct-concede-yes")?.focus();
              },
            })
        : null,
    );
  }

  // The stops editor: steps at which the page stops for priority, on
  // your own turn (own_turn_stops) and on every turn (stops). set_stops
  // replaces both lists, so both are sent.
  function stops() {
    return memo(JSON.stringify(["stops", v.own_turn_stops, v.stops]), () => stopsBuilt());
  }

  function stopsBuilt() {
    if (!v.own_turn_stops && !v.stops) return null;
    const lists = { own_turn: new Set(v.own_turn_stops || []), stops: new Set(v.stops || []) };
    const group = (list, legend) =>
      h(
        "fieldset",
        {},
        h("legend", { text: legend }),
        PHASES.map((p) =>
          h(
            "label",
            { class: "ct-choice" },
            h("input", {
              type: "checkbox",
              checked: lists[list].has(p),
              dataset: { key: `stop-${list}-${p}` },
              onchange: (e) => {
                if (e.target.checked) lists[list].add(p);
                else lists[list].delete(p);
                ui.send({
                  type: "set_stops",
                  stops: PHASES.filter((x) => lists.stops.has(x)),
                  own_turn: PHASES.filter((x) => lists.own_turn.has(x)),
                });
              },
            }),
            ` ${word("phase", p)}`,
          ),
        ),
      );
    return h(
      "details",
      { class: "ct-stops" },
      h("summary", { text: tr("Stops") }),
      group("own_turn", tr("Stop for priority at these steps of your own turn")),
      group("stops", tr("Stop for priority at these steps of every turn")),
    );
  }

  function watching() {
    return h(
      "section",
      { class: "card actions", "aria-labelledby": "ct-actions-h" },
      h("h2", { id: "ct-actions-h", text: tr("Watching") }),
      h("p", { class: "hint", text: tr("You are watching: every hand is hidden from you.") }),
      h("button", {
        type: "button",
        class: "secondary",
        id: "ct-stop-watching",
        dataset: { key: "ct-stop-watching" },
        text: tr("Stop watching"),
        onclick: () => ui.stopWatching(),
      }),
    );
  }

  function zones() {
    return memo(
      JSON.stringify(["zones", v.graveyards, v.exile, v.command, v.seats, v.player_names, v.you, spectator()]),
      () => zonesBuilt(),
    );
  }

  function zonesBuilt() {
    const zone = (id, title, piles) =>
      piles.map((z) =>
        h(
          "details",
          { class: "ct-zone", dataset: { zone: id, owner: z.player_id } },
          h("summary", {}, ...says(title, { name: who(z.player_id), n: z.cards.length })),
          z.cards.length
            ? h(
                "ul",
                {},
                z.cards.map((c) => h("li", {}, cardText(c))),
              )
            : h("p", { class: "hint", text: tr("Empty.") }),
        ),
      );
    return h(
      "section",
      { class: "card", "aria-labelledby": "ct-zones-h" },
      h("h2", { id: "ct-zones-h", text: tr("Zones") }),
      zone("graveyard", "Graveyard of {name} ({n})", v.graveyards),
      zone("exile", "Exile of {name} ({n})", v.exile),
      zone("command zone", "Command zone of {name} ({n})", v.command),
    );
  }

  function commander() {
    return memo(
      JSON.stringify([
        "commander",
        v.commander_damage,
        v.commander_tax,
        v.commander_identity,
        v.command,
        v.seats,
        v.player_names,
        v.you,
        spectator(),
      ]),
      () => commanderBuilt(),
    );
  }

  function commanderBuilt() {
    if (!v.commander_damage.length && !v.commander_tax.length && !v.commander_identity.length) return null;
    return h(
      "section",
      { class: "card", "aria-labelledby": "ct-cmd-h" },
      h("h2", { id: "ct-cmd-h", text: tr("Commanders") }),
      h(
        "ul",
        {},
        v.commander_identity.map((c) =>
          h(
            "li",
            {},
            c.name ? cardName(c.name) : who(c.commander),
            `: ${tr("identity {colours}", { colours: c.color_identity.join("") || tr("colourless") })}`,
          ),
        ),
        v.commander_tax.map((c) =>
          h(
            "li",
            {},
            who(c.commander),
            `: ${tr("cast {n} times, tax {tax}", { n: c.casts || 0, tax: `{${c.tax || 0}}` })}`,
          ),
        ),
        v.commander_damage.map((c) =>
          h(
            "li",
            {},
            ...says("{commander} dealt {n} combat damage to {name}", {
              commander: who(c.commander),
              n: c.amount,
              name: who(c.damaged),
            }),
          ),
        ),
      ),
    );
  }

  function emblems() {
    return memo(JSON.stringify(["emblems", v.emblems, v.seats, v.player_names, v.you, spectator()]), () =>
      emblemsBuilt(),
    );
  }

  function emblemsBuilt() {
    if (!v.emblems.length) return null;
    return h(
      "section",
      { class: "card", "aria-labelledby": "ct-emb-h" },
      h("h2", { id: "ct-emb-h", text: tr("Emblems") }),
      h(
        "ul",
        {},
        v.emblems.map((e) =>
          h(
            "li",
            {},
            who(e.controller),
            ": ",
            ...e.abilities.flatMap((a, i) => [i ? "; " : "", rulesNode("span", {}, a)]),
          ),
        ),
      ),
    );
  }

  function logLine(e, nm) {
    const n = (x) => cardName(x && typeof x === "object" ? x.name || nm.get(x.id) || x.id : nm.get(x) || x);
    const list = (xs) => h("span", {}, ...(xs || []).flatMap((x, i) => [i ? ", " : "", n(x)]));
    const actor = e.player ? who(e.player) : "";
    switch (e.type) {
      case "step_changed":
        return [
          e.turn
            ? tr("{phase} (turn {n}).", { phase: word("phase", e.phase), n: e.turn })
            : `${word("phase", e.phase)}.`,
        ];
      case "damage_dealt":
        return says("{n} damage to {target}.", {
          n: String(e.amount ?? 0),
          target: e.target?.permanent ? n(e.target.permanent) : who(e.target?.player),
        });
      case "attackers_declared":
        return says("{name} attacks with {cards}.", { name: actor, cards: list(e.attackers) });
      case "blockers_declared":
        return [
          ...says("{name} blocks:", { name: actor }),
          " ",
          ...(e.blocks || []).flatMap((b, i) => [
            i ? ", " : "",
            ...says("{blocker} blocks {attacker}", { blocker: n(b.blocker), attacker: n(b.attacker) }),
          ]),
          ".",
        ];
      case "game_over":
        return e.result?.winner
          ? says("Game over: {name} won.", { name: who(e.result.winner) })
          : [tr("Game over: no winner.")];
      // The room machine's own events (docs/rooms.md), as the generic table words them.
      case "timed_out":
        return says("{name} ran out of time; the game moved for them.", { name: actor });
      case "undone":
        return says("{name} took the last move back.", { name: actor });
      default: {
        const bits = [
          actor,
          word("event", e.type),
          e.card ? n(e.card) : "",
          e.permanent ? n(e.permanent) : "",
          e.target ? h("span", {}, "→ ", e.target.permanent ? n(e.target.permanent) : who(e.target.player)) : "",
          e.amount != null ? String(e.amount) : "",
          e.count != null ? `×${e.count}` : "",
        ];
        return [...bits.filter(Boolean).flatMap((x, i) => (i ? [" ", x] : [x])), "."];
      }
    }
  }

  // The log's box stays; patchLog keeps its lines.
  function logBox() {
    return memo("log", () =>
      h(
        "section",
        { class: "card log-box", "aria-labelledby": "ct-log-h" },
        h("h2", { id: "ct-log-h", text: tr("Log") }),
        h("ol", { class: "log", id: "ct-log", tabindex: "0" }),
      ),
    );
  }

  const LOG_LINES = 60;
  const logItem = (e, nm) => h("li", { value: e.sequence }, ...logLine(e.event || {}, nm));

  // patchLog makes #ct-log show the view's last LOG_LINES entries, by
  // sequence, doing only what the window's move asks: the lines that left
  // it go, the new ones are worded and added, and the rest are not looked
  // at. Sequences never repeat, so a line that stays says the same; when
  // the page's lines and the window still differ after that (an undo took
  // entries back), the window is drawn again.
  function patchLog(nm) {
    const ol = root.querySelector("#ct-log");
    const log = v.log;
    const from = Math.max(0, log.length - LOG_LINES);
    const first = from < log.length ? log[from].sequence : Number.POSITIVE_INFINITY;
    while (ol.firstChild && ol.firstChild.value < first) ol.firstChild.remove();
    const last = ol.lastChild ? ol.lastChild.value : Number.NEGATIVE_INFINITY;
    let i = log.length;
    while (i > from && log[i - 1].sequence > last) i--;
    for (; i < log.length; i++) ol.append(logItem(log[i], nm));
    const n = log.length - from;
    if (
      ol.childElementCount !== n ||
      (n && (ol.firstChild.value !== first || ol.lastChild.value !== log[log.length - 1].sequence))
    ) {
      ol.replaceChildren(...log.slice(from).map((e) => logItem(e, nm)));
    }
  }

  function stop() {
    pick = null;
    focusOn = "";
    confirming = false;
    lastKey = "";
    saidUpTo = -1;
    clearTimeout(clockTimer);
  }

  return { render, stop };
}
