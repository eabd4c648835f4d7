package e2e

import (
	"fmt"
	"strings"
	"testing"
)

// corruptRecords writes three unreadable records straight into the page's
// IndexedDB, as a disk fault or a bad extension would: a save whose record
// JSON is cut short (under the real save's profile, so the profile index
// finds it), a save that is a bare string, and the session in play
// overwritten by a broken one.
const corruptRecords = `(sessionId) => new Promise((resolve, reject) => {
	const open = indexedDB.open("storyloom");
	open.onerror = () => reject(open.error);
	open.onsuccess = () => {
		const db = open.result;
		const tx = db.transaction(["saves", "sessions"], "readwrite");
		const saves = tx.objectStore("saves");
		const all = saves.getAll();
		all.onsuccess = () => {
			const profileId = all.result[0].profileId;
			saves.put({ rec: "{\"saveId\":\"save-cut", blob: new Uint8Array([1, 2]), blobNil: false, profileId }, "save-cut");
			saves.put("garbage", "save-junk");
			tx.objectStore("sessions").put({ rec: "{broken", blob: new Uint8Array(), blobNil: false }, sessionId);
		};
		tx.oncomplete = () => { db.close(); resolve(true); };
		tx.onerror = () => reject(tx.error);
	};
})`

// TestCorruptRecordsAreListedNotHidden corrupts two saves and the session
// in play in IndexedDB, and checks in headless Chromium that the good save
// is still listed, each bad record is reported by id as corrupt (in the
// library, in the saves dialog and through listSaves), continuing the
// broken session says corrupt rather than unknown, no storage banner
// claims a failed write, and a bad record can be downloaded and deleted.
func TestCorruptRecordsAreListedNotHidden(t *testing.T) {
	t.Parallel()
	p := open(t)
	startStory(t, p, "gannet-rock")
	firstChoice(t, p)
	p.quickSave("")
	sessionID := eval[string](p, `decodeURIComponent(location.hash.split("/")[2])`)
	if !eval[bool](p, fmt.Sprintf("(%s)(%q)", corruptRecords, sessionID)) {
		t.Fatal("could not corrupt the records")
	}

	p.visit("") // a fresh page: nothing cached in the module
	p.screen("library")
	p.waitJS(`document.querySelectorAll("[data-role=damaged] [data-corrupt]").length === 3`)
	for _, id := range []string{"save-cut", "save-junk", sessionID} {
		text := p.text(fmt.Sprintf(`[data-corrupt=%q]`, id))
		if !strings.Contains(text, "corrupt") || !strings.Contains(text, id) {
			t.Errorf("the library's entry for %s reads %q", id, text)
		}
	}
	if !eval[bool](p, `document.getElementById("storage-banner").hidden`) {
		t.Errorf("the storage banner shows: %s", p.text("#storage-banner"))
	}
	p.shot("damaged-records")
	p.axe("damaged records")

	listed := eval[string](p, `storyloom.listSaves({}).then(r => JSON.stringify({ok: r.ok, saves: r.saves.length, corrupt: r.corrupt.map(c => c.id).sort()}))`)
	if listed != `{"ok":true,"saves":1,"corrupt":["save-cut","save-junk"]}` {
		t.Errorf("listSaves answered %s", listed)
	}
	resumed := eval[string](p, fmt.Sprintf(`storyloom.resumeSession({sessionId: %q}).then(r => JSON.stringify(r.error))`, sessionID))
	if !strings.Contains(resumed, `"code":"corrupt_record"`) || !strings.Contains(resumed, "corrupt") || strings.Contains(resumed, "unknown") {
		t.Errorf("resuming the broken session answered %s", resumed)
	}
	exported := eval[string](p, `storyloom.exportCorrupt({store: "saves", id: "save-cut"}).then(r => r.data)`)
	if !strings.Contains(exported, `"id":"save-cut"`) || !strings.Contains(exported, "saveId") {
		t.Errorf("the download of save-cut is %.200s", exported)
	}
	if got := eval[string](p, `storyloom.deleteCorrupt({store: "saves", id: "save-junk"}).then(r => r.ok ? "" : r.error.code)`); got != "" {
		t.Errorf("deleting a corrupt record: %s", got)
	}
	saveID := eval[string](p, `storyloom.listSaves({}).then(r => r.saves[0].saveId)`)
	if got := eval[string](p, fmt.Sprintf(`storyloom.deleteCorrupt({store: "saves", id: %q}).then(r => r.ok ? "" : r.error.code)`, saveID)); got == "" {
		t.Error("deleteCorrupt deleted a save that reads")
	}

	// Through the page: the deleted one is gone, and the button deletes
	// another after its confirmation.
	p.visit("")
	p.screen("library")
	p.waitJS(`document.querySelectorAll("[data-role=damaged] [data-corrupt]").length === 2`)
	p.click(`[data-corrupt="save-cut"] [data-role="delete-corrupt"]`)
	p.waitJS(`document.querySelector("dialog[open] [data-confirm=yes]") !== null`)
	p.click(`dialog[open] [data-confirm="yes"]`)
	p.waitJS(`document.querySelectorAll("[data-role=damaged] [data-corrupt]").length === 1`)

	// Continue on the broken session says it is corrupt.
	p.click(`[data-continue="gannet-rock"]`)
	p.waitJS(`document.querySelector("main").innerText.includes("corrupt")`)
	if main := p.text("main"); strings.Contains(main, "unknown session") {
		t.Errorf("continuing reads %q", main)
	}
}
