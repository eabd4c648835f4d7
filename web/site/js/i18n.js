// Rendering LocKeys. The engine sends keys and params; the page renders
// them through the string table getStrings returns for the chosen locale.
// A key the table lacks falls back to the text the engine sent (in the
// campaign's default locale), then to the key itself.

const nameChar = /[A-Za-z0-9_]/;

/**
 * pluralArg parses "{name, plural, sel {body} ...}" opening at text[i], as
 * engine/display does: it returns { name, cases, end } or null when the
 * brace opens no well-formed plural (which then stays as written).
 */
function pluralArg(text, i) {
  const m = /^\{([A-Za-z0-9_]+)\s*,\s*plural\s*,\s*/.exec(text.slice(i));
  if (!m) return null;
  const cases = {};
  let k = i + m[0].length;
  while (k < text.length && text[k] !== "}") {
    const sel = /^(=-?[0-9]+|[a-z]+)\s*\{/.exec(text.slice(k));
    if (!sel || Object.hasOwn(cases, sel[1])) return null;
    let depth = 1;
    const start = k + sel[0].length;
    for (k = start; k < text.length && depth > 0; k++) {
      if (text[k] === "{") depth++;
      else if (text[k] === "}") depth--;
    }
    if (depth > 0) return null;
    cases[sel[1]] = text.slice(start, k - 1);
    while (/\s/.test(text[k] || "")) k++;
  }
  if (k >= text.length || !Object.hasOwn(cases, "other")) return null;
  return { name: m[1], cases, end: k + 1 };
}

/**
 * format substitutes {name} placeholders with params and renders ICU-style
 * {name, plural, one {# item} other {# items}} by the CLDR category of the
 * number in locale (an exact "=n" case first, then the category, then
 * "other"; # is the number), exactly as the engine's display.FillIn does.
 */
export function format(text, params, locale = "en", hash = "") {
  if (!params || !text || (!hash && text.indexOf("{") < 0)) return text;
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "#" && hash) {
      out += hash;
      continue;
    }
    if (c !== "{") {
      out += c;
      continue;
    }
    const p = pluralArg(text, i);
    if (p) {
      const n = params[p.name];
      if (Object.hasOwn(params, p.name) && Number.isInteger(n)) {
        const cat = new Intl.PluralRules(locale).select(n);
        const body = p.cases[`=${n}`] ?? p.cases[cat] ?? p.cases.other;
        out += format(body, params, locale, String(n));
      } else {
        out += text.slice(i, p.end);
      }
      i = p.end - 1;
      continue;
    }
    let j = i + 1;
    while (j < text.length && nameChar.test(text[j])) j++;
    const name = text.slice(i + 1, j);
    if (name && text[j] === "}" && Object.hasOwn(params, name)) {
      out += String(params[name]);
      i = j;
      continue;
    }
    out += c;
  }
  return out;
}

/** A string table with a fallback. */
export class Strings {
  constructor(table = {}, locale = "en") {
    this.table = table;
    this.locale = locale;
  }
  has(key) {
    return Object.hasOwn(this.table, key);
  }
  /**
   * t renders key with params; fallback is the engine's own text. A param
   * "x" that comes with "xKey" (an id and its label's key, as the engine
   * sends node and nodeKey) is rendered as that label, never as the id.
   */
  t(key, params, fallback) {
    if (!key) return fallback || "";
    const text = this.has(key) ? this.table[key] : fallback !== undefined && fallback !== "" ? fallback : key;
    return format(text, this.labelled(params), this.locale);
  }
  /**
   * labelled returns params with each id that has a label key replaced by
   * the label, and each amount "x" that comes with "xCents" (the number,
   * and the campaign's "currency") written by money() in the page's
   * language: the engine writes "x" the English way for its own text.
   */
  labelled(params) {
    if (!params) return params;
    let out = params;
    for (const [k, v] of Object.entries(params)) {
      const name = k.endsWith("Key") ? k.slice(0, -3) : "";
      if (name && typeof v === "string" && this.has(v)) {
        if (out === params) out = { ...params };
        out[name] = this.table[v];
      }
      const amount = k.endsWith("Cents") ? k.slice(0, -5) : "";
      if (amount && typeof v === "number") {
        if (out === params) out = { ...params };
        out[amount] = money(v, typeof params.currency === "string" ? params.currency : "");
      }
    }
    return out;
  }
}

/**
 * Money in cents with a currency symbol, written as the page's language
 * (<html lang>) writes it: money(123456, "€") is "€1,234.56" in English,
 * "1 234,56 €" in French.
 */
export function money(cents, currency = "") {
  const neg = cents < 0;
  const abs = Math.abs(Math.trunc(cents));
  const french = (document.documentElement.lang || "").startsWith("fr");
  const whole = Math.floor(abs / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, french ? "\u202f" : ",");
  const frac = String(abs % 100).padStart(2, "0");
  if (french) return `${neg ? "-" : ""}${whole},${frac}${currency ? `\u00a0${currency}` : ""}`;
  return `${neg ? "-" : ""}${currency}${whole}.${frac}`;
}

/** Names of locales, in their own language. */
export function localeName(code) {
  try {
    const dn = new Intl.DisplayNames([code], { type: "language" });
    const name = dn.of(code);
    return name ? name.charAt(0).toUpperCase() + name.slice(1) : code;
  } catch {
    return code;
  }
}

/** A short relative date for "last played". */
export function when(stamp) {
  if (!stamp) return "";
  const d = new Date(stamp);
  if (Number.isNaN(d.getTime())) return "";
  // In the page's language (<html lang>), as the words around it.
  return d.toLocaleString(document.documentElement.lang || undefined, { dateStyle: "medium", timeStyle: "short" });
}
