// The library: every campaign with its progress, Continue and New game,
// and importing a save file.
import { call, attempt } from "./bridge.js";
import { announce, h, replace, nextId, toast } from "./dom.js";
import { guard } from "./ui.js";
import { when } from "./i18n.js";
import { damagedRecords } from "./damaged.js";
import { app, serverless, markOnline } from "./page.js";
import { setPageLocale, pageLocale, tr } from "./lang.js";

const kinds = { "story-graph": "Story", simulation: "Simulation", "world-graph": "World" };

/** The name of a campaign kind in the page's language. */
export function kindName(kindId) {
  return kinds[kindId] ? tr(kinds[kindId]) : tr("Campaign");
}

/** Draws the library into main. */
export async function renderLibrary(main) {
  setPageLocale(app.locale);
  const { campaigns, keptVersions } = await call("listCampaigns", { locale: app.locale });
  app.campaigns = campaigns;
  for (const w of keptVersions || [])
    console.warn(`storyloom: a kept campaign version did not come back (${w.code}): ${w.message}`);
  const list = h("ul.cards", { role: "list" });
  for (const c of campaigns) list.appendChild(card(c));
  const fileId = nextId("import");
  const importMsg = h("p.note", { role: "status" });
  const input = h("input.visually-hidden-file", { id: fileId, type: "file", accept: ".json,application/json" });
  input.addEventListener(
    "change",
    guard(() => importFile(input, importMsg)),
  );
  const damaged = await attempt("listCorrupt", {});
  replace(
    main,
    h(
      "div.page-head",
      null,
      h("h1", null, tr("Library")),
      h("p.lede", null, tr("Stories and simulations to play in your browser, online or off.")),
    ),
    list,
    damaged.ok ? damagedRecords(damaged.records, () => renderLibrary(main)) : null,
    h(
      "section.import",
      { "aria-labelledby": "import-h" },
      h("h2", { id: "import-h" }, tr("Bring a save with you")),
      h("p", null, tr("Load a save file you downloaded from Storyloom, here or on another device.")),
      h("label.button", { for: fileId }, tr("Import a save file…")),
      input,
      importMsg,
    ),
    offlineOffer(),
  );
  main.dataset.screen = "library";
  document.title = `Storyloom — ${tr("Library")}`;
  announce(tr("Library. {n} campaigns.", { n: campaigns.length }));
}

// The single offline file, offered by a served site (the build writes it
// beside index.html); the offline file itself and a page opened from disk
// have nothing to download it from.
function offlineOffer() {
  if (serverless()) return null;
  const link = h(
    "a.button",
    {
      href: "storyloom-offline.html",
      download: "storyloom-offline.html",
      dataset: { online: tr("The offline file"), role: "offline-download" },
    },
    tr("Download Storyloom as one file"),
  );
  markOnline(link);
  return h(
    "section.import",
    { "aria-labelledby": "offline-h" },
    h("h2", { id: "offline-h" }, tr("Play with no connection at all")),
    h(
      "p",
      null,
      tr(
        "One HTML file with every campaign: open it from disk in a browser, no server needed. Its saves stay in that browser.",
      ),
    ),
    link,
  );
}

function card(c) {
  const titleId = nextId("card");
  const ended = c.last && c.last.status !== "active";
  const stats = h("dl.progress", null);
  if (c.progress) {
    stats.append(
      h(
        "div",
        null,
        h("dt", null, tr("Endings")),
        h("dd", null, tr("{found} of {total} found", { found: c.progress.discovered, total: c.progress.total })),
      ),
    );
  }
  if (c.achievements.total > 0) {
    stats.append(
      h(
        "div",
        null,
        h("dt", null, tr("Achievements")),
        h("dd", null, tr("{n} of {total}", { n: c.achievements.unlocked, total: c.achievements.total })),
      ),
    );
  }
  if (c.last) stats.append(h("div", null, h("dt", null, tr("Last played")), h("dd", null, when(c.last.playedAt))));
  const meter =
    c.progress && c.progress.total > 0
      ? h(
          "div.meter",
          { role: "presentation" },
          h("span", { style: { width: `${Math.round((100 * c.progress.discovered) / c.progress.total)}%` } }),
        )
      : null;
  const buttons = h("div.card-actions", null);
  if (c.last && !ended) {
    buttons.append(
      h(
        "a.button.primary",
        {
          href: `#/play/${encodeURIComponent(c.last.sessionId)}`,
          "aria-describedby": titleId,
          dataset: { continue: c.campaignId },
        },
        tr("Continue"),
      ),
    );
  }
  buttons.append(
    h(
      `a.button${c.last && !ended ? "" : ".primary"}`,
      {
        href: `#/new/${encodeURIComponent(c.campaignId)}`,
        "aria-describedby": titleId,
        dataset: { start: c.campaignId },
      },
      tr("New game"),
    ),
  );
  // The title is in the page's language when the campaign has it, else in
  // the campaign's own first language, which it then says.
  const titleLang = c.locales.includes(pageLocale()) ? pageLocale() : c.locales[0] || "en";
  return h(
    "li.card",
    { dataset: { campaign: c.campaignId, kind: c.kindId } },
    h("p.kind", null, kindName(c.kindId)),
    h("h2", { id: titleId, lang: titleLang === pageLocale() ? null : titleLang }, c.title),
    c.blurb ? h("p.blurb", { lang: titleLang === pageLocale() ? null : titleLang }, c.blurb) : null,
    c.locales.length > 1 ? h("p.langs", null, tr("{n} languages", { n: c.locales.length })) : null,
    stats,
    meter,
    buttons,
  );
}

async function importFile(input, msg) {
  const file = input.files?.[0];
  input.value = "";
  if (!file) return;
  let data;
  try {
    data = await file.text();
  } catch {
    msg.textContent = tr("That file could not be read.");
    return;
  }
  const res = await attempt("importSave", { data, name: file.name.replace(/\.json$/i, "") });
  if (!res.ok) {
    msg.className = "note error";
    msg.textContent = tr("That save was refused and nothing was changed: {error}.", { error: res.error.message });
    announce(msg.textContent);
    return;
  }
  msg.className = "note";
  msg.textContent = tr("Save imported.");
  toast(tr("Save imported"), res.name || file.name, "positive");
  const loaded = await call("loadGame", { saveId: res.saveId });
  app.notices = loaded.notices || [];
  app.go(`#/play/${encodeURIComponent(loaded.sessionId)}`);
}
