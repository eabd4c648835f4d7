// Applies the chosen theme before the first paint (no flash): a classic
// script every page loads from <head>, since the pages' Content-Security-
// Policy runs no inline script. js/dom.js (setupTheme) wires the toggle.
try {
  const t = localStorage.getItem("storyloom-theme");
  if (t === "light" || t === "dark") document.documentElement.dataset.theme = t;
} catch {
  /* storage blocked: the system's theme */
}
