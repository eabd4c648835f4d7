// Storyloom rooms: the lobby and the room screen (docs/rooms-ui.md). One
// connection (connection.js) carries the SAGE lobby and game frames; this
// module keeps the latest of each, switches screens, and shows refusals.

import { aiText, formatText, wordsNode } from "./offerwords.js";
import { loadCardText } from "./cardwords.js";
import { Connection, frameKind } from "./connection.js";
import { createLobby, savedName, roomIdFrom } from "./lobby.js";
import { createTable } from "./table.js";
import { announce, h, replace, setupTheme, toast } from "../js/dom.js";
import { savedPageLocale, setPageLocale, tr } from "../js/lang.js";
import { roomsReason, saidNode } from "../online/reasons.js";

// The page speaks the language last chosen in a game (js/lang.js), from
// its first words on.
setPageLocale(savedPageLocale());

const WATCH_KEY = "storyloom-rooms-watch";

const state = {
  lobby: null, // the latest LobbyView
  game: null, // the latest GameView or SpectatorView
  spectator: false,
  catalog: null,
  screen: "",
  linkRoom: linkRoom(),
  roomName: "",
  clockSeconds: 0,
  selected: [],
  selectFor: "",
  submission: 0,
  pending: null,
  aiSeat: "",
  aiKind: "",
  triedName: false,
  conn: { state: "connecting" },
};

function linkRoom() {
  const hash = new URLSearchParams(window.location.hash.replace(/^#/, ""));
  const query = new URLSearchParams(window.location.search);
  return hash.get("room") || query.get("room") || "";
}

function session(key, value) {
  try {
    if (value === undefined) return sessionStorage.getItem(key) || "";
    if (value) sessionStorage.setItem(key, value);
    else sessionStorage.removeItem(key);
  } catch {
    /* private mode */
  }
  return "";
}

const main = document.getElementById("main");
const lobbyRoot = document.getElementById("lobby");
const tableRoot = document.getElementById("table");
const notice = document.getElementById("notice");
const connPill = document.getElementById("conn");

const transport = new URLSearchParams(window.location.search).get("transport") || "auto";
// The deck rules' refusals (engine/rooms/codes.go), shown in the deck panel.
const DECK_CODES = [
  "below_minimum",
  "above_maximum",
  "copy_limit",
  "missing_commander",
  "commander_not_in_deck",
  "commander_not_legendary_creature",
  "out_of_identity",
  "unknown_card",
  "deck_required",
];

const conn = new Connection({ onFrame, onStatus, transport });

const ui = {
  state,
  send(cmd) {
    if (conn.send(cmd)) return true;
    showRejection({ code: "not_connected" });
    return false;
  },
  watch(roomId) {
    session(WATCH_KEY, roomId);
    return ui.send({ type: "spectate_room", room_id: roomId });
  },
  stopWatching() {
    session(WATCH_KEY, "");
    state.spectator = false;
    state.game = null;
    setLinkRoom("");
    // A spectator's frames are ignored by the server: closing the
    // connection is how it stops. Over WebSocket the next hello lands in
    // the lobby with the same session; over HTTP the spectating connection
    // keeps the session until it idles out, so a fresh one is started.
    if (conn.mode === "http") conn.forgetSession();
    conn.restart();
  },
  setLinkRoom,
  shareLink(roomId) {
    const u = new URL(window.location.href);
    u.search = "";
    u.hash = `room=${encodeURIComponent(roomId)}`;
    return u.href;
  },
  async copy(text) {
    try {
      await navigator.clipboard.writeText(text);
      toast(tr("Link copied."));
    } catch {
      toast(tr("Copy the link from the box: the browser did not allow copying."));
    }
  },
  aiKinds(setup) {
    const all = state.catalog?.ai_opponents || [];
    const f = (state.catalog?.formats || []).find((x) => x.game_setup === setup);
    return f?.ai?.length ? all.filter((a) => f.ai.includes(a.id)) : all;
  },
  mySeat() {
    const l = state.lobby;
    return l?.room?.seats.find((s) => s.occupied_by && s.occupied_by === l.you);
  },
  formatName(setup) {
    const f = (state.catalog?.formats || []).find((x) => x.game_setup === setup);
    return formatText(setup, f?.name || setup).text;
  },
  /** A format's name as a node, in the page's words or the server's (marked English). */
  formatNode(setup) {
    const f = (state.catalog?.formats || []).find((x) => x.game_setup === setup);
    return wordsNode(formatText(setup, f?.name || setup));
  },
  /**
   * An AI seat's name ({text, lang}): the page's word for its kind when
   * the server named the seat by its kind (or not at all), else the
   * server's name, marked English.
   */
  aiSeat(kind, name) {
    const k = (state.catalog?.ai_opponents || []).find((a) => a.id === kind);
    if (!name || name === (k?.name || kind)) return aiText(kind, k?.name || kind);
    return { text: name, lang: "en" };
  },
  /** An AI kind's name as a node, in the page's words or the server's (marked English). */
  aiNode(id) {
    const k = (state.catalog?.ai_opponents || []).find((a) => a.id === id);
    return wordsNode(aiText(id, k?.name || id));
  },
};

function setLinkRoom(id) {
  state.linkRoom = id;
  const u = new URL(window.location.href);
  u.searchParams.delete("room");
  u.hash = id ? `room=${encodeURIComponent(id)}` : "";
  if (u.href !== window.location.href) history.replaceState(null, "", u.href);
}

const lobby = createLobby(lobbyRoot, ui);
const table = createTable(tableRoot, ui);

function show(screen) {
  if (state.screen === screen) return;
  const moving = state.screen !== "";
  state.screen = screen;
  main.dataset.screen = screen;
  lobbyRoot.hidden = screen !== "lobby";
  tableRoot.hidden = screen !== "table";
  if (screen !== "table") table.stop();
  document.title = screen === "table" ? tr("Storyloom — room") : tr("Storyloom — rooms");
  if (moving) {
    notice.hidden = true; // a refusal belongs to the screen it was made on
    main.focus({ preventScroll: true });
  }
}

function onFrame(frame, kind) {
  switch (kind) {
    case "lobby": {
      const wasIn = state.lobby?.room?.room_id;
      state.lobby = frame;
      state.game = null;
      state.spectator = false;
      const room = frame.room;
      if (room) {
        state.roomName = room.config.name || ui.formatName(room.config.game_setup);
        state.clockSeconds = room.config.action_seconds || 0;
        setLinkRoom(room.room_id);
        if (wasIn !== room.room_id)
          announce(tr("You are in {room}, seat {n}.", { room: state.roomName, n: seatOf(frame) + 1 }));
      } else if (wasIn) {
        setLinkRoom("");
        announce(tr("You left the room."));
      }
      if (!state.catalog && (frame.valid_commands || []).includes("request_catalog") && !state.askedCatalog) {
        state.askedCatalog = true;
        conn.send({ type: "request_catalog" });
      }
      // Resume watching after a reconnect or a reload.
      const watching = session(WATCH_KEY);
      if (watching && !room && (frame.valid_commands || []).includes("spectate_room") && !state.resumedWatch) {
        state.resumedWatch = true;
        conn.send({ type: "spectate_room", room_id: watching });
      }
      // Carry the name this browser used last into a fresh session.
      const name = savedName();
      if (!frame.name && name && !state.triedName && (frame.valid_commands || []).includes("set_name")) {
        state.triedName = true;
        conn.send({ type: "set_name", name });
      }
      show("lobby");
      lobby.render();
      break;
    }
    case "game":
    case "spectator": {
      const first = state.screen !== "table";
      state.game = frame;
      state.spectator = kind === "spectator";
      state.pending = null;
      if (state.spectator) session(WATCH_KEY, frame.room_id);
      if (frame.room_id) {
        setLinkRoom(frame.room_id);
        const listed = (state.lobby?.directory || []).find((r) => r.room_id === frame.room_id);
        if (state.lobby?.room?.room_id !== frame.room_id && listed)
          state.roomName = listed.config.name || ui.formatName(listed.config.game_setup);
        if (!state.roomName) state.roomName = frame.format?.id ? ui.formatName(frame.format.id) : "Cheat";
      }
      show("table");
      table.render();
      if (first) announce(state.spectator ? tr("You are watching the game.") : tr("The game is on."));
      break;
    }
    case "catalog":
      state.catalog = frame;
      if (state.lobby) lobby.render();
      if (state.game) table.render();
      break;
    case "lobby_error": {
      const e = frame.lobby_error;
      if (e.code === "unknown_session") {
        toast(tr("Your earlier session had expired: you have a new one."));
        break;
      }
      if (e.code === "session_taken") {
        showTaken();
        break;
      }
      if (["unknown_room", "not_running"].includes(e.code) && session(WATCH_KEY) && !state.spectator)
        session(WATCH_KEY, "");
      if (DECK_CODES.includes(e.code) && state.lobby?.room) {
        state.deckError = e; // shown by the deck panel, beside the deck
        lobby.render();
        break;
      }
      showRejection(e);
      break;
    }
    default:
      break; // an unknown frame is ignored, as the protocol asks
  }
  if (document.documentElement.dataset.storyloom !== "ready" && (state.lobby || state.game)) {
    document.documentElement.dataset.storyloom = "ready";
  }
}

function seatOf(v) {
  return v.room?.seats.find((s) => s.occupied_by === v.you)?.seat ?? 0;
}

function showRejection(e) {
  notice.hidden = false;
  notice.className = "notice bad";
  notice.dataset.code = e.code || "";
  replace(
    notice,
    // In the page's language by its code; the server's English (marked
    // so) for a code the page does not know.
    h(
      "p",
      {},
      h("strong", { text: `${tr("Refused:")} ` }),
      saidNode(roomsReason(e)),
      " ",
      h("code", { class: "code", translate: "no", text: `(${e.code})` }),
    ),
    h("button", {
      type: "button",
      class: "quiet small",
      text: tr("Dismiss"),
      "aria-label": tr("Dismiss the message"),
      onclick: () => {
        notice.hidden = true;
      },
    }),
  );
}

function showTaken() {
  notice.hidden = false;
  notice.className = "notice warn";
  notice.dataset.code = "session_taken";
  replace(
    notice,
    h("p", { text: tr("This session was opened in another tab or window, which now holds your seat.") }),
    h("button", {
      type: "button",
      text: tr("Use it here instead"),
      onclick: () => {
        notice.hidden = true;
        conn.stopped = false;
        conn.restart();
      },
    }),
  );
}

let waitTimer = 0;
function onStatus(s) {
  state.conn = s;
  clearInterval(waitTimer);
  if (s.state === "connecting") state.resumedWatch = false;
  const via = s.transport === "http" ? " (HTTP)" : "";
  connPill.dataset.state = s.state;
  connPill.dataset.transport = s.transport;
  if (s.state === "open") {
    state.opens = (state.opens || 0) + 1;
    replace(connPill, `${tr("Connected")}${via}`);
  } else if (s.state === "waiting") {
    const until = performance.now() + (s.retryIn || 0);
    const draw = () =>
      replace(
        connPill,
        tr("Reconnecting in {n} s…", { n: Math.max(0, Math.ceil((until - performance.now()) / 1000)) }),
      );
    draw();
    waitTimer = setInterval(draw, 500);
  } else if (s.state === "taken") {
    replace(connPill, tr("Opened elsewhere"));
  } else {
    replace(connPill, tr("Connecting…"));
  }
}

// Theme toggle: every page's (js/dom.js), one stored choice.
setupTheme();

// The card game's rules text in the page's language (cardwords.js): the
// lobby's deck builder is drawn again when it arrives (the card table
// draws itself again).
loadCardText(() => {
  if (state.lobby) lobby.render();
});

window.addEventListener("hashchange", () => {
  const id = linkRoom();
  if (id !== state.linkRoom) {
    state.linkRoom = roomIdFrom(id);
    if (state.lobby) lobby.render();
  }
});

// Test and debugging hook: the latest frames, read-only.
Object.defineProperty(window, "storyloomRooms", {
  value: Object.freeze({
    get lobby() {
      return state.lobby;
    },
    get game() {
      return state.game;
    },
    get transport() {
      return conn.mode;
    },
    get opens() {
      return state.opens || 0;
    }, // connections opened on this page
    get submission() {
      return state.submission;
    }, // choose_action frames sent ("c<n>" is the last)

    frameKind,
  }),
});

show("lobby");
conn.start();
