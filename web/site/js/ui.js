// Shared pieces of the library's interface: dialogs, file downloads,
// error boxes and the guard around bridge calls (the live region and
// toasts are dom.js's).
import { announce, h, nextId, toast } from "./dom.js";
import { tr } from "./lang.js";

/**
 * Opens a modal dialog. build(close) returns its content; close(value)
 * closes it and resolves the promise with value (undefined on Escape).
 */
export function dialog(title, build, { className = "" } = {}) {
  return new Promise((resolve) => {
    const titleId = nextId("dlg-title");
    const dlg = h("dialog.dialog", { "aria-labelledby": titleId, class: className });
    let result;
    const close = (value) => {
      result = value;
      dlg.close();
    };
    dlg.addEventListener("close", () => {
      dlg.remove();
      resolve(result);
    });
    dlg.append(h("h2", { id: titleId }, title), build(close));
    document.body.appendChild(dlg);
    dlg.showModal();
  });
}

/** Asks to confirm something destructive; resolves true or false. */
export async function confirm(title, body, confirmLabel, cancelLabel = tr("Cancel")) {
  const ok = await dialog(title, (close) =>
    h(
      "div",
      null,
      h("p", null, body),
      h(
        "div.actions",
        null,
        h("button.danger", { type: "button", onclick: () => close(true), dataset: { confirm: "yes" } }, confirmLabel),
        h(
          "button",
          { type: "button", autofocus: true, onclick: () => close(false), dataset: { confirm: "no" } },
          cancelLabel,
        ),
      ),
    ),
  );
  return ok === true;
}

/** Asks for a line of text; resolves the text, or null when cancelled. */
export async function ask(title, label, initial, okLabel) {
  const inputId = nextId("ask");
  const value = await dialog(title, (close) => {
    const input = h("input", { id: inputId, type: "text", value: initial, maxlength: 80, autocomplete: "off" });
    const form = h(
      "form",
      {
        method: "dialog",
        onsubmit: (e) => {
          e.preventDefault();
          close(input.value);
        },
      },
      h("label", { for: inputId }, label),
      input,
      h(
        "div.actions",
        null,
        h("button.primary", { type: "submit" }, okLabel),
        h("button", { type: "button", onclick: () => close(null) }, tr("Cancel")),
      ),
    );
    setTimeout(() => input.select(), 0);
    return form;
  });
  return typeof value === "string" ? value : null;
}

/** Offers text as a file download. */
export function download(fileName, text, type = "application/json") {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = h("a", { href: url, download: fileName, hidden: true });
  document.body.appendChild(a);
  a.click();
  setTimeout(() => {
    URL.revokeObjectURL(url);
    a.remove();
  }, 1000);
}

/** Shows an error in an element as a plain sentence. */
export function errorBox(message) {
  return h("p.error", { role: "alert" }, message);
}

/**
 * guard wraps an event handler that calls the bridge: a failure is shown
 * to the player (an alert and the live region), never left as an
 * unhandled rejection.
 */
export function guard(fn) {
  return async (...args) => {
    try {
      await fn(...args);
    } catch (err) {
      const msg = err?.message || String(err);
      toast(tr("That did not work"), msg, "negative");
      announce(tr("That did not work: {error}", { error: msg }));
      console.warn("storyloom:", err);
    }
  };
}
