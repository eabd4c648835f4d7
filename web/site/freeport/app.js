// Freeport: the trading page. It renders what the Game Master answers and
// never decides legality itself: whose turn it is, what is available and
// whether an exchange is still open all come from the responses.
//
// Polling: one page of the Standing every few seconds (GET {game}/standing,
// public like readStanding, with this trader's own entry and the names of
// the traders it deals with); when its stateVersion moved, the inventory,
// the exchanges and the statement are read again. Changes to this trader's
// exchanges are said in the live region.

import { Market, Refusal, HostError, commandId } from "./api.js";
import { announce, h, keepFocus, replace, setupTheme } from "../js/dom.js";
import { savedPageLocale, setPageLocale, tr } from "../js/lang.js";
import { freeportReason, saidNode } from "../online/reasons.js";

// The page speaks the language last chosen in a game (js/lang.js).
setPageLocale(savedPageLocale());

const POLL_MS = 2500;
const PAGE = 25; // traders on one page of the standing
const HIDDEN_POLL_MS = 10000;
const EXPIRY_CHOICES = () => [
  [tr("15 minutes"), 15 * 60],
  [tr("1 hour"), 3600],
  [tr("6 hours"), 6 * 3600],
  [tr("1 day"), 86400],
];

const params = new URLSearchParams(location.search);
const game = params.get("game") || document.querySelector('meta[name="freeport-game"]')?.content || "freeport";
const market = new Market(game, `${encodeURIComponent(game)}/`);

const state = {
  standing: null, // the page of the Standing on show (Market.standing)
  pageOffset: 0, // the rank, from 0, that page starts at
  version: -1, // stateVersion the views below were read at
  me: null, // readInventory result, or null while not enrolled
  enrolled: false,
  exchanges: [], // listExchanges result, newest first
  statement: [],
  drafts: new Map(), // exchangeId → {offered: {asset: n}, requested: {asset: n}} of an open counter form
  proposal: { to: "", offered: {}, requested: {}, expiry: 3600 },
  busy: false,
  nameDraft: null, // what the trading name field holds while being edited
  seen: new Map(), // exchangeId → "status/answering/version", for announcements
  lastStanding: new Map(), // playerId → wealth at the previous poll
};

// ---- names and formatting ----

/** The Standing entries this page knows: the page, the named traders and this trader. */
function known() {
  const st = state.standing;
  return [...(st?.players || []), ...(st?.named || []), ...(st?.you ? [st.you] : [])];
}

function names() {
  return new Map(known().map((p) => [p.playerId, p.playerName]));
}

/** The traders this trader deals with, by Player ID, for their names. */
function parties(exchanges, statement) {
  const me = state.me?.playerId;
  const ids = new Set();
  for (const x of exchanges) ids.add(x.proposerPlayerId).add(x.counterpartyPlayerId);
  for (const e of statement) if (e.counterparty) ids.add(e.counterparty);
  ids.delete(me);
  return [...ids].slice(0, 100);
}

function readStanding() {
  return market.standing({ offset: state.pageOffset, limit: PAGE, players: parties(state.exchanges, state.statement) });
}

/** Shows the page of the standing that starts at offset. */
async function showPage(offset) {
  state.pageOffset = Math.max(0, offset);
  try {
    state.standing = await readStanding();
    keepFocus(renderStanding);
  } catch (err) {
    notice(saidNode(explain(err)));
  }
}

function nameOf(playerId) {
  if (state.me && playerId === state.me.playerId) return tr("You");
  return names().get(playerId) || tr("a trader");
}

function assets() {
  if (state.me) return state.me.holdings.map((x) => x.assetId);
  return (state.standing?.prices || []).map((p) => p.assetId);
}

function itemsText(items) {
  if (!items || items.length === 0) return tr("nothing");
  return items.flatMap((it, i) => [i ? ", " : "", `${it.quantity} `, good(it.assetId)]);
}

/**
 * A good, by its id: the game names its goods in one language only, so
 * the page shows the id as it is, marked as English and not for
 * translation.
 */
function good(assetId) {
  return h("span", { lang: "en", translate: "no", text: assetId });
}

/** A trader's name (chosen by the trader or the harbour): never translated. */
function who(playerId) {
  if (state.me && playerId === state.me.playerId) return tr("You");
  return h("span", { translate: "no", text: nameOf(playerId) });
}

/** "You give" or "<name> gives" as text, for a label. */
function givesText(playerId, name) {
  return state.me && playerId === state.me.playerId ? tr("You give") : tr("{name} gives", { name });
}

/** "You give" or "<name> gives". */
function gives(playerId) {
  return state.me && playerId === state.me.playerId ? tr("You give") : [who(playerId), ` ${tr("gives")}`];
}

// In the page's language (<html lang>), as the words around them.
const timeFmt = new Intl.DateTimeFormat(document.documentElement.lang || undefined, {
  hour: "2-digit",
  minute: "2-digit",
});
const dateTimeFmt = new Intl.DateTimeFormat(document.documentElement.lang || undefined, {
  dateStyle: "short",
  timeStyle: "short",
});

function relative(iso) {
  const ms = Date.parse(iso) - Date.now();
  const abs = Math.abs(ms);
  let text;
  if (abs < 60e3) text = tr("under a minute");
  else if (abs < 3600e3) text = `${Math.round(abs / 60e3)} min`;
  else if (abs < 86400e3) text = `${Math.round(abs / 3600e3)} h`;
  else text = tr("{n, plural, one {# day} other {# days}}", { n: Math.round(abs / 86400e3) });
  return ms >= 0 ? tr("in {time}", { time: text }) : tr("{time} ago", { time: text });
}

function timeText(iso, prefix, rel) {
  const d = new Date(iso);
  const sameDay = d.toDateString() === new Date().toDateString();
  const clock = sameDay ? timeFmt.format(d) : dateTimeFmt.format(d);
  return rel ? `${prefix}${clock} (${relative(iso)})` : `${prefix}${clock}`;
}

/** A <time>; rel adds how far away it is, kept up to date by refreshTimes. */
function timeEl(iso, prefix = "", rel = true) {
  return h("time", { datetime: iso, title: iso, dataset: { prefix, rel: rel ? "1" : "" } }, timeText(iso, prefix, rel));
}

/** Brings every relative time on the page up to the clock. */
function refreshTimes() {
  for (const t of document.querySelectorAll("time[data-rel='1']")) {
    t.textContent = timeText(t.getAttribute("datetime"), t.dataset.prefix || "", true);
  }
}

// An exchange's status in the player's words.
const statusText = (status) =>
  ({
    awaiting_counterparty: tr("Open"),
    settled: tr("Settled"),
    declined: tr("Declined"),
    cancelled: tr("Cancelled"),
    expired: tr("Expired"),
    unfunded: tr("Could not be funded"),
  })[status] || status;

// A refusal (the Game Master's or the host's) in the player's words, by
// its code (online/reasons.js): {text, lang}, the host's English marked
// as such for a code the page does not know.
function explain(err) {
  if (err instanceof Refusal || err instanceof HostError) return freeportReason(err.code, err.message);
  return { text: String(err?.message || err), lang: "en" };
}

// ---- requests ----

/** Runs a Command from a button, then refreshes everything. */
async function act(label, request, done) {
  if (state.busy) return;
  state.busy = true;
  setBusy(true);
  try {
    const result = await market.send({ ...request, commandId: commandId(request.action) });
    notice("");
    if (done) done(result);
    await refresh(true);
  } catch (err) {
    notice([`${label}: `, saidNode(explain(err))]);
    announce(tr("{what} failed. {why}", { what: label, why: explain(err).text }));
    await refresh(true).catch(() => {});
  } finally {
    state.busy = false;
    setBusy(false);
  }
}

function setBusy(on) {
  document.getElementById("main").setAttribute("aria-busy", on ? "true" : "false");
}

async function refresh(force = false) {
  const standing = await readStanding();
  const changed = force || standing.stateVersion !== state.version;
  state.standing = standing;
  if (changed) {
    try {
      state.me = await market.send({ action: "readInventory" });
      state.enrolled = true;
    } catch (err) {
      if (!(err instanceof Refusal) || err.code !== "not_enrolled") throw err;
      state.me = null;
      state.enrolled = false;
    }
    if (state.enrolled) {
      const [list, statement] = await Promise.all([
        market.send({ action: "listExchanges", limit: 50 }),
        market.send({ action: "readStatement", limit: 50 }),
      ]);
      state.exchanges = list.exchanges;
      state.statement = statement.entries;
      const have = names();
      // readStanding names the parties of these exchanges and movements.
      if (parties(state.exchanges, state.statement).some((id) => !have.has(id))) state.standing = await readStanding();
      sayChanges(list.exchanges);
    }
    state.version = standing.stateVersion;
  }
  setConn("open", tr("Connected"));
  if (changed) render();
  else refreshTimes();
  document.documentElement.dataset.freeport = "ready";
}

/** Announces what changed on this trader's exchanges since the last read. */
function sayChanges(exchanges) {
  const me = state.me?.playerId;
  const first = state.seen.size === 0 && state.version < 0;
  const said = [];
  for (const x of exchanges) {
    const key = `${x.status}/${x.answeringPlayerId}/${x.exchangeVersion}`;
    const before = state.seen.get(x.exchangeId);
    state.seen.set(x.exchangeId, key);
    if (first || before === key) continue;
    const other = nameOf(x.proposerPlayerId === me ? x.counterpartyPlayerId : x.proposerPlayerId);
    if (x.status === "awaiting_counterparty" && x.answeringPlayerId === me) {
      said.push(
        x.liveRound > 1
          ? tr("{name} countered. Your turn.", { name: other })
          : tr("New offer from {name}. Your turn.", { name: other }),
      );
    } else if (before && x.status !== "awaiting_counterparty") {
      said.push(tr("Exchange with {name}: {status}.", { name: other, status: statusText(x.status).toLowerCase() }));
    }
  }
  if (said.length) announce(said.join(" "));
}

function setConn(kind, text) {
  const el = document.getElementById("conn");
  el.dataset.state = kind;
  el.textContent = text;
}

// ---- rendering ----

function render() {
  keepFocus(() => {
    renderMe();
    renderStanding();
    renderExchanges();
    renderProposal();
    renderStatement();
  });
}

function renderMe() {
  const body = document.getElementById("me-body");
  if (!state.enrolled) {
    const remember = h("input", { type: "checkbox", id: "remember", "data-key": "remember" });
    replace(
      body,
      h("p", {}, tr("You are not trading yet. Joining gives you a stock of goods to start with.")),
      h(
        "div",
        { class: "row" },
        h(
          "button",
          {
            type: "button",
            id: "enrol",
            "data-key": "enrol",
            onclick: () =>
              act(tr("Joining"), { action: "enroll" }, () => {
                market.remember(remember.checked);
                announce(tr("You joined the market."));
              }),
          },
          tr("Join the market"),
        ),
        h("label", { class: "check" }, remember, ` ${tr("Remember me on this device")}`),
      ),
    );
    return;
  }
  const me = state.me;
  const mine = state.standing?.you;
  const nameInput = h("input", {
    id: "trading-name",
    name: "tradingName",
    maxlength: 64,
    autocomplete: "off",
    value: state.nameDraft ?? mine?.tradingName ?? "",
    "data-key": "trading-name",
    "aria-describedby": "trading-name-hint",
    oninput: (e) => {
      state.nameDraft = e.target.value;
    },
  });
  const rows = me.holdings.map((x) =>
    h(
      "tr",
      { dataset: { asset: x.assetId } },
      h("th", { scope: "row" }, good(x.assetId)),
      h("td", { class: "num", dataset: { held: x.quantity } }, x.quantity),
      h("td", { class: "num", dataset: { available: x.available } }, x.available),
    ),
  );
  replace(
    body,
    h(
      "p",
      { id: "whoami" },
      `${tr("You trade as")} `,
      h("strong", { translate: "no", text: mine?.playerName || me.playerId }),
      ".",
    ),
    h(
      "form",
      {
        class: "row name-form",
        onsubmit: (e) => {
          e.preventDefault();
          act(
            tr("Saving your trading name"),
            { action: "setTradingName", tradingName: nameInput.value.trim() || null },
            () => {
              state.nameDraft = null;
              announce(tr("Trading name saved."));
            },
          );
        },
      },
      h("label", { for: "trading-name" }, tr("Trading name")),
      nameInput,
      h("button", { type: "submit", class: "secondary small", "data-key": "save-name" }, tr("Save")),
    ),
    h("p", { class: "hint", id: "trading-name-hint" }, tr("Shown on the standing; leave empty for your harbour name.")),
    h(
      "table",
      { class: "holdings", id: "holdings" },
      h("caption", {}, tr("Inventory")),
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          h("th", { scope: "col" }, tr("Good")),
          h("th", { scope: "col", class: "num" }, tr("Held")),
          h("th", { scope: "col", class: "num" }, tr("Available")),
        ),
      ),
      h("tbody", {}, rows),
    ),
    h("p", { class: "hint" }, tr("Available is what your open offers do not reserve.")),
  );
}

function renderStanding() {
  const st = state.standing;
  const body = document.getElementById("st-body");
  if (!st) return;
  const me = state.me?.playerId;
  const items = st.players.map((p) => {
    const before = state.lastStanding.get(p.playerId);
    const delta = before === undefined ? 0 : p.wealth - before;
    return h(
      "li",
      { class: p.playerId === me ? "you" : null, dataset: { player: p.playerId, wealth: p.wealth } },
      h("span", { class: "rank", "aria-hidden": "true" }, `${p.rank}.`),
      h(
        "span",
        { class: "p-name" },
        h("span", { translate: "no", text: p.playerName }),
        p.playerId === me ? ` ${tr("(you)")}` : "",
      ),
      h(
        "span",
        { class: "wealth" },
        `${p.wealth}`,
        delta ? h("span", { class: delta > 0 ? "up" : "down" }, delta > 0 ? ` ▲${delta}` : ` ▼${-delta}`) : null,
      ),
    );
  });
  const last = st.offset + st.players.length;
  const pager =
    st.total > PAGE
      ? h(
          "nav",
          { class: "row pager", "aria-label": tr("Standing pages") },
          h(
            "button",
            {
              type: "button",
              class: "secondary small",
              "data-key": "st-prev",
              disabled: st.offset === 0,
              onclick: () => showPage(st.offset - PAGE),
            },
            tr("Previous"),
          ),
          h(
            "span",
            { class: "hint", id: "st-range" },
            tr("Ranks {first}–{last} of {total}", { first: st.offset + 1, last, total: st.total }),
          ),
          h(
            "button",
            {
              type: "button",
              class: "secondary small",
              "data-key": "st-next",
              disabled: last >= st.total,
              onclick: () => showPage(st.offset + PAGE),
            },
            tr("Next"),
          ),
          st.you && (st.you.rank <= st.offset || st.you.rank > last)
            ? h(
                "button",
                {
                  type: "button",
                  class: "secondary small",
                  "data-key": "st-me",
                  onclick: () => showPage(Math.floor((st.you.rank - 1) / PAGE) * PAGE),
                },
                tr("Show my place"),
              )
            : null,
        )
      : null;
  replace(
    body,
    st.you
      ? h(
          "p",
          { id: "my-rank" },
          `${tr("Your place:")} `,
          h("strong", {}, `${st.you.rank}`),
          ` ${tr("of {total}", { total: st.total })}`,
        )
      : null,
    st.players.length
      ? h(
          "ol",
          { class: "standing", id: "standing-list", "aria-label": tr("Traders by wealth"), start: st.offset + 1 },
          items,
        )
      : h("p", { class: "hint" }, st.total ? tr("No traders on this page.") : tr("Nobody has joined yet.")),
    pager,
    h(
      "p",
      { class: "hint" },
      `${tr("Wealth at the harbour’s prices:")} `,
      st.prices.flatMap((p, i) => [i ? ", " : "", good(p.assetId), ` ${p.unitPrice}`]),
      ".",
    ),
  );
  if (st.stateVersion !== state.standingVersion) {
    state.standingVersion = st.stateVersion;
    state.lastStanding = new Map(st.players.map((p) => [p.playerId, p.wealth]));
  }
}

function renderExchanges() {
  const section = document.getElementById("exchanges");
  section.hidden = !state.enrolled;
  if (!state.enrolled) return;
  const open = state.exchanges.filter((x) => x.status === "awaiting_counterparty");
  const done = state.exchanges.filter((x) => x.status !== "awaiting_counterparty").slice(0, 10);
  const mine = open.filter((x) => x.answeringPlayerId === state.me.playerId).length;
  replace(
    document.getElementById("ex-body"),
    h(
      "p",
      { class: "hint", id: "turns" },
      mine ? tr("{n} waiting for your answer.", { n: mine }) : tr("Nothing waits for your answer."),
    ),
    open.length
      ? h("ul", { class: "exchanges", "aria-label": tr("Open exchanges") }, open.map(exchangeCard))
      : h("p", {}, tr("No open exchanges.")),
    done.length
      ? [
          h("h3", {}, tr("Concluded")),
          h("ul", { class: "exchanges done", "aria-label": tr("Concluded exchanges") }, done.map(exchangeCard)),
        ]
      : null,
  );
}

function exchangeCard(x) {
  const me = state.me.playerId;
  const proposer = nameOf(x.proposerPlayerId);
  const counterparty = nameOf(x.counterpartyPlayerId);
  const other = x.proposerPlayerId === me ? counterparty : proposer;
  const isOpen = x.status === "awaiting_counterparty";
  const myTurn = isOpen && x.answeringPlayerId === me;
  const headingId = `x-${x.exchangeId}-h`;
  const parts = [
    h(
      "div",
      { class: "x-head" },
      h(
        "h3",
        { id: headingId },
        `${tr("With")} `,
        x.proposerPlayerId === me ? who(x.counterpartyPlayerId) : who(x.proposerPlayerId),
      ),
      h(
        "span",
        {
          class: `badge ${isOpen ? (myTurn ? "warn" : "") : x.status === "settled" ? "good" : ""}`,
          dataset: { status: x.status },
        },
        statusText(x.status),
      ),
    ),
    h(
      "dl",
      { class: "terms" },
      h("dt", {}, gives(x.proposerPlayerId)),
      h("dd", { dataset: { side: "offered" } }, itemsText(x.terms.offered)),
      h("dt", {}, gives(x.counterpartyPlayerId)),
      h("dd", { dataset: { side: "requested" } }, itemsText(x.terms.requested)),
    ),
    h(
      "p",
      { class: "x-facts" },
      `${x.roundCount > 1 ? tr("Round {n} of {total}.", { n: x.liveRound, total: x.roundCount }) : tr("Round {n}.", { n: x.liveRound })} `,
      isOpen
        ? [
            h(
              "strong",
              { class: "turn", dataset: { turn: myTurn ? "mine" : "theirs" } },
              myTurn ? tr("Your turn.") : [`${tr("Waiting for")} `, who(x.answeringPlayerId), "."],
            ),
            " ",
            timeEl(x.expiresAt, `${tr("Expires")} `),
          ]
        : x.concludedAt
          ? timeEl(x.concludedAt, `${tr("Concluded")} `)
          : null,
    ),
  ];
  if (x.ruleNote) parts.push(h("p", { class: "rule-note" }, x.ruleNote));
  else if (x.ruleApplied)
    parts.push(h("p", { class: "rule-note" }, tr("Something at the harbour changed this settlement.")));
  if (myTurn) {
    const draft = state.drafts.get(x.exchangeId);
    parts.push(
      h(
        "div",
        { class: "row actions" },
        h(
          "button",
          {
            type: "button",
            "data-key": `accept-${x.exchangeId}`,
            dataset: { action: "accept" },
            "aria-describedby": headingId,
            onclick: () =>
              act(tr("Accepting"), respond(x, "approve"), (r) =>
                announce(
                  r.status === "settled"
                    ? tr("Settled with {name}.", { name: other })
                    : tr("The exchange with {name} could not be funded.", { name: other }),
                ),
              ),
          },
          tr("Accept"),
        ),
        h(
          "button",
          {
            type: "button",
            class: "secondary",
            "data-key": `decline-${x.exchangeId}`,
            dataset: { action: "decline" },
            "aria-describedby": headingId,
            onclick: () =>
              act(tr("Declining"), respond(x, "decline"), () =>
                announce(tr("Declined the offer from {name}.", { name: other })),
              ),
          },
          tr("Decline"),
        ),
        h(
          "button",
          {
            type: "button",
            class: "quiet",
            "data-key": `counter-${x.exchangeId}`,
            dataset: { action: "counter" },
            "aria-expanded": draft ? "true" : "false",
            "aria-describedby": headingId,
            onclick: () => {
              if (state.drafts.has(x.exchangeId)) state.drafts.delete(x.exchangeId);
              else
                state.drafts.set(x.exchangeId, {
                  offered: amounts(x.terms.offered),
                  requested: amounts(x.terms.requested),
                  expiry: 3600,
                });
              render();
            },
          },
          draft ? tr("Close counter") : tr("Counter…"),
        ),
      ),
    );
    if (draft) parts.push(counterForm(x, draft, proposer, counterparty));
  } else if (isOpen) {
    parts.push(
      h(
        "div",
        { class: "row actions" },
        h(
          "button",
          {
            type: "button",
            class: "secondary",
            "data-key": `cancel-${x.exchangeId}`,
            dataset: { action: "cancel" },
            "aria-describedby": headingId,
            onclick: () =>
              act(
                tr("Cancelling"),
                { action: "cancelExchange", exchangeId: x.exchangeId, exchangeVersion: x.exchangeVersion },
                () => announce(tr("Cancelled your offer to {name}.", { name: other })),
              ),
          },
          tr("Cancel offer"),
        ),
      ),
    );
  }
  return h(
    "li",
    { class: `exchange${myTurn ? " mine" : ""}`, dataset: { exchange: x.exchangeId }, "aria-labelledby": headingId },
    parts,
  );
}

function respond(x, decision) {
  return {
    action: "respondToExchange",
    exchangeId: x.exchangeId,
    exchangeVersion: x.exchangeVersion,
    termsHash: x.termsHash,
    decision,
  };
}

function amounts(items) {
  const out = {};
  for (const it of items || []) out[it.assetId] = it.quantity;
  return out;
}

function lines(amountsByAsset) {
  return Object.entries(amountsByAsset)
    .map(([assetId, q]) => ({ assetId, quantity: Number(q) }))
    .filter((it) => Number.isInteger(it.quantity) && it.quantity > 0);
}

/**
 * A table of every good with two amount columns, bound to draft: the
 * Proposer's side (offered) and the Counterparty's (requested).
 */
function amountsTable(key, draft, leftLabel, rightLabel) {
  const input = (side, asset, label) =>
    h("input", {
      type: "number",
      min: 0,
      step: 1,
      inputmode: "numeric",
      value: draft[side][asset] ?? "",
      "data-key": `${key}-${side}-${asset}`,
      "aria-label": `${label}: ${asset}`,
      name: `${side}-${asset}`,
      oninput: (e) => {
        draft[side][asset] = e.target.value;
      },
    });
  return h(
    "table",
    { class: "amounts" },
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        h("th", { scope: "col" }, tr("Good")),
        h("th", { scope: "col" }, leftLabel),
        h("th", { scope: "col" }, rightLabel),
      ),
    ),
    h(
      "tbody",
      {},
      assets().map((a) =>
        h(
          "tr",
          {},
          h("th", { scope: "row" }, good(a)),
          h("td", {}, input("offered", a, leftLabel)),
          h("td", {}, input("requested", a, rightLabel)),
        ),
      ),
    ),
  );
}

function expirySelect(key, draft) {
  const id = `${key}-expiry`;
  return h(
    "div",
    { class: "field" },
    h("label", { for: id }, tr("Expires in")),
    h(
      "select",
      {
        id,
        "data-key": id,
        onchange: (e) => {
          draft.expiry = Number(e.target.value);
        },
      },
      EXPIRY_CHOICES().map(([label, s]) => h("option", { value: s, selected: draft.expiry === s }, label)),
    ),
  );
}

function expiresAt(seconds) {
  return new Date(Date.now() + seconds * 1000).toISOString();
}

function counterForm(x, draft, proposer, counterparty) {
  const key = `c-${x.exchangeId}`;
  return h(
    "form",
    {
      class: "counter",
      "aria-label": tr("Counter-offer"),
      onsubmit: (e) => {
        e.preventDefault();
        act(
          tr("Countering"),
          {
            action: "counterExchange",
            exchangeId: x.exchangeId,
            exchangeVersion: x.exchangeVersion,
            termsHash: x.termsHash,
            offered: lines(draft.offered),
            requested: lines(draft.requested),
            expiresAt: expiresAt(draft.expiry),
          },
          () => {
            state.drafts.delete(x.exchangeId);
            announce(tr("Counter-offer sent."));
          },
        );
      },
    },
    h("p", { class: "hint" }, tr("Change the amounts; the direction stays as it is.")),
    amountsTable(key, draft, givesText(x.proposerPlayerId, proposer), givesText(x.counterpartyPlayerId, counterparty)),
    expirySelect(key, draft),
    h("button", { type: "submit", "data-key": `${key}-send` }, tr("Send counter-offer")),
  );
}

function renderProposal() {
  const section = document.getElementById("propose");
  section.hidden = !state.enrolled;
  if (!state.enrolled) return;
  const me = state.me.playerId;
  const p = state.proposal;
  const others = [
    ...new Map(
      known()
        .filter((x) => x.playerId !== me)
        .map((x) => [x.playerId, x]),
    ).values(),
  ];
  if (!others.some((o) => o.playerId === p.to)) p.to = others[0]?.playerId || "";
  const body = document.getElementById("pr-body");
  if (!others.length) {
    replace(body, h("p", { class: "hint" }, tr("Nobody else has joined yet. Share this page with another trader.")));
    return;
  }
  replace(
    body,
    h(
      "form",
      {
        id: "propose-form",
        onsubmit: (e) => {
          e.preventDefault();
          const offered = lines(p.offered),
            requested = lines(p.requested);
          if (!offered.length && !requested.length) {
            notice(tr("Put an amount in at least one column."), "warn");
            return;
          }
          act(
            tr("Proposing"),
            {
              action: "proposeExchange",
              counterpartyPlayerId: p.to,
              offered,
              requested,
              expiresAt: expiresAt(p.expiry),
            },
            () => {
              p.offered = {};
              p.requested = {};
              announce(tr("Offer sent to {name}.", { name: nameOf(p.to) }));
            },
          );
        },
      },
      h(
        "div",
        { class: "field" },
        h("label", { for: "propose-to" }, tr("Trade with")),
        h(
          "select",
          {
            id: "propose-to",
            "data-key": "propose-to",
            onchange: (e) => {
              p.to = e.target.value;
            },
          },
          others.map((o) =>
            h("option", { value: o.playerId, selected: o.playerId === p.to, translate: "no" }, o.playerName),
          ),
        ),
      ),
      amountsTable("p", p, tr("You give"), tr("You ask for")),
      expirySelect("p", p),
      h("button", { type: "submit", "data-key": "propose-send" }, tr("Send offer")),
    ),
  );
}

function renderStatement() {
  const section = document.getElementById("statement");
  section.hidden = !state.enrolled;
  if (!state.enrolled) return;
  const rows = state.statement
    .slice()
    .reverse()
    .slice(0, 20)
    .map((e) =>
      h(
        "tr",
        {},
        h("td", { class: "num" }, e.entryNumber),
        h("td", {}, timeEl(e.at, "", false)),
        h("td", {}, describe(e)),
        h("td", { class: `num ${e.direction}` }, `${e.direction === "in" ? "+" : "−"}${e.quantity} `, good(e.assetId)),
      ),
    );
  replace(
    document.getElementById("sm-body"),
    rows.length
      ? h(
          "table",
          { class: "statement" },
          h("caption", { class: "sr-only" }, tr("Your movements, newest first")),
          h(
            "thead",
            {},
            h(
              "tr",
              {},
              h("th", { scope: "col", class: "num" }, "#"),
              h("th", { scope: "col" }, tr("When")),
              h("th", { scope: "col" }, tr("What")),
              h("th", { scope: "col", class: "num" }, tr("Amount")),
            ),
          ),
          h("tbody", {}, rows),
        )
      : h("p", { class: "hint" }, tr("No movements yet.")),
  );
}

function describe(e) {
  switch (e.reason) {
    case "enrolment":
      return tr("Starting stock");
    case "settlement":
      return [`${tr("Exchange with")} `, who(e.counterparty)];
    case "transfer":
      return [`${e.direction === "in" ? tr("Gift from") : tr("Gift to")} `, who(e.counterparty)];
    case "rule_applied":
      return e.ruleNote ? h("em", { lang: "en", text: e.ruleNote }) : tr("The harbour’s custom");
    default:
      return e.reason;
  }
}

// ---- theme: every page's (js/dom.js), one stored choice ----

setupTheme();

// ---- polling ----

let timer = 0;
let polling = false;

async function poll() {
  if (polling) return;
  polling = true;
  clearTimeout(timer);
  if (!state.busy) {
    try {
      await refresh();
    } catch (err) {
      setConn(
        err instanceof HostError && err.code === "offline" ? "offline" : "error",
        err instanceof HostError && err.code === "offline" ? tr("Offline — retrying") : tr("Trouble — retrying"),
      );
      if (!(err instanceof HostError && err.retry)) notice(saidNode(explain(err)));
      document.documentElement.dataset.freeport ||= "error";
    }
  }
  polling = false;
  timer = setTimeout(poll, document.hidden ? HIDDEN_POLL_MS : POLL_MS);
}

document.addEventListener("visibilitychange", () => {
  if (!document.hidden) poll();
});
window.addEventListener("focus", () => poll());
poll();

/**
 * Shows (or, with no text, hides) the alert banner at the top: text is a
 * string or what h takes as children (a reason marked as English).
 */
function notice(text, kind = "bad") {
  const box = document.getElementById("notice");
  if (!box) return;
  if (!text) {
    box.hidden = true;
    box.replaceChildren();
    return;
  }
  box.className = `notice ${kind}`;
  replace(
    box,
    h("p", {}, text),
    h("button", { type: "button", class: "quiet small", text: tr("Dismiss"), onclick: () => notice("") }),
  );
  box.hidden = false;
}
