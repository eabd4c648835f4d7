// The page's own words (navigation, buttons, dialogs, toasts, the footer)
// in the page's language. The English text is the key: tr("Save") is
// "Save" in English and the catalog's entry in another language
// (js/locales/<code>.js), with {name} placeholders filled from params.
// The page's language follows the game's (the campaign language chosen in
// it) and, outside a game, the last one chosen; <html lang> always says
// which, and text in another language carries its own lang attribute.
import { format } from "./i18n.js";
import fr from "./locales/fr.js";
import frEngine from "./locales/engine-fr.js";

const catalogs = { fr };
// The engine's own words (the kinds' action labels, messages and reasons,
// which the engine sends in English) by their string key, per language.
const engineCatalogs = { fr: frEngine };
let current = "en";

/** Sets the page's language (one with a catalog, else English) and redraws the shell's words. */
export function setPageLocale(locale) {
  const base = (locale || "en").split("-")[0];
  current = catalogs[base] ? base : "en";
  document.documentElement.lang = current;
  for (const el of document.querySelectorAll("[data-tr]")) {
    if (!el.dataset.tr) el.dataset.tr = el.firstChild?.textContent || "";
    if (el.firstChild) el.firstChild.textContent = tr(el.dataset.tr);
  }
  for (const el of document.querySelectorAll("[data-tr-label]")) {
    el.setAttribute("aria-label", tr(el.dataset.trLabel));
  }
  window.dispatchEvent(new Event("storyloom-locale"));
}

/** The language last chosen in a game, or "" (the page's own choice, kept in localStorage by page.js). */
export function savedPageLocale() {
  try {
    return localStorage.getItem("storyloom-locale") || "";
  } catch {
    return "";
  }
}

/** The page's language. */
export function pageLocale() {
  return current;
}

/** Whether the page can speak locale. */
export function hasCatalog(locale) {
  const base = (locale || "").split("-")[0];
  return base === "en" || Boolean(catalogs[base]);
}

/**
 * The engine's own strings of table (a getStrings answer) that the page
 * can say in locale, by key; {} when it has none in that language.
 */
export function engineWords(locale, table) {
  const cat = engineCatalogs[(locale || "en").split("-")[0]];
  if (!cat) return {};
  return Object.fromEntries(Object.entries(cat).filter(([k]) => Object.hasOwn(table, k)));
}

/**
 * The language the page says the engine's key in for a game in locale:
 * locale's own when its catalog has the key, else English, the engine's.
 */
export function engineLang(locale, key) {
  const base = (locale || "en").split("-")[0];
  return Object.hasOwn(engineCatalogs[base] || {}, key) ? base : "en";
}

/** The page's words for text (English) in the page's language. */
export function tr(text, params) {
  const own = current === "en" ? text : catalogs[current][text];
  return format(own ?? text, params, current);
}
