// The game screen: the campaign's header (title, language, saves), the
// kind's own screen, announcements, and the keyboard. The kinds' screens
// (story.js, sim.js, world.js) only draw a scene and report what the
// player picked; this module sends it to the engine.
import { call, attempt } from "./bridge.js";
import { announce, h, replace, nextId, toast } from "./dom.js";
import { guard } from "./ui.js";
import { Strings, localeName } from "./i18n.js";
import { engineLang, engineWords, setPageLocale, tr } from "./lang.js";
import { kindName } from "./library.js";
import { openSaves, quickSave } from "./saves.js";
import { app } from "./page.js";
import * as story from "./story.js";
import * as sim from "./sim.js";
import * as world from "./world.js";

/** The screen of each kind, by kind id. A new kind adds one line here. */
const screens = { "story-graph": story, simulation: sim, "world-graph": world };

function localeKey(campaignId) {
  return `storyloom-locale:${campaignId}`;
}

/** Draws the game of sessionId into main. */
export async function renderPlay(main, sessionId, created) {
  // A game just created needs no resume: its handle is the same.
  const handle = created || (await call("resumeSession", { sessionId }));
  const screen = screens[handle.kindId];
  if (!screen) throw new Error(`this page has no screen for ${handle.kindId} campaigns yet`);
  // The language chosen for this campaign, else the last one chosen; the
  // campaign's own first language when it has neither.
  const locale = localStorage.getItem(localeKey(handle.campaignId)) || app.locale;
  const [info, first] = await Promise.all([
    call("getCampaign", { campaignId: handle.campaignId, locale }),
    call("getStrings", { sessionId, locale }),
  ]);
  // The language the game's text is in: the one asked for when the
  // campaign has it, else the campaign's first.
  const gameLocale = info.locales.includes(locale) ? locale : info.locales[0] || "en";
  const g = {
    locale: gameLocale,
    sessionId,
    campaignId: handle.campaignId,
    kindId: handle.kindId,
    info,
    scene: handle.scene,
    actionCount: handle.actionCount,
    strings: gameStrings(first, gameLocale),
    result: null,
    busy: false,
    seq: 0,
  };

  // The header: where the game sits, its title, its language, saves. It
  // is drawn again in the new language when the player picks one.
  const head = () => {
    const tools = h("div.tools", null);
    if (g.info.locales.length > 1) {
      const selId = nextId("lang");
      const select = h(
        "select",
        { id: selId, dataset: { role: "locale" } },
        g.info.locales.map((l) => h("option", { value: l, lang: l, selected: g.locale === l }, localeName(l))),
      );
      select.addEventListener(
        "change",
        guard(async () => {
          const next = select.value;
          try {
            localStorage.setItem(localeKey(g.campaignId), next);
          } catch {
            /* this tab only */
          }
          app.locale = next;
          g.strings = gameStrings(await call("getStrings", { sessionId, locale: next }), next);
          g.info = await call("getCampaign", { campaignId: g.campaignId, locale: next });
          g.locale = next;
          setPageLocale(next);
          const fresh = head();
          headEl.replaceWith(fresh);
          headEl = fresh;
          fresh.querySelector("[data-role=locale]")?.focus();
          draw({ announceScene: false });
          announce(localeName(next));
        }),
      );
      tools.append(h("div.lang", null, h("label", { for: selId }, tr("Language")), select));
    }
    tools.append(
      h("button", { type: "button", dataset: { role: "quick-save" }, onclick: guard(() => quickSave(g)) }, tr("Save")),
      h(
        "button",
        { type: "button", dataset: { role: "open-saves" }, onclick: guard(() => openSaves(g)) },
        tr("Saves & rewind"),
      ),
    );
    return h(
      "div.play-head",
      null,
      h("p.kind", null, h("a", { href: "#/" }, tr("Library")), " / ", kindName(g.kindId)),
      h("h1", { id: "game-title" }, g.info.title),
      tools,
    );
  };

  const errors = h("div.feedback", { "aria-live": "assertive" });
  const body = h("div.kind-screen", { dataset: { kind: g.kindId } });
  // What a campaign update did to this game: the load's notices (kept by
  // the screen that loaded) and the resume's.
  const notices = [...(app.notices || []), ...(handle.notices || [])];
  app.notices = [];
  const noticeBox = notices.length ? contentNotices(g, notices) : null;
  // The page speaks the game's language (its own words follow it).
  setPageLocale(g.locale);
  let headEl = head();
  replace(main, headEl, noticeBox, errors, body);
  main.dataset.screen = "play";

  const submit = guard(async (actionId, params) => {
    if (g.busy) return;
    g.busy = true;
    errors.replaceChildren();
    try {
      const res = await attempt("submitAction", { sessionId, actionId, params: params || {} });
      if (!res.ok) {
        const msg = g.strings.t(res.error.messageKey, null, res.error.message);
        errors.append(h("p.error", { role: "alert" }, msg));
        return;
      }
      g.scene = res.scene;
      g.result = res;
      g.actionCount += 1;
      draw({ announceScene: true });
      if (res.news) tell(res.news);
    } finally {
      g.busy = false;
    }
  });

  function tell(news) {
    const parts = [];
    // An achievement the profile had from an earlier game (a new game or a
    // branch unlocks it again) is not news.
    for (const a of news.achievements.filter((x) => x.new)) {
      const title = g.strings.t(a.titleKey, null, a.title);
      toast(tr("Achievement unlocked"), title, "positive");
      parts.push(tr("Achievement unlocked: {title}.", { title }));
    }
    if (news.ending) {
      const title = g.strings.t(news.ending.titleKey, null, news.ending.title);
      toast(
        news.endingIsNew ? tr("New ending found") : tr("Ending"),
        title,
        news.ending.outcome === "lose" ? "negative" : "positive",
      );
      parts.push(tr(news.endingIsNew ? "New ending found: {title}." : "Ending: {title}.", { title }));
    }
    if (parts.length) setTimeout(() => announce(parts.join(" ")), 400);
  }

  function draw({ announceScene }) {
    g.seq += 1;
    const focusText = announceScene && document.activeElement && body.contains(document.activeElement);
    screen.render(body, g, submit);
    body.lang = g.locale;
    body.dataset.sceneSeq = String(g.seq);
    body.dataset.status = g.scene.status;
    if (g.scene.status === "ended") body.append(endingPanel(g));
    document.title = `${g.info.title} — Storyloom`;
    if (announceScene) {
      const text = screen.summary
        ? screen.summary(g)
        : g.strings.t(g.scene.body.textKey, g.scene.body.params, g.scene.body.text);
      announce(text);
      if (focusText) body.querySelector("[data-focus-target]")?.focus({ preventScroll: false });
    }
    performance.mark("storyloom-scene");
  }

  const onKey = (e) => {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
    if (document.querySelector("dialog[open]")) return;
    const t = e.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA")) return;
    if (e.key >= "1" && e.key <= "9" && screen.numbered) {
      const btn = body.querySelectorAll("[data-numbered]")[Number(e.key) - 1];
      if (btn && !btn.disabled) {
        e.preventDefault();
        btn.click();
      }
    }
  };
  document.addEventListener("keydown", onKey);
  app.cleanup = () => document.removeEventListener("keydown", onKey);

  draw({ announceScene: true });
  if (noticeBox)
    setTimeout(() => announce([...noticeBox.querySelectorAll("p")].map((p) => p.textContent).join(" ")), 400);
}

/**
 * The notices of a campaign update, rendered through the string table in
 * the game's language where the page has the engine's words in it (each
 * notice's lang says which); a kept game's notice carries the reason code
 * in data-reason.
 */
function contentNotices(g, notices) {
  const box = h(
    "section.content-notice",
    { role: "status", "aria-label": tr("Campaign update"), dataset: { role: "content-notice" } },
    notices.map((n) =>
      h(
        "p",
        {
          lang: engineLang(g.locale, n.message.key),
          dataset: { outcome: n.outcome, ...(n.reason ? { reason: n.reason } : {}) },
        },
        g.strings.t(n.message.key, n.message.params, n.outcome),
      ),
    ),
    h("button", { type: "button", onclick: () => box.remove() }, tr("Dismiss")),
  );
  return box;
}

// gameStrings is the string table of a getStrings answer in locale, the
// game's language: the campaign's text as the engine sent it, and the
// engine's own words (its actions, messages, reasons) in that language
// where the page has them.
function gameStrings(res, locale) {
  return new Strings({ ...res.strings, ...engineWords(locale, res.strings) }, locale);
}

function endingPanel(g) {
  return h(
    "section.ending-actions",
    { "aria-label": tr("What next") },
    h(
      "a.button.primary",
      { href: `#/new/${encodeURIComponent(g.campaignId)}`, dataset: { role: "play-again" } },
      tr("Play again"),
    ),
    h(
      "button",
      { type: "button", onclick: guard(() => openSaves(g, { tab: "rewind" })) },
      tr("Rewind to an earlier choice"),
    ),
    h("a.button", { href: `#/gallery/${encodeURIComponent(g.campaignId)}` }, tr("Achievements & endings")),
    h("a.button", { href: "#/" }, tr("Library")),
  );
}
