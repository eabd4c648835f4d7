package multiplayer

import (
	"encoding/json"
	"fmt"
	"testing"
)

// Secrets are the cards one player's page must not show at one moment of
// a card game: the other seats' cards hidden from that player.
type Secrets struct {
	// Cards are cards in the other seats' hands: neither their ids nor
	// their names may show.
	Cards []CardFace `json:"cards"`
	// Names are the names of the other seats' hidden cards that have no
	// id on the wire (their libraries).
	Names []string `json:"names"`
	// Public is the public table at that moment, as JSON (a spectator's
	// view). A hidden card's name may show where it also names a public
	// card: another copy on the battlefield, in a graveyard, in the log.
	Public string `json:"public"`
}

// recordViews, run in every document a [Tab] loads, keeps what the page
// shows after each game view it receives, for [Tab.shows]: the text of
// the document (every text node and attribute value, the lobby's stale
// deck panel aside) and the view, taken once the view is drawn (the
// table's data-seq changes on every draw; a draw of the same view, for a
// language's card text, is not a new view). At most 200 are kept between
// two scans; dropped counts the rest.
//
// Each element's text is kept until a MutationObserver sees a change in
// it or below it (or sees it put back into the document), so taking the text of the document after a draw walks
// only what the draw changed; the text is the same, part for part, as a
// walk of the whole document would give. A scan looks for a card by a
// plain substring search first, and tries the whole-word pattern only
// where the card's id or name occurs at all, each distinct one once.
const recordViews = `(() => {
  const views = [];
  let dropped = 0;
  // kept holds an element's text (null when it has none) until a change
  // inside it; mark forgets it for a changed node and its ancestors, and
  // for every element of a subtree put into the document (which may have
  // changed while it was out, unobserved).
  const kept = new WeakMap();
  const mark = (records) => {
    for (const r of records) {
      for (let n = r.target; n; n = n.parentNode) kept.delete(n);
      for (const n of r.addedNodes) {
        if (n.nodeType !== 1) continue;
        kept.delete(n);
        for (const d of n.querySelectorAll("*")) kept.delete(d);
      }
    }
  };
  const changes = new MutationObserver(mark);
  changes.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  const text = (el) => {
    if (el.id === "lobby") return null;
    let got = kept.get(el);
    if (got !== undefined) return got;
    const out = [];
    for (const a of el.attributes) out.push(a.value);
    for (const n of el.childNodes) {
      if (n.nodeType === 1) {
        const t = text(n);
        if (t !== null) out.push(t);
      } else if (n.nodeType === 3) out.push(n.data);
    }
    got = out.length ? out.join("\n") : null;
    kept.set(el, got);
    return got;
  };
  const seen = (g) => {
    mark(changes.takeRecords());
    const body = document.body ? text(document.body) : null;
    return { text: (body ?? "") + "\n" + JSON.stringify(g), own: JSON.stringify([g.my_hand, g.revealed, g.valid_actions]) };
  };
  const word = (w) => new RegExp("(^|[^\\w])" + w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&") + "($|[^\\w])");
  // shows reports whether the text has w as a whole word.
  const shows = (text, w, re) => text.includes(w) && re.test(text);
  window.storyloomLeak = (s, keep) => {
    const all = keep ? views.slice() : views.splice(0);
    all.push(seen(window.storyloomRooms?.game || {}));
    const lost = dropped;
    if (!keep) dropped = 0;
    const cards = [...new Map((s.cards || []).map((c) => [c.id, c])).values()].map((c) => ({ ...c, re: word(c.id) }));
    const names = [...new Set([...(s.cards || []).map((c) => c.name), ...(s.names || [])])]
      .map((n) => ({ n, re: word(n) })).filter(({ n, re }) => !shows(s.public, n, re));
    for (const [i, v] of all.entries()) {
      const at = i === all.length - 1 ? "the page as it is" : "the page after view " + (i + 1) + " of " + (all.length - 1) + " since the last scan";
      const near = (re) => { const m = re.exec(v.text); return v.text.slice(Math.max(0, m.index - 80), m.index + 80).replace(/\s+/g, " "); };
      for (const c of cards) {
        if (shows(v.text, c.id, c.re)) return at + " shows the id " + c.id + " (" + c.name + "): …" + near(c.re) + "…";
      }
      for (const { n, re } of names) {
        if (!shows(v.own, n, re) && shows(v.text, n, re)) return at + " names " + n + ": …" + near(re) + "…";
      }
    }
    return lost ? lost + " views were drawn but not kept for the scan" : "";
  };
  addEventListener("DOMContentLoaded", () => {
    const table = document.getElementById("table");
    if (!table) return;
    let last = null;
    new MutationObserver(() => {
      const g = window.storyloomRooms?.game;
      if (!g || g === last) return;
      last = g;
      if (views.length < 200) views.push(seen(g));
      else dropped++;
    }).observe(table, { attributes: true, attributeFilter: ["data-seq"] });
  });
})();`

// shows returns how the tab's page shows one of s's cards, or "": every
// view the page has drawn since the last scan is scanned, then the page as
// it is. A hidden card's id may not show anywhere (the document or the
// view it holds); its name may not show unless s.Public names it too, or
// the view's own private members (the viewer's hand, the cards revealed
// to it, the actions it is offered, which may name any card) do. With
// keep the views stay for the next scan.
func (tb *Tab) shows(s Secrets, keep bool) string {
	tb.t.Helper()
	b, err := json.Marshal(s)
	if err != nil {
		tb.t.Fatal(err)
	}
	return Eval[string](tb, fmt.Sprintf(`window.storyloomLeak(%s, %t)`, b, keep))
}

// publicView is whether the tab watches and its view without the
// receiver's private members (the whole view, for a spectator): what any
// receiver may know.
const publicView = `(() => { const { my_hand, revealed, valid_actions, ...v } = window.storyloomRooms.game || {};
  return { watching: document.getElementById("table").dataset.mode === "spectator", view: JSON.stringify(v) }; })()`

// publicTable is the public table as the tabs hold it: the views of those
// that watch, or, when none does, the public members of the seated ones'.
func publicTable(tabs []*Tab) string {
	var watched, seated string
	for _, tb := range tabs {
		pv := Eval[struct {
			Watching bool   `json:"watching"`
			View     string `json:"view"`
		}](tb, publicView)
		if pv.Watching {
			watched += pv.View
		} else {
			seated += pv.View
		}
	}
	if watched != "" {
		return watched
	}
	return seated
}

// NoLeak waits until the seated players' tabs and the watchers' show the
// same moment of the game, then fails the test if any page has shown,
// since the last scan, a card in another seat's hand at that moment (by
// its id or its name, [Tab.shows]): a card is public once it leaves the
// hand, and keeps its id. The hands are read from their owners' views,
// the public table from the tabs' ([publicTable]).
func NoLeak(t *testing.T, seated []*Tab, watchers ...*Tab) {
	t.Helper()
	all := append(append([]*Tab(nil), seated...), watchers...)
	settle(t, all...)
	hands := map[*Tab][]CardFace{}
	for _, tb := range seated {
		hands[tb] = Eval[[]CardFace](tb, `window.storyloomRooms?.game?.my_hand ?? []`)
	}
	public := publicTable(all)
	for _, viewer := range all {
		s := Secrets{Public: public}
		for _, tb := range seated {
			if tb != viewer {
				s.Cards = append(s.Cards, hands[tb]...)
			}
		}
		if leak := viewer.shows(s, false); leak != "" {
			t.Fatalf("%s's page shows a card in another seat's hand: %s", viewer.Label, leak)
		}
	}
}
