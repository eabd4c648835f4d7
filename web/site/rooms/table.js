// The room screen: the personalized view of the game (Cheat, or any game
// rendered generically), its valid actions as buttons carrying their
// tokens, the bounded log, whose turn it is and the decision clock, undo
// when the table allows it, the result, and spectator mode. Everything is
// rebuilt from the latest view: the page keeps no game state of its own
// besides which cards you have picked for a play.

import { announce, h, keepFocus, replace, toast } from "../js/dom.js";
import { setData } from "./morph.js";
import { rankWord, cardName, cardSpoken, isRed, cards as cardCount, says, nameNode } from "./names.js";
import { tr } from "../js/lang.js";
import { resultReason, saidNode } from "../online/reasons.js";
import { createCardTable, isCardView } from "./cardtable.js";

export function createTable(root, ui) {
  const head = h("header", { class: "table-head" });
  const turn = h("p", { class: "turn", id: "turn" });
  const clockText = h("span", { class: "clock-text" });
  const clockBar = h("progress", { max: 100, value: 100, "aria-hidden": "true" });
  const clock = h("div", { class: "clock", id: "clock", hidden: true }, clockText, clockBar);
  const result = h("section", { class: "card result", id: "result", hidden: true, "aria-labelledby": "result-h" });
  const board = h("div", { class: "board" });
  const hand = h("section", { class: "card hand", id: "hand", "aria-labelledby": "hand-h" });
  const actions = h("section", { class: "card actions", id: "actions", "aria-labelledby": "actions-h" });
  const log = h("ol", { class: "log", id: "log", "aria-labelledby": "log-h", tabindex: "0" });
  const logBox = h(
    "section",
    { class: "card log-box", "aria-labelledby": "log-h" },
    h("h2", { id: "log-h", text: tr("Log") }),
    log,
  );
  const generic = h(
    "div",
    { class: "generic-table" },
    head,
    h("div", { class: "turn-bar" }, turn, clock),
    result,
    h("div", { class: "table-grid" }, h("div", { class: "table-main" }, board, actions, hand), logBox),
  );
  const cardBox = h("div", { class: "card-table", id: "card-table", hidden: true });
  const cards = createCardTable(cardBox, ui);
  replace(root, generic, cardBox);

  let clockTimer = 0;
  let deadline = null; // {at: ms, total: s}
  let lastTurnKey = "";
  let lastResult = "";
  let lastSeq = 0;
  let warned = false;

  const view = () => ui.state.game;
  const spectator = () => ui.state.spectator;

  // bare is pid's name as a node (not translated; an AI's in the page's
  // words, or marked English when the server named it otherwise).
  function bare(pid) {
    const v = view();
    const seat = (v.seats || []).find((s) => s.player_id === pid);
    const n = v.player_names?.[pid] || seat?.name;
    if (seat?.ai) {
      const w = ui.aiSeat(seat.ai, n);
      return nameNode(w.text, w.lang === "en");
    }
    if (n) return nameNode(n);
    return seat ? h("span", { text: tr("Player {n}", { n: seat.seat + 1 }) }) : nameNode(String(pid ?? "?"));
  }
  // name is bare, followed by "(you)" for yours.
  function name(pid) {
    return !spectator() && pid === view().you ? says("{name} (you)", { name: bare(pid) }) : [bare(pid)];
  }

  function render() {
    const v = view();
    if (!v) return;
    const isCards = isCardView(v);
    // Setting an attribute, even to the value it has, restyles what
    // matches it: only what changed is set.
    if (generic.hidden !== isCards) generic.hidden = isCards;
    if (cardBox.hidden === isCards) cardBox.hidden = !isCards;
    if (isCards) {
      root.dataset.seq = String(Number(root.dataset.seq || 0) + 1);
      setData(root, "you", spectator() ? "" : v.you || "");
      setData(root, "mode", spectator() ? "spectator" : "player");
      setData(root, "result", v.result ? "over" : "");
      clearInterval(clockTimer);
      cards.render(v);
      if (v.action_rejected) toast(tr("The game had moved on: this is the table as it stands now."));
      // auto_passed is mostly the stops at work (the table lists the steps
      // passed); only a clock expiry is worth a toast.
      if (
        v.auto_passed &&
        (v.log || []).some((e) => e.sequence === v.auto_passed_from && e.event?.type === "timed_out")
      ) {
        toast(tr("Time ran out, so the game moved for you."));
      }
      return;
    }
    root.dataset.seq = String(Number(root.dataset.seq || 0) + 1);
    root.dataset.phase = v.phase || "";
    root.dataset.you = spectator() ? "" : v.you || "";
    root.dataset.mode = spectator() ? "spectator" : "player";
    root.dataset.result = v.result ? "over" : "";
    keepFocus(() => {
      renderHead(v);
      renderBoard(v);
      renderActions(v);
      renderHand(v);
      renderLog(v);
      renderResult(v);
    });
    renderTurn(v);
    startClock(v);
    if (v.action_rejected) toast(tr("The game had moved on: this is the table as it stands now."));
    if (v.auto_passed) toast(tr("Time ran out, so the game moved for you."));
  }

  function renderHead(v) {
    replace(
      head,
      ui.state.roomName
        ? h("h1", { translate: "no", text: ui.state.roomName })
        : h("h1", { lang: "en", text: "Cheat" }),
      h(
        "p",
        { class: "facts" },
        spectator() ? h("span", { class: "badge", text: tr("Watching") }) : null,
        v.game === "cheat" && v.play && !v.result
          ? ` ${v.phase === "challenge" ? tr("Play {n} · claimed {rank}", { n: v.play, rank: rankWord(v.rank) }) : tr("Play {n} · claiming {rank}", { n: v.play, rank: rankWord(v.rank) })}`
          : "",
        ` · ${tr("room")} `,
        h("code", { translate: "no", text: v.room_id || "" }),
      ),
    );
  }

  function turnText(v) {
    if (v.result) return resultText(v.result, v);
    const mine = v.valid_actions || [];
    if (v.game === "cheat") {
      if (v.phase === "play") {
        if (mine.some((a) => a.type === "play_cards"))
          return says("Your turn: put down 1 to 4 cards as {rank}.", { rank: rankWord(v.rank) });
        return says("{name} is putting down cards as {rank}.", { name: bare(v.active_player), rank: rankWord(v.rank) });
      }
      if (v.phase === "challenge" && v.claim) {
        const c = v.claim;
        const p = { name: bare(c.player), n: c.count, rank: rankWord(c.rank) };
        if (mine.some((a) => a.type === "call_cheat" || a.type === "pass"))
          return says("{name} claims {n} × {rank}: call “Cheat!” or let it stand.", p);
        return says("{name} claims {n} × {rank}. Waiting for the others to call or let it stand.", p);
      }
    }
    if (mine.length) return [tr("Your move.")];
    return v.active_player
      ? says("Waiting for {name}.", { name: bare(v.active_player) })
      : [tr("Waiting for the other players.")];
  }

  function renderTurn(v) {
    replace(turn, ...turnText(v));
    const text = turn.textContent;
    const mineNow = (v.valid_actions || []).length > 0;
    turn.classList.toggle("mine", mineNow && !v.result);
    const key = `${v.play}|${v.phase}|${mineNow}|${v.result ? "over" : ""}`;
    if (v.result) {
      const r = JSON.stringify(v.result);
      if (r !== lastResult) {
        lastResult = r;
        announce(text);
      }
    } else if (key !== lastTurnKey) {
      announce(text);
    }
    lastTurnKey = key;
  }

  function startClock(v) {
    clearInterval(clockTimer);
    warned = false;
    if (v.action_deadline == null || v.result || spectator()) {
      deadline = null;
      clock.hidden = true;
      return;
    }
    const total = Math.max(1, Number(v.action_deadline));
    deadline = { at: performance.now() + total * 1000, total: ui.state.clockSeconds || total };
    clock.hidden = false;
    const tick = () => {
      const left = Math.max(0, Math.ceil((deadline.at - performance.now()) / 1000));
      clockText.textContent = tr("{n} s left to decide", { n: left });
      clockBar.value = Math.round(100 * Math.min(1, left / deadline.total));
      clock.classList.toggle("low", left <= 10);
      if (left <= 10 && !warned) {
        warned = true;
        announce(tr("{n} seconds left to decide.", { n: left }));
      }
      if (left <= 0) clearInterval(clockTimer);
    };
    tick();
    clockTimer = setInterval(tick, 250);
  }

  function renderBoard(v) {
    if (v.game !== "cheat") {
      replace(
        board,
        h(
          "section",
          { class: "card" },
          h("h2", { text: tr("Table") }),
          h("p", { class: "hint", text: tr("This game has no dedicated view here; its actions are below.") }),
        ),
      );
      return;
    }
    const players = (v.players || []).map((p) => {
      const seat = (v.seats || []).find((s) => s.player_id === p.player_id);
      const active = p.player_id === v.active_player && !v.result;
      return h(
        "li",
        {
          class: `player${active ? " active" : ""}${p.player_id === v.you && !spectator() ? " you" : ""}`,
          dataset: { player: p.player_id },
        },
        h(
          "span",
          { class: "p-name" },
          active ? h("span", { class: "marker", "aria-hidden": "true", text: "▶ " }) : null,
          ...name(p.player_id),
        ),
        h("span", { class: "p-count", text: cardCount(p.hand_size) }),
        seat?.ai ? h("span", { class: "badge", text: tr("AI") }) : null,
        seat?.connected === false ? h("span", { class: "badge warn", text: tr("disconnected") }) : null,
        active
          ? h("span", {
              class: "sr-only",
              text: v.phase === "challenge" ? ` ${tr("(claimed)")}` : ` ${tr("(to play)")}`,
            })
          : null,
      );
    });
    const claim = v.claim
      ? h(
          "p",
          { class: "claim" },
          ...says("{name} claims {n} × {rank}", {
            name: h("strong", {}, bare(v.claim.player)),
            n: v.claim.count,
            rank: rankWord(v.claim.rank),
          }),
          ...(v.claim.passed?.length
            ? [
                ` · ${tr("let stand by")} `,
                ...v.claim.passed.flatMap((pid, i) => (i ? [", ", bare(pid)] : [bare(pid)])),
              ]
            : []),
        )
      : null;
    const lc = v.last_call;
    const last = lc
      ? h(
          "div",
          { class: "last-call" },
          h(
            "p",
            {},
            ...says(
              lc.truthful
                ? "{caller} called “Cheat!” on the {rank} of {player}: it was true, so {taker} picked up {cards}."
                : "{caller} called “Cheat!” on the {rank} of {player}: it was a lie, so {taker} picked up {cards}.",
              {
                caller: h("strong", {}, bare(lc.caller)),
                player: bare(lc.player),
                rank: rankWord(lc.rank),
                taker: bare(lc.picked_up_by),
                cards: cardCount(lc.pile_size),
              },
            ),
          ),
          h(
            "ul",
            { class: "cards small", "aria-label": tr("The called cards") },
            (lc.cards || []).map((c) =>
              h("li", {
                class: `card-face${isRed(c.id) ? " red" : ""}`,
                "aria-label": cardSpoken(c.id),
                text: c.name || cardName(c.id),
              }),
            ),
          ),
        )
      : null;
    replace(
      board,
      h(
        "section",
        { class: "card players-box", "aria-labelledby": "players-h" },
        h("h2", { id: "players-h", text: tr("Players") }),
        h("ul", { class: "players" }, players),
      ),
      h(
        "section",
        { class: "card pile", "aria-labelledby": "pile-h" },
        h("h2", { id: "pile-h", text: tr("Pile") }),
        h(
          "p",
          { class: "pile-size" },
          h("span", { class: "pile-stack", "aria-hidden": "true" }),
          tr("{n, plural, one {# card face down} other {# cards face down}}", { n: v.pile_size || 0 }),
        ),
        claim,
        last,
      ),
    );
  }

  // The play action's select_from_zone prompt, when you have one.
  function selectPrompt(a) {
    return (a.prompts || []).find((p) => p.kind === "select_from_zone");
  }

  function renderHand(v) {
    if (spectator()) {
      hand.hidden = true;
      return;
    }
    hand.hidden = false;
    const held = v.my_hand || [];
    const play = (v.valid_actions || []).find((a) => selectPrompt(a));
    const prompt = play ? selectPrompt(play) : null;
    if (!play || ui.state.selectFor !== play.token) {
      ui.state.selected = [];
      ui.state.selectFor = play?.token || "";
    }
    const chosen = new Set(ui.state.selected);
    const max = prompt?.count || 1;
    const candidates = new Set(prompt?.candidates || []);
    const items = held.map((c) => {
      const selectable = Boolean(prompt) && candidates.has(c.id);
      const on = chosen.has(c.id);
      return h(
        "li",
        {},
        h("button", {
          type: "button",
          class: `card-face${isRed(c.id) ? " red" : ""}${on ? " on" : ""}`,
          dataset: { card: c.id, key: `card-${c.id}` },
          "aria-pressed": selectable ? String(on) : false,
          "aria-label": cardSpoken(c.id),
          disabled: !selectable || (!on && chosen.size >= max),
          text: c.name || cardName(c.id),
          onclick: () => {
            const sel = ui.state.selected;
            const i = sel.indexOf(c.id);
            if (i >= 0) sel.splice(i, 1);
            else if (sel.length < max) sel.push(c.id);
            keepFocus(() => {
              renderHand(view());
              renderActions(view());
            });
          },
        }),
      );
    });
    replace(
      hand,
      h("h2", { id: "hand-h", text: tr("Your hand ({cards})", { cards: cardCount(held.length) }) }),
      prompt
        ? h("p", {
            class: "hint",
            id: "hand-prompt",
            text: tr("Put down 1 to {max} cards, face down, as {rank}. Picked {n} of at most {max}.", {
              max,
              n: chosen.size,
              rank: rankWord(v.rank),
            }),
          })
        : null,
      held.length
        ? h("ul", { class: "cards", "aria-label": tr("Your cards") }, items)
        : h("p", { class: "hint", text: tr("No cards.") }),
    );
  }

  function renderActions(v) {
    const list = v.valid_actions || [];
    if (spectator()) {
      replace(
        actions,
        h("h2", { id: "actions-h", text: tr("Watching") }),
        h("p", { class: "hint", text: tr("You are watching: every hand is hidden from you.") }),
        h("button", {
          type: "button",
          class: "secondary",
          id: "stop-watching",
          dataset: { key: "stop-watching" },
          text: tr("Stop watching"),
          onclick: () => ui.stopWatching(),
        }),
      );
      return;
    }
    const buttons = list.map((a) => {
      const p = selectPrompt(a);
      const picked = ui.state.selected.length;
      const min = p ? (p.min ?? p.count ?? 1) : 0;
      const label = actionLabel(a, v);
      return h(
        "button",
        {
          type: "button",
          class: `act act-${a.type}`,
          dataset: { actionId: a.id, actionType: a.type, token: a.token, key: `act-${a.type}` },
          disabled: ui.state.pending || (Boolean(p) && picked < Math.max(1, min)),
          onclick: () => choose(a, p),
        },
        ...label,
        p ? ` (${cardCount(picked)})` : "",
      );
    });
    const undo = v.undo
      ? h("button", {
          type: "button",
          class: "quiet",
          id: "undo",
          dataset: { key: "undo" },
          disabled: !v.undo.available,
          "aria-describedby": "undo-hint",
          text: tr("Undo the last move"),
          onclick: () => ui.send({ type: "undo" }),
        })
      : null;
    replace(
      actions,
      h("h2", { id: "actions-h", text: list.length ? tr("Your move") : tr("Actions") }),
      list.length
        ? h("div", { class: "row act-row" }, buttons)
        : h("p", {
            class: "hint",
            text: v.result ? tr("The game is over.") : tr("Nothing to do right now: wait for the others."),
          }),
      undo
        ? h(
            "p",
            { class: "undo-line" },
            undo,
            h("span", {
              class: "hint",
              id: "undo-hint",
              text: v.result
                ? ` ${tr("The game is over: its result stands.")}`
                : ` ${tr("{n} of {limit} moves can be taken back.", { n: v.undo.available, limit: v.undo.limit })}`,
            }),
          )
        : null,
    );
  }

  // actionLabel words a Cheat action on the page (the server words it in
  // English); another game's label stays the server's, marked English.
  function actionLabel(a, v) {
    if (v.game === "cheat") {
      if (a.type === "play_cards") return [tr("Play as {rank}", { rank: rankWord(v.rank) })];
      if (a.type === "pass") return [tr("Let it stand")];
      if (a.type === "call_cheat" && v.claim)
        return says("Cheat! ({name} claims {n} × {rank})", {
          name: bare(v.claim.player),
          n: v.claim.count,
          rank: rankWord(v.claim.rank),
        });
    }
    return [h("span", { lang: "en", text: a.label })];
  }

  function choose(a, p) {
    const msg = { type: "choose_action", action_id: a.id, token: a.token, submission: `c${++ui.state.submission}` };
    if (p) msg.targets = [{ slot: p.slot, chosen: ui.state.selected.slice() }];
    if (ui.send(msg)) {
      ui.state.pending = msg.submission;
      for (const b of actions.querySelectorAll("button.act")) b.disabled = true;
    }
  }

  function logText(ev) {
    switch (ev?.type) {
      case "played":
        return says("{name} put down {cards} as {rank}.", {
          name: bare(ev.player),
          cards: cardCount(ev.count),
          rank: rankWord(ev.rank),
        });
      case "passed":
        return says("{name} let it stand.", { name: bare(ev.player) });
      case "called":
        return says(
          ev.truthful
            ? "{name} called “Cheat!” on {claimer}: true ({shown}); {taker} picked up {cards}."
            : "{name} called “Cheat!” on {claimer}: a lie ({shown}); {taker} picked up {cards}.",
          {
            name: bare(ev.player),
            claimer: bare(ev.claimer),
            shown: (ev.cards || []).map(cardName).join(" "),
            taker: bare(ev.picked_up_by),
            cards: cardCount(ev.count),
          },
        );
      case "game_over":
        return says("{name} emptied their hand and won.", { name: bare(ev.winner) });
      case "timed_out":
        return says("{name} ran out of time; the game moved for them.", { name: bare(ev.player) });
      case "undone":
        return says("{name} took the last move back.", { name: bare(ev.player) });
      default:
        return ev?.type ? [h("span", { lang: "en", text: ev.type.replace(/_/g, " ") })] : [tr("Something happened.")];
    }
  }

  function renderLog(v) {
    const entries = v.log || [];
    const seq = entries.length ? entries[entries.length - 1].sequence : 0;
    replace(
      log,
      entries.map((e) => h("li", { value: e.sequence, dataset: { seq: e.sequence } }, ...logText(e.event))),
    );
    if (seq !== lastSeq) {
      lastSeq = seq;
      log.scrollTop = log.scrollHeight;
    }
  }

  function resultText(r, v) {
    const reason = h("span", {}, saidNode(resultReason(r.reason)));
    if (!r.winner) return says("The game ended without a winner ({reason}).", { reason });
    const you = !spectator() && r.winner === v.you;
    if (r.reason === "emptied_hand")
      return you
        ? [tr("You won by emptying your hand!")]
        : says("{name} won by emptying their hand.", { name: bare(r.winner) });
    return you
      ? says("You won ({reason})!", { reason })
      : says("{name} won ({reason}).", { name: bare(r.winner), reason });
  }

  function renderResult(v) {
    if (!v.result) {
      result.hidden = true;
      return;
    }
    result.hidden = false;
    const won = !spectator() && v.result.winner === v.you;
    result.classList.toggle("won", won);
    replace(
      result,
      h("h2", { id: "result-h", text: won ? tr("You won!") : tr("Game over") }),
      h("p", {}, ...resultText(v.result, v)),
      h(
        "div",
        { class: "row" },
        spectator()
          ? h("button", {
              type: "button",
              id: "back-lobby",
              dataset: { key: "back-lobby" },
              text: tr("Back to the lobby"),
              onclick: () => ui.stopWatching(),
            })
          : h("button", {
              type: "button",
              id: "back-lobby",
              dataset: { key: "back-lobby" },
              text: tr("Leave the table"),
              onclick: () => ui.send({ type: "leave" }),
            }),
      ),
    );
  }

  function stop() {
    cards.stop();
    clearInterval(clockTimer);
    deadline = null;
    lastTurnKey = "";
    lastResult = "";
  }

  return { render, stop };
}
