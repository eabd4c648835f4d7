// Save slots and rewinding: save under a name, load, export to a file,
// delete (after a confirmation), import a file, and branch from any
// earlier action of the game's log. The game itself is saved after every
// action (the autosave): reloading the page resumes it where it was.
import { call, attempt } from "./bridge.js";
import { announce, h, nextId, toast } from "./dom.js";
import { ask, confirm, dialog, download, guard } from "./ui.js";
import { when } from "./i18n.js";
import { damagedRecords } from "./damaged.js";
import { tr } from "./lang.js";
import { app } from "./page.js";

/** Asks for a name and saves the game g to a new slot. */
export async function quickSave(g) {
  const name = await ask(tr("Save the game"), tr("Name of this save"), defaultName(g), tr("Save"));
  if (name === null) return;
  const res = await call("saveGame", { sessionId: g.sessionId, name });
  toast(tr("Saved"), res.name || tr("Your game is saved."), "positive");
  announce(res.name ? tr("Saved as {name}.", { name: res.name }) : tr("Saved."));
}

function defaultName(g) {
  return `${g.info.title} — ${new Date().toLocaleString(g.locale, { dateStyle: "short", timeStyle: "short" })}`;
}

/** Opens the saves and rewind dialog for the game g. */
export async function openSaves(g, { tab = "saves" } = {}) {
  const [{ saves, corrupt }, history] = await Promise.all([
    call("listSaves", { campaignId: g.campaignId }),
    attempt("getHistory", { sessionId: g.sessionId }),
  ]);
  const choice = await dialog(
    tr("Saves & rewind"),
    (close) => {
      const body = h("div.saves", null);
      body.append(
        h(
          "p.note",
          null,
          tr("Your game is saved automatically after every move: reload or come back later and it continues here."),
        ),
      );
      body.append(
        h(
          "div.actions",
          null,
          h(
            "button.primary",
            {
              type: "button",
              dataset: { role: "save-now" },
              onclick: guard(async () => {
                close(null);
                await quickSave(g);
              }),
            },
            tr("Save now…"),
          ),
          importControl(close),
        ),
      );
      body.append(h("h3", { id: "slots-h" }, tr("Saved games")));
      if (saves.length === 0) {
        body.append(h("p.muted", null, tr("No saves of this campaign yet.")));
      } else {
        body.append(
          h(
            "ul.slots",
            { "aria-labelledby": "slots-h" },
            saves.map((s) => slot(s, close)),
          ),
        );
      }
      const damaged = damagedRecords(corrupt, () => close({ deleted: true }));
      if (damaged) body.append(damaged);
      body.append(h("h3", { id: "rewind-h" }, tr("Rewind")));
      if (!history.ok) {
        body.append(h("p.muted", null, tr("This game cannot be rewound: {error}", { error: history.error.message })));
      } else if (history.entries.length === 0) {
        body.append(h("p.muted", null, tr("Nothing to rewind yet.")));
      } else {
        body.append(
          h("p.muted", null, tr("Start a new branch from just before one of your moves. This game stays as it is.")),
        );
        body.append(
          h(
            "p.note",
            { dataset: { role: "same-dice" } },
            tr(
              "Chance is fixed when a game starts: the same move from the same place turns out the same way again. To try your luck afresh, start a new game.",
            ),
          ),
        );
        body.append(
          h(
            "ol.rewind-list",
            { "aria-labelledby": "rewind-h" },
            history.entries.map((e, i) =>
              h(
                "li",
                null,
                h("span", null, describe(g, e)),
                h(
                  "button.small",
                  {
                    type: "button",
                    dataset: { branch: String(i) },
                    "aria-label": tr("Rewind here, before move {n}: {move}", { n: i + 1, move: describe(g, e) }),
                    onclick: () => close({ branch: i }),
                  },
                  tr("Rewind here"),
                ),
              ),
            ),
          ),
        );
      }
      body.append(h("div.actions.end", null, h("button", { type: "button", onclick: () => close(null) }, tr("Close"))));
      // From an ending, the move to take back is most likely the last one.
      if (tab === "rewind") setTimeout(() => [...body.querySelectorAll("[data-branch]")].at(-1)?.focus(), 0);
      return body;
    },
    { className: "wide" },
  );
  if (!choice) return;
  if (choice.branch !== undefined) {
    const res = await call("branchSession", { sessionId: g.sessionId, atActionCount: choice.branch });
    toast(tr("Rewound"), tr("A new branch from move {n}.", { n: choice.branch + 1 }), "neutral");
    app.go(`#/play/${encodeURIComponent(res.sessionId)}`);
  } else if (choice.load) {
    const res = await call("loadGame", { saveId: choice.load });
    app.notices = res.notices || [];
    toast(tr("Loaded"), choice.name || "", "neutral");
    app.go(`#/play/${encodeURIComponent(res.sessionId)}`);
  } else if (choice.deleted || choice.imported) {
    await openSaves(g);
  }
}

function describe(g, e) {
  if (e.system) return tr("The campaign was updated");
  const label = g.strings.t(e.labelKey, e.params, e.actionId);
  const detail = e.detailKey ? g.strings.t(e.detailKey) : "";
  const extra = detail || (e.params?.ticks ? `${e.params.ticks} h` : "");
  return extra ? `${label}: ${extra}` : label;
}

function slot(s, close) {
  const name = s.name || tr("Untitled save");
  return h(
    "li.slot",
    { dataset: { saveId: s.saveId } },
    h(
      "div",
      null,
      h("strong", null, name),
      h("span.muted", null, ` ${when(s.savedAt)} · ${tr("{n} moves", { n: s.savedAtSeq })}`),
    ),
    h(
      "div.actions",
      null,
      h(
        "button.small.primary",
        {
          type: "button",
          dataset: { role: "load" },
          "aria-label": tr("Load {name}", { name }),
          onclick: () => close({ load: s.saveId, name }),
        },
        tr("Load"),
      ),
      h(
        "button.small",
        {
          type: "button",
          dataset: { role: "export" },
          "aria-label": tr("Download {name} as a file", { name }),
          onclick: guard(async () => {
            const file = await call("exportSave", { saveId: s.saveId });
            download(file.fileName, file.data);
            announce(tr("Save file downloaded."));
          }),
        },
        tr("Download"),
      ),
      h(
        "button.small.danger",
        {
          type: "button",
          dataset: { role: "delete" },
          "aria-label": tr("Delete {name}", { name }),
          onclick: guard(async () => {
            if (
              !(await confirm(tr("Delete this save?"), tr("“{name}” will be gone for good.", { name }), tr("Delete")))
            )
              return;
            const res = await attempt("deleteSave", { saveId: s.saveId, savedAt: s.savedAt });
            if (res.ok) {
              announce(tr("Deleted {name}.", { name }));
              close({ deleted: s.saveId });
            } else {
              announce(tr("Could not delete: {error}", { error: res.error.message }));
            }
          }),
        },
        tr("Delete"),
      ),
    ),
  );
}

function importControl(close) {
  const id = nextId("imp");
  const msg = h("span.note", { role: "status" });
  const input = h("input.visually-hidden-file", {
    id,
    type: "file",
    accept: ".json,application/json",
    dataset: { role: "import" },
  });
  input.addEventListener(
    "change",
    guard(async () => {
      const file = input.files?.[0];
      input.value = "";
      if (!file) return;
      const res = await attempt("importSave", { data: await file.text(), name: file.name.replace(/\.json$/i, "") });
      if (!res.ok) {
        msg.className = "note error";
        msg.textContent = tr("That save was refused and nothing was changed: {error}.", { error: res.error.message });
        announce(msg.textContent);
        return;
      }
      toast(tr("Save imported"), res.name || file.name, "positive");
      close({ imported: res.saveId });
    }),
  );
  return h("span", null, h("label.button", { for: id }, tr("Import a save file…")), input, msg);
}
