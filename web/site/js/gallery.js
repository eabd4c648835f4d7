// The gallery: each campaign's achievements and endings, found or not.
import { call } from "./bridge.js";
import { h, replace } from "./dom.js";
import { announce } from "./ui.js";
import { app } from "../app.js";
import { kindNames } from "./library.js";

/** Draws the gallery (of one campaign when campaignId is given). */
export async function renderGallery(main, campaignId) {
  const { campaigns } = await call("listCampaigns", { locale: app.locale });
  const shown = campaignId ? campaigns.filter((c) => c.campaignId === campaignId) : campaigns;
  const infos = await Promise.all(shown.map((c) => call("getCampaign", { campaignId: c.campaignId, locale: app.locale })));
  let found = 0, total = 0;
  const sections = infos.map((info) => {
    const ends = info.endings, achs = info.achievements;
    found += ends.filter((e) => e.found).length + achs.filter((a) => a.unlocked).length;
    total += ends.length + achs.length;
    return h("section.gallery-campaign", { "aria-labelledby": `g-${info.campaignId}`, dataset: { campaign: info.campaignId } },
      h("h2", { id: `g-${info.campaignId}` }, info.title, h("span.kind", null, ` ${kindNames[info.kindId] || info.kindId}`)),
      achs.length ? h("div", null, h("h3", null, `Achievements (${achs.filter((a) => a.unlocked).length} of ${achs.length})`),
        h("ul.tiles", null, achs.map((a) => h("li.tile", { class: a.unlocked ? "got" : "missing", dataset: { achievement: a.id } },
          h("span.tile-icon", { "aria-hidden": "true" }, a.unlocked ? "★" : "☆"),
          h("strong", null, a.unlocked ? a.title : "Locked achievement"),
          h("span", null, a.unlocked ? a.description : a.description ? "Keep playing to find out." : ""),
          h("span.sr-only", null, a.unlocked ? "Unlocked." : "Not unlocked yet."))))) : null,
      h("h3", null, `Endings (${ends.filter((e) => e.found).length} of ${ends.length})`),
      h("ul.tiles", null, ends.map((e) => h("li.tile", { class: e.found ? `got outcome-${e.outcome}` : "missing", dataset: { ending: e.id } },
        h("span.tile-icon", { "aria-hidden": "true" }, e.found ? "◆" : "◇"),
        h("strong", null, e.found ? e.title : "An ending not yet found"),
        h("span", null, e.found ? { win: "A good ending", lose: "A hard ending", neutral: "An ending" }[e.outcome] || "" : ""),
        h("span.sr-only", null, e.found ? "Found." : "Not found yet.")))));
  });
  replace(main,
    h("div.page-head", null, h("h1", null, "Achievements & endings"),
      h("p.lede", null, `${found} of ${total} found${campaignId ? "" : " across every campaign"}.`),
      campaignId ? h("p", null, h("a", { href: "#/gallery" }, "Every campaign")) : null),
    sections);
  main.dataset.screen = "gallery";
  document.title = "Storyloom — Gallery";
  announce(`Gallery. ${found} of ${total} found.`);
}
