// Light and dark themes: the system's choice (prefers-color-scheme) until
// the player picks one with the toggle, which is remembered.
import { tr } from "./lang.js";

const KEY = "storyloom-theme";

function systemDark() {
  return window.matchMedia?.("(prefers-color-scheme: dark)").matches;
}

function effective() {
  const t = document.documentElement.dataset.theme;
  return t === "light" || t === "dark" ? t : systemDark() ? "dark" : "light";
}

function label() {
  const next = effective() === "dark" ? "light" : "dark";
  const btn = document.getElementById("theme-toggle");
  btn.setAttribute("aria-label", next === "dark" ? tr("Switch to the dark theme") : tr("Switch to the light theme"));
  document.getElementById("theme-label").textContent = next === "dark" ? tr("Dark") : tr("Light");
  document.getElementById("theme-icon").textContent = next === "dark" ? "☾" : "☀";
}

/** Wires the theme toggle. */
export function setupTheme() {
  const btn = document.getElementById("theme-toggle");
  btn.addEventListener("click", () => {
    const next = effective() === "dark" ? "light" : "dark";
    document.documentElement.dataset.theme = next;
    try { localStorage.setItem(KEY, next); } catch { /* private mode: this tab only */ }
    label();
  });
  window.matchMedia?.("(prefers-color-scheme: dark)").addEventListener?.("change", label);
  window.addEventListener("storyloom-locale", label);
  label();
}
