// Rendering LocKeys. The engine sends keys and params; the page renders
// them through the string table getStrings returns for the chosen locale.
// A key the table lacks falls back to the text the engine sent (in the
// campaign's default locale), then to the key itself.

/** format substitutes {name} placeholders with params. */
export function format(text, params) {
  if (!params || !text || text.indexOf("{") < 0) return text;
  return text.replace(/\{([a-zA-Z0-9_]+)\}/g, (m, name) =>
    Object.hasOwn(params, name) ? String(params[name]) : m);
}

/** A string table with a fallback. */
export class Strings {
  constructor(table = {}, locale = "en") {
    this.table = table;
    this.locale = locale;
  }
  has(key) {
    return  Object.hasOwn(this.table, key);
  }
  /**
   * t renders key with params; fallback is the engine's own text. A param
   * "x" that comes with "xKey" (an id and its label's key, as the engine
   * sends node and nodeKey) is rendered as that label, never as the id.
   */
  t(key, params, fallback) {
    if (!key) return fallback || "";
    const text = this.has(key) ? this.table[key] : fallback !== undefined && fallback !== "" ? fallback : key;
    return format(text, this.labelled(params));
  }
  /** labelled returns params with each id that has a label key replaced by the label. */
  labelled(params) {
    if (!params) return params;
    let out = params;
    for (const [k, v] of Object.entries(params)) {
      const name = k.endsWith("Key") ? k.slice(0, -3) : "";
      if (name && typeof v === "string" && this.has(v)) {
        if (out === params) out = { ...params };
        out[name] = this.table[v];
      }
    }
    return out;
  }
}

/** Money in cents with a currency symbol: money(123456, "€") is "€1,234.56". */
export function money(cents, currency = "") {
  const neg = cents < 0;
  const abs = Math.abs(Math.trunc(cents));
  const whole = Math.floor(abs / 100).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  const frac = String(abs % 100).padStart(2, "0");
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
