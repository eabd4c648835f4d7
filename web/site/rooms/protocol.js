// The SAGE frames as this client knows them (../shared/spec/sage-protocol.md):
// every field the server may send, the protocol's defaults, and the words for
// the classifying values. `normalize` fills the defaults (an omitted
// collection is empty, an omitted `connected` is true) and keeps every value
// it was given, known or not; `word` names a classifying value, and an
// unknown one generically. web/test/protocol.test.mjs holds this against
// the card game's recorded frames (engine/cards/testdata/wire).

// Field specs: "s" a scalar, "any" opaque JSON, ["s"] a list of scalars,
// an object a nested record, [object] a list of records.
const printed = {
  functional_id: "s",
  name: "s",
  type_line: "s",
  mana_cost: "s",
  rules_text: "s",
  power: "s",
  toughness: "s",
  loyalty: "s",
  keywords: ["s"],
  card_types: ["s"],
  color_identity: ["s"],
  token: "s",
};
const card = { id: "s", ...printed };
const counter = { kind: "s", count: "s" };
const pile = { player_id: "s", cards: [card] };
const playerPublic = {
  player_id: "s",
  hand_size: "s",
  life: "s",
  library_size: "s",
  graveyard_size: "s",
  counters: [counter],
  eliminated: "s",
  connected: "s",
  ai: "s",
  statuses: ["s"],
};
const seat = { seat: "s", player_id: "s", name: "s", ai: "s", connected: "s" };
const prompt = {
  kind: "s",
  slot: "s",
  prompt: "s",
  options: [{ id: "s", label: "s", requires: ["s"] }],
  zone: "s",
  owner: "s",
  count: "s",
  min: "s",
  max: "s",
  candidates: "any",
  items: ["s"],
  values: [{ value: "s", cost: "s" }],
  pip: "s",
  suggested: "s",
};
const action = {
  id: "s",
  type: "s",
  label: "s",
  subject: ["s"],
  mana_ability: "s",
  cost: { printed: "s", modified: "s" },
  destinations: [{ type: "s", id: "s", owner: "s", label: "s" }],
  token: "s",
  requirements: [{ slot: "s", prompt: "s", optional: "s", subject: "s", taps: ["s"], count: "s", candidates: ["s"] }],
  prompts: [prompt],
};
const table = {
  room_id: "s",
  game: "s",
  seats: [seat],
  seat_order: ["s"],
  player_names: "any",
  phase: "s",
  turn: "s",
  active_player: "s",
  priority_player: "s",
  result: { winner: "s", losers: ["s"], reason: "s" },
  log: [{ sequence: "s", event: "any" }],
  format: { id: "s", commander: "s" },
  battlefield: [
    {
      id: "s",
      controller: "s",
      owner: "s",
      card,
      tapped: "s",
      attacking: "s",
      attacking_player: "s",
      attacking_planeswalker: "s",
      blocking: ["s"],
      damage: "s",
      attached_to: "s",
      is_commander: "s",
      counters: [counter],
      summoning_sick: "s",
      skips_next_untap: "s",
      granted_keywords: ["s"],
      chosen_color: "s",
      named_card: "s",
      physical_card: "s",
    },
  ],
  emblems: [{ id: "s", controller: "s", abilities: ["s"] }],
  stack: [
    {
      id: "s",
      controller: "s",
      description: "s",
      source: "s",
      kind: "s",
      physical_card: "s",
      targets: [{ kind: "s", player: "s", id: "s" }],
      card,
    },
  ],
  graveyards: [pile],
  exile: [pile],
  command: [pile],
  commander_damage: [{ commander: "s", damaged: "s", amount: "s" }],
  commander_tax: [{ commander: "s", casts: "s", tax: "s" }],
  commander_identity: [{ commander: "s", name: "s", color_identity: ["s"] }],
  // Cheat's members (engine/rooms/cheat), rendered by table.js.
  players: [{ ...playerPublic, hand: "any" }],
  pile_size: "s",
  rank: "s",
  play: "s",
  claim: "any",
  last_call: "any",
};

/** The record specs of each frame kind, by the host's kind names. */
export const SCHEMA = {
  game: {
    ...table,
    you: "s",
    my_hand: [card],
    revealed: [card],
    me: {
      life: "s",
      library_size: "s",
      maximum_hand_size: "any",
      counters: [counter],
      eliminated: "s",
      connected: "s",
      ai: "s",
      statuses: ["s"],
    },
    opponents: [playerPublic],
    mana_pool: ["s"],
    valid_actions: [action],
    action_deadline: "s",
    own_turn_stops: ["s"],
    stops: ["s"],
    undo: { available: "s", limit: "s" },
    action_ack: { submission: "s", accepted: "s" },
    action_rejected: "s",
    auto_passed: "s",
    auto_passed_from: "s",
    auto_passed_steps: [{ phase: "s", turn: "s" }],
  },
  spectator: { ...table },
  lobby: {
    session: "s",
    you: "s",
    name: "s",
    valid_commands: ["s"],
    directory_page: "s",
    directory_more: "s",
    room: {
      room_id: "s",
      state: "s",
      spectators: "s",
      config: { seats: "s", game_setup: "s", name: "s", visibility: "s", undo_enabled: "s", action_seconds: "s" },
      seats: [
        {
          seat: "s",
          occupied_by: "s",
          name: "s",
          decked: "s",
          colors: ["s"],
          commander: "s",
          ready: "s",
          ai: "s",
          connected: "s",
        },
      ],
    },
    directory: [
      {
        room_id: "s",
        filled: "s",
        spectators: "s",
        state: "s",
        config: { seats: "s", game_setup: "s", name: "s", visibility: "s", undo_enabled: "s", action_seconds: "s" },
      },
    ],
  },
  catalog: {
    catalog_version: "s",
    cards: [printed],
    formats: [
      {
        game_setup: "s",
        name: "s",
        description: "s",
        min_deck_size: "s",
        max_deck_size: "s",
        max_copies: "s",
        basic_land_exempt: "s",
        requires_commander: "s",
        enforce_color_identity: "s",
        min_seats: "s",
        max_seats: "s",
        deckless: "s",
        ai: ["s"],
      },
    ],
    ai_opponents: [{ id: "s", name: "s", description: "s" }],
  },
  lobby_error: { lobby_error: { code: "s", reason: "s", card: "s", detail: "s" } },
};

/** The kind of a frame, by the members only it has: lobby_error, catalog, lobby, game, spectator or unknown. */
export function frameKind(f) {
  if (!f || typeof f !== "object") return "unknown";
  if (f.lobby_error) return "lobby_error";
  if ("catalog_version" in f) return "catalog";
  if ("session" in f) return "lobby";
  if ("seat_order" in f) return "you" in f ? "game" : "spectator";
  return "unknown";
}

function fill(spec, v) {
  if (v == null || typeof v !== "object" || Array.isArray(v)) return v;
  const out = { ...v };
  for (const [k, s] of Object.entries(spec)) {
    if (Array.isArray(s)) {
      if (out[k] == null) out[k] = [];
      else if (Array.isArray(out[k]) && typeof s[0] === "object") out[k] = out[k].map((e) => fill(s[0], e));
    } else if (s && typeof s === "object" && out[k] != null) {
      out[k] = fill(s, out[k]);
    }
  }
  if ("connected" in spec && out.connected == null) out.connected = true;
  return out;
}

/**
 * normalize returns a copy of frame with the protocol's defaults: every
 * collection the schema knows is an array (empty when omitted), every seat's
 * `connected` is true unless the server said false. Fields the schema does
 * not know are kept as they came.
 */
export function normalize(frame, kind = frameKind(frame)) {
  const spec = SCHEMA[kind];
  return spec ? fill(spec, frame) : frame;
}

/** unknownFields lists the key paths of frame its kind's schema does not know ("battlefield[].glow"). */
export function unknownFields(frame, kind = frameKind(frame)) {
  const out = [];
  const walk = (spec, v, path) => {
    if (spec === "any" || v == null) return;
    if (Array.isArray(v)) {
      if (!Array.isArray(spec)) {
        out.push(`${path} (a list)`);
        return;
      }
      for (const e of v) walk(spec[0], e, `${path}[]`);
      return;
    }
    if (typeof v !== "object") {
      if (spec !== "s") out.push(`${path} (a scalar)`);
      return;
    }
    if (typeof spec !== "object" || Array.isArray(spec)) {
      out.push(`${path} (a record)`);
      return;
    }
    for (const [k, e] of Object.entries(v)) {
      const p = path ? `${path}.${k}` : k;
      if (!(k in spec)) out.push(p);
      else walk(spec[k], e, p);
    }
  };
  walk(SCHEMA[kind] || {}, frame, "");
  return [...new Set(out)];
}

/** The words for the classifying values this client renders by name. */
export const WORDS = {
  phase: {
    untap: "Untap",
    upkeep: "Upkeep",
    draw: "Draw",
    precombat_main: "Main 1",
    begin_combat: "Beginning of combat",
    declare_attackers: "Attackers",
    declare_blockers: "Blockers",
    combat_damage: "Combat damage",
    end_combat: "End of combat",
    postcombat_main: "Main 2",
    end: "End step",
    cleanup: "Cleanup",
  },
  prompt: { option: "Choose", select_from_zone: "Select", order: "Order", number: "Number", pay_mana: "Pay mana" },
  target: { player: "player", permanent: "permanent", stack: "spell", card: "card" },
  stack: { spell: "Spell", activated: "Ability", triggered: "Trigger" },
  event: {
    spell_cast: "casts",
    spell_resolved: "resolved:",
    damage_dealt: "damage:",
    life_changed: "life changed:",
    cards_drawn: "drew",
    cards_discarded: "discarded",
    cards_milled: "milled",
    cards_exiled: "exiled",
    permanent_died: "died:",
    player_eliminated: "was eliminated",
    mulligan: "took a mulligan",
    hand_kept: "kept the hand",
  },
  zone: {
    hand: "hand",
    library: "library",
    graveyard: "graveyard",
    exile: "exile",
    battlefield: "battlefield",
    command: "command zone",
    stack: "stack",
  },
};

/** word names value of the classification cls, or renders an unknown value generically ("first_strike" → "first strike"). */
export function word(cls, value) {
  const w = WORDS[cls]?.[value];
  if (w) return w;
  return String(value ?? "").replace(/_/g, " ");
}

/** known says whether the client has a word of its own for value. */
export function known(cls, value) {
  return Boolean(WORDS[cls]?.[value]);
}
