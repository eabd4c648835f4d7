// The gallery: each campaign's achievements and endings, found or not.
import { call } from "./bridge.js";
import { announce, h, replace } from "./dom.js";
import { app } from "./page.js";
import { kindName } from "./library.js";
import { setPageLocale, pageLocale, tr } from "./lang.js";

/** Draws the gallery (of one campaign when campaignId is given). */
export async function renderGallery(main, campaignId) {
  setPageLocale(app.locale);
  const { campaigns } = await call("listCampaigns", { locale: app.locale });
  const shown = campaignId ? campaigns.filter((c) => c.campaignId === campaignId) : campaigns;
  const infos = await Promise.all(
    shown.map((c) => call("getCampaign", { campaignId: c.campaignId, locale: app.locale })),
  );
  let found = 0,
    total = 0;
  const sections = infos.map((info) => {
    const ends = info.endings,
      achs = info.achievements;
    found += ends.filter((e) => e.found).length + achs.filter((a) => a.unlocked).length;
    total += ends.length + achs.length;
    // The campaign's words are in the page's language when it has it.
    const own = info.locales.includes(pageLocale()) ? null : info.locales[0] || "en";
    return h(
      "section.gallery-campaign",
      { "aria-labelledby": `g-${info.campaignId}`, dataset: { campaign: info.campaignId } },
      h(
        "h2",
        { id: `g-${info.campaignId}` },
        h("span", { lang: own }, info.title),
        h("span.kind", null, ` ${kindName(info.kindId)}`),
      ),
      achs.length
        ? h(
            "div",
            null,
            h(
              "h3",
              null,
              tr("Achievements ({n} of {total})", { n: achs.filter((a) => a.unlocked).length, total: achs.length }),
            ),
            h(
              "ul.tiles",
              null,
              achs.map((a) =>
                h(
                  "li.tile",
                  { class: a.unlocked ? "got" : "missing", dataset: { achievement: a.id } },
                  h("span.tile-icon", { "aria-hidden": "true" }, a.unlocked ? "★" : "☆"),
                  h("strong", { lang: a.unlocked ? own : null }, a.unlocked ? a.title : tr("Locked achievement")),
                  h(
                    "span",
                    { lang: a.unlocked ? own : null },
                    a.unlocked ? a.description : a.description ? tr("Keep playing to find out.") : "",
                  ),
                  h("span.sr-only", null, a.unlocked ? tr("Unlocked.") : tr("Not unlocked yet.")),
                ),
              ),
            ),
          )
        : null,
      h("h3", null, tr("Endings ({n} of {total})", { n: ends.filter((e) => e.found).length, total: ends.length })),
      h(
        "ul.tiles",
        null,
        ends.map((e) =>
          h(
            "li.tile",
            { class: e.found ? `got outcome-${e.outcome}` : "missing", dataset: { ending: e.id } },
            h("span.tile-icon", { "aria-hidden": "true" }, e.found ? "◆" : "◇"),
            h("strong", { lang: e.found ? own : null }, e.found ? e.title : tr("An ending not yet found")),
            h(
              "span",
              null,
              e.found ? tr({ win: "A good ending", lose: "A hard ending" }[e.outcome] || "An ending") : "",
            ),
            h("span.sr-only", null, e.found ? tr("Found.") : tr("Not found yet.")),
          ),
        ),
      ),
    );
  });
  replace(
    main,
    h(
      "div.page-head",
      null,
      h("h1", null, tr("Achievements & endings")),
      h(
        "p.lede",
        null,
        tr(campaignId ? "{found} of {total} found." : "{found} of {total} found across every campaign.", {
          found,
          total,
        }),
      ),
      campaignId ? h("p", null, h("a", { href: "#/gallery" }, tr("Every campaign"))) : null,
    ),
    sections,
  );
  main.dataset.screen = "gallery";
  document.title = `Storyloom — ${tr("Gallery")}`;
  announce(tr("Gallery. {found} of {total} found.", { found, total }));
}
