package e2e

import (
	"testing"
)

// TestContentSecurityPolicyHolds plays the served site (under the
// Content-Security-Policy header; with a save) and the offline file from
// disk (under its own <meta> policy) with every policy violation failing
// the test (the harness reports them as console errors), then checks each
// policy is in force: an injected inline script does not run.
func TestContentSecurityPolicyHolds(t *testing.T) {
	t.Parallel()
	for _, where := range []string{"served", "offline file"} {
		t.Run(where, func(t *testing.T) {
			var p *page
			if where == "served" {
				p = open(t)
			} else {
				p = openFile(t, suite.offline)
			}
			startStory(t, p, "gannet-rock")
			firstChoice(t, p)
			firstChoice(t, p)
			if where == "served" {
				// (The offline file's origin, file://, is shared with
				// TestOfflineFilePlaysAndSaves, which counts its saves.)
				p.quickSave("")
				if n := eval[int](p, `storyloom.listSaves({}).then(r => r.saves.length)`); n != 1 {
					t.Errorf("%d saves after a quick save, want 1", n)
				}
			}
			if errs := p.bp.Errors(); len(errs) > 0 {
				t.Fatalf("while playing: %v", errs)
			}
			// The policy is in force: an inline script added now is refused.
			p.bp.Allow("CSP violation: script-src-elem blocked inline")
			p.bp.Allow("Executing inline script violates the following Content Security Policy")
			ran := eval[bool](p, `new Promise((resolve) => {
				document.addEventListener("securitypolicyviolation", () => resolve(window.injected === true), { once: true });
				const s = document.createElement("script");
				s.textContent = "window.injected = true";
				document.head.append(s);
			})`)
			if ran {
				t.Error("an injected inline script ran")
			}
		})
	}
}
