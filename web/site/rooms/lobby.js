// The lobby screen: your name, the room you are in (seats, ready, AI seats,
// the share link, leave), or the public directory, a room from a link and
// the form that creates a room. Every control is drawn from the view's
// valid_commands; the server decides what is legal.

import { h, keepFocus, replace } from "../js/dom.js";
import { seatLabel } from "./names.js";
import { tr } from "../js/lang.js";
import { createDeckPanel, loadPrecons, needsDeck, preconDeck, preconsFor } from "./decks.js";
import { aiAbout, aiText, formatAbout, formatText } from "./offerwords.js";

const NAME_KEY = "storyloom-rooms-name";

export function savedName() {
  try {
    return localStorage.getItem(NAME_KEY) || "";
  } catch {
    return "";
  }
}

function saveName(name) {
  try {
    localStorage.setItem(NAME_KEY, name);
  } catch {
    /* private mode */
  }
}

/** Builds the lobby's fixed parts once; render() fills the rest. */
export function createLobby(root, ui) {
  const can = (cmd) => (ui.state.lobby?.valid_commands || []).includes(cmd);
  const deckPanel = createDeckPanel(ui);

  // Your name.
  const nameInput = h("input", {
    id: "name",
    name: "name",
    autocomplete: "nickname",
    maxlength: 32,
    required: true,
    dataset: { key: "name" },
  });
  const nameForm = h(
    "form",
    {
      class: "name-form",
      "aria-labelledby": "name-h",
      onsubmit: (e) => {
        e.preventDefault();
        const name = nameInput.value.trim();
        if (ui.send({ type: "set_name", name })) {
          saveName(name);
          nameInput.dataset.dirty = "";
        }
      },
    },
    h("h2", { id: "name-h", text: tr("Your name") }),
    h(
      "div",
      { class: "row" },
      h("label", { for: "name", class: "sr-only", text: tr("Display name") }),
      nameInput,
      h("button", { type: "submit", dataset: { key: "name-save" }, text: tr("Save name") }),
    ),
    h("p", { class: "hint", id: "name-now" }),
  );
  nameInput.addEventListener("input", () => {
    nameInput.dataset.dirty = "1";
  });

  const invite = h("section", { class: "card invite", id: "invite", "aria-labelledby": "invite-h", hidden: true });
  const roomPanel = h("section", { class: "card room", id: "room", "aria-labelledby": "room-h", hidden: true });

  // Create a room.
  const createBox = h(
    "section",
    { class: "card create", id: "create", "aria-labelledby": "create-h" },
    h("h2", { id: "create-h", text: tr("Create a room") }),
    h("p", { class: "hint", text: tr("Loading the games…") }),
  );

  // The directory and joining by id.
  const dirList = h("ul", { class: "directory", id: "directory", "aria-labelledby": "dir-h" });
  // The directory comes a page at a time (the server's page size); browse
  // asks for another.
  const browse = (page) => ui.send({ type: "browse", page });
  const pageNote = h("span", { class: "hint", id: "dir-page", "aria-live": "polite" });
  const earlier = h("button", {
    type: "button",
    class: "secondary small",
    dataset: { key: "dir-earlier" },
    text: tr("Earlier rooms"),
    onclick: () => browse((ui.state.lobby?.directory_page || 0) - 1),
  });
  const later = h("button", {
    type: "button",
    class: "secondary small",
    dataset: { key: "dir-later" },
    text: tr("More rooms"),
    onclick: () => browse((ui.state.lobby?.directory_page || 0) + 1),
  });
  const pager = h("nav", { class: "row pager", "aria-label": tr("Pages of public rooms") }, earlier, pageNote, later);
  let steppedBackFrom = -1;
  const joinInput = h("input", {
    id: "join-id",
    name: "room",
    autocomplete: "off",
    spellcheck: "false",
    dataset: { key: "join-id" },
  });
  const joinBox = h(
    "form",
    {
      class: "join-form",
      onsubmit: (e) => {
        e.preventDefault();
        const id = roomIdFrom(joinInput.value);
        if (id) ui.send({ type: "join_room", room_id: id });
      },
    },
    h("label", { for: "join-id", text: tr("Room id or link") }),
    h(
      "div",
      { class: "row" },
      joinInput,
      h("button", { type: "submit", dataset: { key: "join-id-join" }, text: tr("Join") }),
      h("button", {
        type: "button",
        class: "secondary",
        dataset: { key: "join-id-watch" },
        text: tr("Watch"),
        onclick: () => {
          const id = roomIdFrom(joinInput.value);
          if (id) ui.watch(id);
        },
      }),
    ),
  );
  const dirBox = h(
    "section",
    { class: "card directory-box", id: "rooms-list", "aria-labelledby": "dir-h" },
    h("h2", { id: "dir-h", text: tr("Public rooms") }),
    dirList,
    pager,
    joinBox,
  );

  const columns = h("div", { class: "lobby-grid" }, createBox, dirBox);
  replace(root, h("h1", { class: "sr-only", text: tr("Rooms lobby") }), nameForm, invite, roomPanel, columns);

  let createdFor = null;

  function render() {
    const v = ui.state.lobby;
    if (!v) return;
    // Name.
    if (document.activeElement !== nameInput && !nameInput.dataset.dirty) nameInput.value = v.name || savedName();
    replace(
      nameForm.querySelector("#name-now"),
      v.name
        ? tr("Others see you as {name}.", { name: v.name })
        : tr("You have no name yet: others see your seat number."),
    );
    for (const el of nameForm.querySelectorAll("input, button")) el.disabled = !can("set_name");

    keepFocus(() => {
      renderInvite();
      renderRoom(v.room);
      renderDirectory(v.directory || [], v.directory_page || 0, Boolean(v.directory_more));
    });
    columns.hidden = Boolean(v.room);
    if (ui.state.catalog && createdFor !== ui.state.catalog) {
      createdFor = ui.state.catalog;
      buildCreateForm();
    }
    for (const el of createBox.querySelectorAll("input, select, button")) el.disabled = !can("create_room");
    for (const el of joinBox.querySelectorAll("input, button")) el.disabled = !can("join_room");
  }

  function renderInvite() {
    const id = ui.state.linkRoom;
    const v = ui.state.lobby;
    if (!id || v.room) {
      invite.hidden = true;
      return;
    }
    invite.hidden = false;
    const listed = (v.directory || []).find((r) => r.room_id === id);
    replace(
      invite,
      h("h2", {
        id: "invite-h",
        text: listed?.config?.name ? tr("Invited to “{name}”", { name: listed.config.name }) : tr("Invited to a room"),
      }),
      h(
        "p",
        {},
        tr("Room"),
        " ",
        h("code", { text: id }),
        listed
          ? ` · ${listed.state === "gathering" ? tr("gathering") : tr("playing")} · ${tr("{n} of {total} seated", { n: listed.filled, total: listed.config.seats })}`
          : "",
      ),
      h(
        "div",
        { class: "row" },
        h("button", {
          type: "button",
          dataset: { key: "invite-join" },
          disabled: !can("join_room"),
          text: tr("Take a seat"),
          onclick: () => ui.send({ type: "join_room", room_id: id }),
        }),
        h("button", {
          type: "button",
          class: "secondary",
          dataset: { key: "invite-watch" },
          disabled: !can("spectate_room"),
          text: tr("Watch"),
          onclick: () => ui.watch(id),
        }),
        h("button", {
          type: "button",
          class: "quiet",
          dataset: { key: "invite-dismiss" },
          text: tr("Dismiss"),
          onclick: () => {
            ui.setLinkRoom("");
            render();
          },
        }),
      ),
    );
  }

  function renderRoom(room) {
    if (!room) {
      roomPanel.hidden = true;
      return;
    }
    roomPanel.hidden = false;
    const v = ui.state.lobby;
    const mine = room.seats.find((s) => s.occupied_by && s.occupied_by === v.you);
    const link = ui.shareLink(room.room_id);
    const cfg = room.config;
    const facts = [
      tr("{n, plural, one {# seat} other {# seats}}", { n: cfg.seats }),
      cfg.visibility === "private" ? tr("private") : tr("public"),
      cfg.undo_enabled ? tr("undo on") : tr("undo off"),
      cfg.action_seconds ? tr("{n} s per decision", { n: cfg.action_seconds }) : tr("no clock"),
    ];
    const seatItems = room.seats.map((s) => {
      const you = mine && s.seat === mine.seat;
      const status = s.ai || s.occupied_by ? (s.ready ? "ready" : "not ready") : "open";
      const statusWord = { ready: tr("ready"), "not ready": tr("not ready"), open: tr("open") }[status];
      return h(
        "li",
        {
          class: `seat${you ? " you" : ""}${s.ai ? " ai" : ""}${!s.ai && !s.occupied_by ? " open" : ""}`,
          dataset: { seat: s.seat },
        },
        h("span", { class: "seat-no", text: tr("Seat {n}", { n: s.seat + 1 }) }),
        h("span", { class: "seat-name" }, seatLabel(s, ui.aiNode), you ? ` ${tr("(you)")}` : ""),
        s.connected === false ? h("span", { class: "badge warn", text: tr("disconnected") }) : null,
        h("span", { class: `badge ${status === "ready" ? "good" : ""}`, text: statusWord }),
        s.ai && can("remove_ai")
          ? h("button", {
              type: "button",
              class: "quiet small",
              dataset: { key: `remove-ai-${s.seat}` },
              "aria-label": tr("Remove the AI from seat {n}", { n: s.seat + 1 }),
              text: tr("Remove"),
              onclick: () => ui.send({ type: "remove_ai", seat: s.seat }),
            })
          : null,
      );
    });
    const open = room.seats.filter((s) => !s.ai && !s.occupied_by);
    const kinds = ui.aiKinds(cfg.game_setup);
    let aiForm = null;
    if (can("add_ai") && open.length && kinds.length) {
      if (!open.some((s) => String(s.seat) === ui.state.aiSeat)) ui.state.aiSeat = String(open[0].seat);
      if (!kinds.some((k) => k.id === ui.state.aiKind)) ui.state.aiKind = kinds[0].id;
      const aiDecks = needsDeck(ui, cfg.game_setup) ? preconsFor(ui, cfg.game_setup) : [];
      if (aiDecks.length && !aiDecks.some((d) => d.id === ui.state.aiDeck))
        ui.state.aiDeck = aiDecks[(room.seats.length - open.length) % aiDecks.length].id;
      aiForm = h(
        "form",
        {
          class: "ai-form",
          onsubmit: (e) => {
            e.preventDefault();
            const d = aiDecks.find((x) => x.id === ui.state.aiDeck);
            ui.send({
              type: "add_ai",
              seat: Number(ui.state.aiSeat),
              kind: ui.state.aiKind,
              ...(d ? preconDeck(ui, d) : {}),
            });
          },
        },
        h("h3", { text: tr("Add an AI player") }),
        h(
          "div",
          { class: "row" },
          h("label", { for: "ai-seat", text: tr("Seat") }),
          h(
            "select",
            {
              id: "ai-seat",
              dataset: { key: "ai-seat" },
              onchange: (e) => {
                ui.state.aiSeat = e.target.value;
              },
            },
            open.map((s) =>
              h("option", {
                value: String(s.seat),
                selected: String(s.seat) === ui.state.aiSeat,
                text: tr("Seat {n}", { n: s.seat + 1 }),
              }),
            ),
          ),
          h("label", { for: "ai-kind", text: tr("Kind") }),
          h(
            "select",
            {
              id: "ai-kind",
              dataset: { key: "ai-kind" },
              onchange: (e) => {
                ui.state.aiKind = e.target.value;
                renderRoom(ui.state.lobby.room);
              },
            },
            kinds.map((k) => {
              const w = aiText(k.id, k.name);
              return h("option", {
                value: k.id,
                selected: k.id === ui.state.aiKind,
                lang: w.lang || false,
                text: w.text,
              });
            }),
          ),
          aiDecks.length ? h("label", { for: "ai-deck", text: tr("Deck") }) : null,
          aiDecks.length
            ? h(
                "select",
                {
                  id: "ai-deck",
                  dataset: { key: "ai-deck" },
                  onchange: (e) => {
                    ui.state.aiDeck = e.target.value;
                  },
                },
                aiDecks.map((d) =>
                  h("option", {
                    value: d.id,
                    selected: d.id === ui.state.aiDeck,
                    lang: "en",
                    translate: "no",
                    text: d.name,
                  }),
                ),
              )
            : null,
          h("button", { type: "submit", dataset: { key: "ai-add" }, text: tr("Add AI") }),
        ),
        h(
          "p",
          { class: "hint" },
          aiAbout(ui.state.aiKind, cfg.game_setup, kinds.find((k) => k.id === ui.state.aiKind)?.description || ""),
        ),
      );
    }
    const ready = Boolean(mine?.ready);
    let deckBox = null;
    if (needsDeck(ui, cfg.game_setup)) loadPrecons(() => renderRoom(ui.state.lobby?.room));
    if (mine && needsDeck(ui, cfg.game_setup)) {
      deckBox = deckPanel.box;
      deckPanel.render(room, mine);
    }
    replace(
      roomPanel,
      h("h2", { id: "room-h" }, cfg.name || ui.formatNode(cfg.game_setup)),
      h("p", { class: "facts" }, ui.formatNode(cfg.game_setup), ` · ${facts.join(" · ")}`),
      h(
        "div",
        { class: "share" },
        h("label", { for: "share-link", text: tr("Share this link") }),
        h(
          "div",
          { class: "row" },
          h("input", {
            id: "share-link",
            readonly: true,
            value: link,
            dataset: { key: "share-link" },
            onfocus: (e) => e.target.select(),
          }),
          h("button", {
            type: "button",
            class: "secondary",
            dataset: { key: "share-copy" },
            text: tr("Copy"),
            onclick: () => ui.copy(link),
          }),
        ),
      ),
      h("h3", { text: tr("Seats") }),
      h("ul", { class: "seats", "aria-label": tr("Seats") }, seatItems),
      h(
        "div",
        { class: "row controls" },
        h("button", {
          type: "button",
          id: "ready",
          class: ready ? "secondary" : "",
          "aria-pressed": ready ? "true" : "false",
          disabled: !can("ready"),
          dataset: { key: "ready" },
          text: ready ? tr("Not ready") : tr("Ready"),
          onclick: () => ui.send({ type: "ready", ready: !ready }),
        }),
        h("button", {
          type: "button",
          class: "quiet",
          id: "leave",
          disabled: !can("leave"),
          dataset: { key: "leave" },
          text: tr("Leave the room"),
          onclick: () => ui.send({ type: "leave" }),
        }),
      ),
      h("p", { class: "hint", text: tr("The game starts when every seat is taken and ready.") }),
      deckBox,
      aiForm,
    );
  }

  function renderDirectory(list, page, more) {
    pager.hidden = page === 0 && !more;
    replace(pageNote, tr("Page {n}", { n: page + 1 }));
    earlier.disabled = page === 0 || !can("browse");
    later.disabled = !more || !can("browse");
    if (!list.length) {
      if (page > 0 && can("browse") && steppedBackFrom !== page) {
        // The rooms of this page closed: step back to one that has some.
        steppedBackFrom = page;
        browse(page - 1);
      }
      replace(
        dirList,
        h("li", {
          class: "empty",
          text:
            page > 0
              ? tr("No rooms on this page any more.")
              : tr("No public rooms yet. Create one, or join a room by its link."),
        }),
      );
      return;
    }
    steppedBackFrom = -1;
    replace(
      dirList,
      list.map((r) => {
        const title = r.config.name || ui.formatName(r.config.game_setup);
        const playing = r.state !== "gathering";
        const joinable = !playing && r.filled < r.config.seats;
        return h(
          "li",
          { class: "dir-room", dataset: { room: r.room_id } },
          h(
            "div",
            { class: "dir-text" },
            h("strong", {}, r.config.name ? title : ui.formatNode(r.config.game_setup)),
            h(
              "span",
              { class: "hint" },
              ui.formatNode(r.config.game_setup),
              ` · ${[
                tr("{n} of {total} seated", { n: r.filled, total: r.config.seats }),
                playing ? tr("playing") : tr("gathering"),
                r.spectators ? tr("{n, plural, one {# watcher} other {# watchers}}", { n: r.spectators }) : "",
                r.config.undo_enabled ? tr("undo") : "",
                r.config.action_seconds ? tr("{n} s clock", { n: r.config.action_seconds }) : "",
              ]
                .filter(Boolean)
                .join(" · ")}`,
            ),
          ),
          h(
            "div",
            { class: "row" },
            joinable
              ? h("button", {
                  type: "button",
                  dataset: { key: `join-${r.room_id}` },
                  disabled: !can("join_room"),
                  "aria-label": tr("Join {name}", { name: title }),
                  text: tr("Join"),
                  onclick: () => ui.send({ type: "join_room", room_id: r.room_id }),
                })
              : null,
            playing
              ? h("button", {
                  type: "button",
                  class: "secondary",
                  dataset: { key: `watch-${r.room_id}` },
                  disabled: !can("spectate_room"),
                  "aria-label": tr("Watch {name}", { name: title }),
                  text: tr("Watch"),
                  onclick: () => ui.watch(r.room_id),
                })
              : null,
          ),
        );
      }),
    );
  }

  function buildCreateForm() {
    const formats = ui.state.catalog.formats || [];
    if (!formats.length) {
      replace(
        createBox,
        h("h2", { id: "create-h", text: tr("Create a room") }),
        h("p", { text: tr("This server hosts no games.") }),
      );
      return;
    }
    const fmt = h(
      "select",
      { id: "c-format", name: "game_setup", dataset: { key: "c-format" } },
      formats.map((f) => {
        const w = formatText(f.game_setup, f.name);
        return h("option", { value: f.game_setup, lang: w.lang || false, text: w.text });
      }),
    );
    const seats = h("input", {
      id: "c-seats",
      name: "seats",
      type: "number",
      inputmode: "numeric",
      required: true,
      dataset: { key: "c-seats" },
    });
    const desc = h("p", { class: "hint", id: "c-format-desc" });
    const name = h("input", {
      id: "c-name",
      name: "name",
      maxlength: 32,
      autocomplete: "off",
      placeholder: tr("Friday cards"),
      dataset: { key: "c-name" },
    });
    const priv = h("input", { id: "c-private", name: "visibility", type: "checkbox", dataset: { key: "c-private" } });
    const undo = h("input", { id: "c-undo", name: "undo_enabled", type: "checkbox", dataset: { key: "c-undo" } });
    const clock = h("input", {
      id: "c-clock",
      name: "action_seconds",
      type: "number",
      inputmode: "numeric",
      min: 0,
      max: 3600,
      value: "0",
      dataset: { key: "c-clock" },
      "aria-describedby": "c-clock-hint",
    });
    const sync = () => {
      const f = formats.find((x) => x.game_setup === fmt.value) || formats[0];
      const lo = Math.max(2, f.min_seats || 2);
      const hi = Math.min(8, f.max_seats || 8);
      seats.min = String(lo);
      seats.max = String(hi);
      const n = Number(seats.value);
      if (!n || n < lo || n > hi) seats.value = String(Math.min(hi, Math.max(lo, 4)));
      replace(
        desc,
        f.description ? formatAbout(f.game_setup, f.description) : "",
        ` ${lo === hi ? tr("{n} seats.", { n: lo }) : tr("{lo} to {hi} seats.", { lo, hi })}`,
      );
    };
    fmt.addEventListener("change", sync);
    sync();
    const form = h(
      "form",
      {
        class: "create-form",
        onsubmit: (e) => {
          e.preventDefault();
          const config = { seats: Number(seats.value), game_setup: fmt.value };
          if (name.value.trim()) config.name = name.value.trim();
          if (priv.checked) config.visibility = "private";
          if (undo.checked) config.undo_enabled = true;
          const secs = Number(clock.value || 0);
          if (secs) config.action_seconds = secs;
          ui.send({ type: "create_room", config });
        },
      },
      field("c-format", tr("Game"), fmt),
      desc,
      field("c-seats", tr("Seats"), seats),
      field("c-name", tr("Table name (optional)"), name),
      h(
        "div",
        { class: "checks" },
        h("label", { for: "c-private" }, priv, ` ${tr("Private: only people with the link can find it")}`),
        h("label", { for: "c-undo" }, undo, ` ${tr("Allow undo (casual play: a taken-back move may reveal cards)")}`),
      ),
      field("c-clock", tr("Seconds per decision"), clock),
      h("p", {
        class: "hint",
        id: "c-clock-hint",
        text: tr("0 for no clock, else 5 to 3600. When it runs out the game passes for you."),
      }),
      h("button", { type: "submit", dataset: { key: "c-create" }, text: tr("Create room") }),
    );
    replace(createBox, h("h2", { id: "create-h", text: tr("Create a room") }), form);
  }

  return { render };
}

function field(id, label, control) {
  return h("div", { class: "field" }, h("label", { for: id, text: label }), control);
}

/** Takes a room id, or a link with #room= or ?room= in it. */
export function roomIdFrom(text) {
  const s = String(text || "").trim();
  if (!s) return "";
  try {
    const u = new URL(s);
    const fromHash = new URLSearchParams(u.hash.replace(/^#/, "")).get("room");
    return fromHash || u.searchParams.get("room") || s;
  } catch {
    return s;
  }
}
