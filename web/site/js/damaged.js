// Records this browser holds that cannot be read (a corrupted session or
// save in IndexedDB): each is listed by id with what is wrong, and can be
// downloaded as it is or deleted. One bad record never hides the others.
import { call, attempt } from "./bridge.js";
import { announce, h } from "./dom.js";
import { confirm, download, guard } from "./ui.js";

/**
 * Renders the corrupt records (from listCorrupt or listSaves' corrupt)
 * as a section, or null when there are none; onChange runs after one is
 * deleted.
 */
export function damagedRecords(records, onChange) {
  if (!records || records.length === 0) return null;
  const what = (r) => (r.store === "saves" ? "Saved game" : "Game in progress");
  return h(
    "section.damaged",
    { "aria-labelledby": "damaged-h", dataset: { role: "damaged" } },
    h("h2", { id: "damaged-h" }, "Damaged records"),
    h(
      "p",
      null,
      "This browser holds records that are corrupt and cannot be read. Everything else is fine. Download one to keep what is left of it, or delete it.",
    ),
    h(
      "ul.slots",
      null,
      records.map((r) =>
        h(
          "li.slot",
          { dataset: { corrupt: r.id, store: r.store } },
          h("div", null, h("strong", null, `${what(r)} ${r.id}`), h("span.muted", null, ` — corrupt: ${r.message}`)),
          h(
            "div.actions",
            null,
            h(
              "button.small",
              {
                type: "button",
                dataset: { role: "export-corrupt" },
                "aria-label": `Download the corrupt record ${r.id}`,
                onclick: guard(async () => {
                  const file = await call("exportCorrupt", { store: r.store, id: r.id });
                  download(file.fileName, file.data);
                  announce("The corrupt record was downloaded.");
                }),
              },
              "Download",
            ),
            h(
              "button.small.danger",
              {
                type: "button",
                dataset: { role: "delete-corrupt" },
                "aria-label": `Delete the corrupt record ${r.id}`,
                onclick: guard(async () => {
                  if (
                    !(await confirm(
                      "Delete this damaged record?",
                      `${what(r)} ${r.id} cannot be read and will be gone for good.`,
                      "Delete",
                    ))
                  )
                    return;
                  const res = await attempt("deleteCorrupt", { store: r.store, id: r.id });
                  announce(res.ok ? `Deleted the damaged record ${r.id}.` : `Could not delete: ${res.error.message}`);
                  if (res.ok) await onChange();
                }),
              },
              "Delete",
            ),
          ),
        ),
      ),
    ),
  );
}
