package freeporttest

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/storyloom/storyloom/engine/freeport"
)

// conformanceCase is one normative statement of the protocol: a setup
// played through the Transport, one request, and what its response must be.
type conformanceCase struct {
	name  string                                 // the rule it checks
	setup func(h *harness)                       // requests played first; nil for none
	owner string                                 // authenticated Owner of the request
	req   string                                 // request body, {{name}} expanded
	code  string                                 // expected error code; "" expects ok
	check func(t *testing.T, h *harness, r resp) // further checks; may be nil
}

func enrolled(h *harness) { h.enrol("alice", "bob", "carol") }

// openOne: alice offers bob 5 wood for 20 credits.
func openOne(h *harness) {
	enrolled(h)
	h.propose("x", "alice", "bob", `[{"assetId":"wood","quantity":5}]`, `[{"assetId":"credits","quantity":20}]`)
}

// countered: openOne, then bob counters with 4 wood for 15 credits.
func countered(h *harness) {
	openOne(h)
	h.counter("x", "bob", `[{"assetId":"wood","quantity":4}]`, `[{"assetId":"credits","quantity":15}]`)
}

func settledWithRule(h *harness) {
	enrolled(h)
	h.propose("x", "alice", "bob", `[{"assetId":"rum","quantity":2}]`, `[{"assetId":"credits","quantity":10}]`)
	h.respond("x", "bob", "approve")
}

func wantEq(t *testing.T, what string, got, want any) {
	t.Helper()
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

const (
	respondX = `{"protocolVersion":2,"action":"respondToExchange","commandId":"r-1","exchangeId":"{{x}}","exchangeVersion":{{x.ver}},"termsHash":"{{x.hash}}","decision":"approve"}`
	declineX = `{"protocolVersion":2,"action":"respondToExchange","commandId":"r-1","exchangeId":"{{x}}","exchangeVersion":{{x.ver}},"termsHash":"{{x.hash}}","decision":"decline"}`
	cancelX  = `{"protocolVersion":2,"action":"cancelExchange","commandId":"k-1","exchangeId":"{{x}}","exchangeVersion":{{x.ver}}}`
	counterX = `{"protocolVersion":2,"action":"counterExchange","commandId":"h-1","exchangeId":"{{x}}","exchangeVersion":{{x.ver}},"termsHash":"{{x.hash}}","offered":[{"assetId":"wood","quantity":3}],"requested":[{"assetId":"credits","quantity":9}]}`
	getX     = `{"protocolVersion":2,"action":"getExchange","exchangeId":"{{x}}"}`
	inv      = `{"protocolVersion":2,"action":"readInventory"}`
	standing = `{"protocolVersion":2,"action":"readStanding"}`
	enrol    = `{"protocolVersion":2,"action":"enroll","commandId":"enroll-01"}`
)

func transferBody(cid, to, asset string, q int) string {
	return fmt.Sprintf(`{"protocolVersion":2,"action":"transfer","commandId":%q,"toPlayerId":"{{%s}}","assetId":%q,"quantity":%d}`, cid, to, asset, q)
}

func cases() []conformanceCase {
	return []conformanceCase{
		// ---- Trust boundary ----
		{name: "MissingAuthenticatedIdentityIsAuthenticationRequired", owner: "", req: inv, code: freeport.CodeAuthenticationRequired},
		{name: "BlankAuthenticatedIdentityIsAuthenticationRequired", owner: "  \t", req: enrol, code: freeport.CodeAuthenticationRequired},
		{name: "PayloadNeverCarriesAnOwnerID", owner: "alice", req: `{"protocolVersion":2,"action":"enroll","commandId":"e","ownerId":"mallory"}`, code: freeport.CodeMalformedRequest},
		{name: "PayloadNeverCarriesAnActorField", setup: enrolled, owner: "alice", req: `{"protocolVersion":2,"action":"readInventory","playerId":"{{bob}}"}`, code: freeport.CodeMalformedRequest},
		{name: "OneOwnerIsExactlyOnePlayer", setup: enrolled, owner: "alice", req: enrol,
			check: func(t *testing.T, h *harness, r resp) { wantEq(t, "playerId", r.result()["playerId"], h.v["alice"]) }},
		{name: "PlayerIDIsOpaqueAndNotOwnerDerived", owner: "alice", req: enrol,
			check: func(t *testing.T, h *harness, r resp) {
				id := r.result()["playerId"].(string)
				if strings.Contains(id, "alice") || id == "" {
					t.Errorf("playerId %q", id)
				}
			}},

		// ---- Response envelope ----
		{name: "SuccessEnvelopeCarriesProtocolVersionOkStateVersionResult", owner: "alice", req: enrol,
			check: func(t *testing.T, h *harness, r resp) {
				wantEq(t, "keys", fmt.Sprint(slices.Sorted(maps.Keys(r.m))), "[ok protocolVersion result stateVersion]")
				wantEq(t, "protocolVersion", r.m["protocolVersion"], 2)
			}},
		{name: "ErrorEnvelopeCarriesCodeAndMessage", owner: "alice", req: inv, code: freeport.CodeNotEnrolled,
			check: func(t *testing.T, h *harness, r resp) {
				wantEq(t, "keys", fmt.Sprint(slices.Sorted(maps.Keys(r.m))), "[error ok protocolVersion stateVersion]")
				wantEq(t, "error keys", fmt.Sprint(slices.Sorted(maps.Keys(r.m["error"].(map[string]any)))), "[code message]")
			}},
		{name: "UnknownFieldsAreRefused", setup: enrolled, owner: "alice", req: `{"protocolVersion":2,"action":"readInventory","verbose":true}`, code: freeport.CodeMalformedRequest},
		{name: "DuplicateFieldsAreRefused", setup: enrolled, owner: "alice", req: `{"protocolVersion":2,"action":"readInventory","action":"readInventory"}`, code: freeport.CodeMalformedRequest},
		{name: "RequestMustBeJSONObject", owner: "alice", req: `[1,2]`, code: freeport.CodeMalformedRequest},
		{name: "RequestMustBeJSON", owner: "alice", req: `{"protocolVersion":2,`, code: freeport.CodeMalformedRequest},
		{name: "UnknownActionIsMalformed", owner: "alice", req: `{"protocolVersion":2,"action":"mintGold"}`, code: freeport.CodeMalformedRequest},
		{name: "ProtocolVersionOtherThan2IsUnsupported", owner: "alice", req: `{"protocolVersion":1,"action":"enroll","commandId":"e","signature":"x"}`, code: freeport.CodeUnsupportedProtocolVersion},
		{name: "ProtocolVersionIsRequired", owner: "alice", req: `{"action":"enroll","commandId":"e"}`, code: freeport.CodeMalformedRequest},
		{name: "MutationsRequireCommandID", setup: enrolled, owner: "alice", req: `{"protocolVersion":2,"action":"setTradingName","tradingName":"x"}`, code: freeport.CodeMalformedRequest},
		{name: "MutationsRequireNonEmptyCommandID", setup: enrolled, owner: "alice", req: `{"protocolVersion":2,"action":"setTradingName","commandId":"","tradingName":"x"}`, code: freeport.CodeMalformedRequest},
		{name: "QueriesOmitCommandID", setup: enrolled, owner: "alice", req: `{"protocolVersion":2,"action":"readInventory","commandId":"q"}`, code: freeport.CodeMalformedRequest},

		// ---- Enrolment ----
		{name: "FirstEnrolmentCreatesPlayerWithStartingAssetsAndOneBump", owner: "alice", req: enrol,
			check: func(t *testing.T, h *harness, r resp) {
				wantEq(t, "stateVersion", r.version(), 1)
				res := r.result()
				wantEq(t, "keys", fmt.Sprint(slices.Sorted(maps.Keys(res))), "[enrolledAt holdings playerId type]")
				wantEq(t, "enrolledAt", res["enrolledAt"], freeport.FormatTime(T0))
				h.v["alice"] = res["playerId"].(string)
				if q, _ := h.holding("alice", "credits"); q != 100 {
					t.Errorf("credits = %d", q)
				}
				if st := h.statement("alice"); len(st) != 3 || st[0]["reason"] != "enrolment" {
					t.Errorf("statement %v", st)
				}
			}},
		{name: "EnrolmentHasNoStatusField", owner: "alice", req: enrol,
			check: func(t *testing.T, h *harness, r resp) {
				if _, ok := r.result()["status"]; ok {
					t.Error("status present")
				}
			}},
		{name: "RepeatedEnrolmentReturnsExistingWithoutBump", setup: func(h *harness) {
			enrolled(h)
			h.must("alice", transferBody("t1", "bob", "credits", 7))
		}, owner: "alice", req: `{"protocolVersion":2,"action":"enroll","commandId":"enroll-02"}`,
			check: func(t *testing.T, h *harness, r resp) {
				wantEq(t, "stateVersion", r.version(), 4)
				wantEq(t, "type", r.result()["type"], "already_enrolled")
				wantEq(t, "playerId", r.result()["playerId"], h.v["alice"])
				if q, _ := h.holding("alice", "credits"); q != 93 {
					t.Errorf("credits %d", q)
				}
				wantEq(t, "version after", h.version(), 4)
			}},

		// ---- Trading Name ----
		{name: "TradingNameIsTrimmedAndPrintedInStanding", setup: enrolled, owner: "alice",
			req: `{"protocolVersion":2,"action":"setTradingName","commandId":"n1","tradingName":"  Marlow's Yard "}`,
			check: func(t *testing.T, h *harness, r resp) {
				wantEq(t, "tradingName", r.result()["tradingName"], "Marlow's Yard")
				e := standingEntryFor(h, "alice")
				wantEq(t, "playerName", e["playerName"], "Marlow's Yard")
				wantEq(t, "tradingName", e["tradingName"], "Marlow's Yard")
			}},
		{name: "TradingNameOf32CharactersIsAccepted", setup: enrolled, owner: "alice",
			req: `{"protocolVersion":2,"action":"setTradingName","commandId":"n1","tradingName":"` + strings.Repeat("é", 32) + `"}`},
		{name: "TradingNameLongerThan32IsInvalid", setup: enrolled, owner: "alice",
			req: `{"protocolVersion":2,"action":"setTradingName","commandId":"n1","tradingName":"` + strings.Repeat("a", 33) + `"}`, code: freeport.CodeInvalidTradingName},
		{name: "TradingNameWithControlCharacterIsInvalid", setup: enrolled, owner: "alice",
			req: `{"protocolVersion":2,"action":"setTradingName","commandId":"n1","tradingName":"Bad\u0007Name"}`, code: freeport.CodeInvalidTradingName},
		{name: "TradingNameOtherThanStringOrNullIsMalformed", setup: enrolled, owner: "alice",
			req: `{"protocolVersion":2,"action":"setTradingName","commandId":"n1","tradingName":42}`, code: freeport.CodeMalformedRequest},
		{name: "TradingNameIsRequired", setup: enrolled, owner: "alice",
			req: `{"protocolVersion":2,"action":"setTradingName","commandId":"n1"}`, code: freeport.CodeMalformedRequest},
		{name: "SetTradingNameRefusesPlayerIDAsUnknownField", setup: enrolled, owner: "alice",
			req: `{"protocolVersion":2,"action":"setTradingName","commandId":"n1","tradingName":"X","playerId":"{{bob}}"}`, code: freeport.CodeMalformedRequest},
		{name: "NullTradingNameRestoresDerivedName", setup: func(h *harness) {
			enrolled(h)
			h.must("alice", `{"protocolVersion":2,"action":"setTradingName","commandId":"n0","tradingName":"Ahab"}`)
		}, owner: "alice", req: `{"protocolVersion":2,"action":"setTradingName","commandId":"n1","tradingName":null}`,
			check: func(t *testing.T, h *harness, r resp) {
				e := standingEntryFor(h, "alice")
				wantEq(t, "playerName", e["playerName"], freeport.DerivedName(h.v["alice"]))
				wantEq(t, "tradingName", e["tradingName"], nil)
			}},
		{name: "EmptyTradingNameRestoresDerivedName", setup: func(h *harness) {
			enrolled(h)
			h.must("alice", `{"protocolVersion":2,"action":"setTradingName","commandId":"n0","tradingName":"Ahab"}`)
		}, owner: "alice", req: `{"protocolVersion":2,"action":"setTradingName","commandId":"n1","tradingName":"   "}`,
			check: func(t *testing.T, h *harness, r resp) {
				wantEq(t, "playerName", standingEntryFor(h, "alice")["playerName"], freeport.DerivedName(h.v["alice"]))
			}},
		{name: "DuplicateTradingNamesAreNotRefused", setup: func(h *harness) {
			enrolled(h)
			h.must("bob", `{"protocolVersion":2,"action":"setTradingName","commandId":"n0","tradingName":"Ahab"}`)
		}, owner: "alice", req: `{"protocolVersion":2,"action":"setTradingName","commandId":"n1","tradingName":"Ahab"}`},
		{name: "SettingTheSameTradingNameBumpsNoStateVersion", setup: func(h *harness) {
			enrolled(h)
			h.must("alice", `{"protocolVersion":2,"action":"setTradingName","commandId":"n0","tradingName":"Ahab"}`)
		}, owner: "alice", req: `{"protocolVersion":2,"action":"setTradingName","commandId":"n1","tradingName":"Ahab"}`,
			check: func(t *testing.T, h *harness, r resp) { wantEq(t, "stateVersion", r.version(), 4) }},
		{name: "TradingNameIsNeverAnAddress", setup: func(h *harness) {
			enrolled(h)
			h.must("bob", `{"protocolVersion":2,"action":"setTradingName","commandId":"n0","tradingName":"Bob"}`)
		}, owner: "alice", req: `{"protocolVersion":2,"action":"transfer","commandId":"t","toPlayerId":"Bob","assetId":"credits","quantity":1}`, code: freeport.CodeUnknownPlayer},

		// ---- Queries ----
		{name: "QueriesAreNotIdempotencyRecordsAndBumpNothing", setup: enrolled, owner: "alice", req: inv,
			check: func(t *testing.T, h *harness, r resp) {
				wantEq(t, "stateVersion", r.version(), 3)
				wantEq(t, "version after", h.version(), 3)
			}},
		{name: "InventoryBelongsToTheCaller", setup: enrolled, owner: "bob", req: inv,
			check: func(t *testing.T, h *harness, r resp) {
				wantEq(t, "keys", fmt.Sprint(slices.Sorted(maps.Keys(r.result()))), "[holdings playerId]")
				wantEq(t, "playerId", r.result()["playerId"], h.v["bob"])
			}},
		{name: "QueriesRequireEnrolment", owner: "alice", req: `{"protocolVersion":2,"action":"readStatement"}`, code: freeport.CodeNotEnrolled},
		{name: "CommandsRequireEnrolment", setup: enrolled, owner: "dave", req: transferBody("t", "bob", "credits", 1), code: freeport.CodeNotEnrolled},
		{name: "OnlyExchangePartiesMayReadTerms", setup: openOne, owner: "carol", req: getX, code: freeport.CodeNotAParty},
		{name: "ReadStandingIsOpenToUnenrolledOwners", setup: enrolled, owner: "visitor", req: standing,
			check: func(t *testing.T, h *harness, r resp) { wantEq(t, "players", len(r.result()["players"].([]any)), 3) }},
		{name: "ReadStandingTakesNoOtherField", owner: "visitor", req: `{"protocolVersion":2,"action":"readStanding","limit":5}`, code: freeport.CodeMalformedRequest},
		{name: "ReadStandingRequiresAuthentication", owner: "", req: standing, code: freeport.CodeAuthenticationRequired},
		{name: "ReadStandingRefusesUnsupportedProtocolVersion", owner: "visitor", req: `{"protocolVersion":3,"action":"readStanding"}`, code: freeport.CodeUnsupportedProtocolVersion},
		{name: "StandingCarriesGameIDGeneratedAtStateVersionPricesPlayers", setup: enrolled, owner: "visitor", req: standing,
			check: func(t *testing.T, h *harness, r resp) {
				res := r.result()
				wantEq(t, "keys", fmt.Sprint(slices.Sorted(maps.Keys(res))), "[gameId generatedAt players prices stateVersion]")
				wantEq(t, "prices", res["prices"], "[map[assetId:credits unitPrice:1] map[assetId:wood unitPrice:3] map[assetId:rum unitPrice:8] map[assetId:medal unitPrice:100]]")
				wantEq(t, "entry keys", fmt.Sprint(slices.Sorted(maps.Keys(res["players"].([]any)[0].(map[string]any)))), "[playerId playerName tradingName wealth]")
				for _, s := range []string{freeport.Treasury, freeport.Issuance, "alice", "ownerId", "holdings"} {
					if contains(r.raw, s) {
						t.Errorf("standing carries %q", s)
					}
				}
			}},
		{name: "StandingIsPricedFromUnitPricesNotSettlements", setup: func(h *harness) {
			enrolled(h)
			h.propose("x", "alice", "bob", `[{"assetId":"wood","quantity":1}]`, `[{"assetId":"credits","quantity":90}]`)
			h.respond("x", "bob", "approve")
		}, owner: "visitor", req: standing,
			check: func(t *testing.T, h *harness, r resp) {
				// alice: 190 credits + 49 wood*3 + 10 rum*8 = 417; bob: 10 + 51*3 + 80 = 243; carol 330.
				ps := r.result()["players"].([]any)
				wantEq(t, "order", []any{ps[0].(map[string]any)["playerId"], ps[1].(map[string]any)["playerId"], ps[2].(map[string]any)["playerId"]},
					[]any{h.v["alice"], h.v["carol"], h.v["bob"]})
				wantEq(t, "wealth", ps[0].(map[string]any)["wealth"], 417)
				wantEq(t, "wealth", ps[2].(map[string]any)["wealth"], 243)
			}},
		{name: "StandingTiesAreOrderedByPlayerID", setup: enrolled, owner: "visitor", req: standing,
			check: func(t *testing.T, h *harness, r resp) {
				var ids []string
				for _, p := range r.result()["players"].([]any) {
					ids = append(ids, p.(map[string]any)["playerId"].(string))
				}
				if !slices.IsSorted(ids) {
					t.Errorf("ids %v", ids)
				}
			}},
		{name: "UnnamedPlayerPrintsTwoWordDerivedName", setup: enrolled, owner: "visitor", req: standing,
			check: func(t *testing.T, h *harness, r resp) {
				e := standingEntryFor(h, "bob")
				if n := e["playerName"].(string); len(strings.Fields(n)) != 2 || n != freeport.DerivedName(h.v["bob"]) {
					t.Errorf("playerName %q", n)
				}
				wantEq(t, "tradingName", e["tradingName"], nil)
			}},
		{name: "ClaimOfAnotherPlayersDerivedNameYields", setup: enrolled, owner: "alice",
			req: `{"protocolVersion":2,"action":"setTradingName","commandId":"n1","tradingName":"{{bob.name}}"}`,
			check: func(t *testing.T, h *harness, r resp) {
				a, b := standingEntryFor(h, "alice"), standingEntryFor(h, "bob")
				wantEq(t, "bob keeps", b["playerName"], freeport.DerivedName(h.v["bob"]))
				if n := a["playerName"].(string); !strings.HasPrefix(n, freeport.DerivedName(h.v["bob"])+" [") || !strings.HasSuffix(n, "]") {
					t.Errorf("claimant printed %q", n)
				}
			}},
		{name: "TwoCollidingClaimsBothYield", setup: func(h *harness) {
			enrolled(h)
			h.must("bob", `{"protocolVersion":2,"action":"setTradingName","commandId":"n0","tradingName":"Ahab"}`)
		}, owner: "alice", req: `{"protocolVersion":2,"action":"setTradingName","commandId":"n1","tradingName":"ahab"}`,
			check: func(t *testing.T, h *harness, r resp) {
				a, b := standingEntryFor(h, "alice")["playerName"].(string), standingEntryFor(h, "bob")["playerName"].(string)
				if !strings.HasPrefix(a, "ahab [") || !strings.HasPrefix(b, "Ahab [") || a[5:] == b[5:] {
					t.Errorf("names %q %q", a, b)
				}
			}},
		{name: "CollidingDerivedNamesBothYield", setup: func(h *harness) {
			// Derived names collide only by chance (64 × 64 of them): enrol
			// Owners until two Players' derived names collide.
			seen := map[string]string{}
			for i := 0; i < 2000; i++ {
				o := fmt.Sprint("o", i)
				id := h.must(o, enrol)["playerId"].(string)
				h.v[o] = id
				name := strings.ToLower(freeport.DerivedName(id))
				if first, ok := seen[name]; ok {
					h.v["first"], h.v["second"] = first, o
					return
				}
				seen[name] = o
			}
			h.t.Fatal("no two of 2000 derived names collided")
		}, owner: "visitor", req: standing,
			check: func(t *testing.T, h *harness, r resp) {
				a, b := standingEntryFor(h, h.v["first"])["playerName"].(string), standingEntryFor(h, h.v["second"])["playerName"].(string)
				for _, who := range []string{"first", "second"} {
					want := freeport.DerivedName(h.v[h.v[who]]) + " ["
					if n := standingEntryFor(h, h.v[who])["playerName"].(string); !strings.HasPrefix(n, want) || !strings.HasSuffix(n, "]") {
						t.Errorf("colliding derived name printed %q, want %q…]", n, want)
					}
				}
				if a == b {
					t.Errorf("colliding derived names both print %q", a)
				}
			}},

		// ---- Transfer ----
		{name: "TransferMovesOnceWithOneLedgerEntry", setup: enrolled, owner: "alice", req: transferBody("pay-01", "bob", "credits", 5),
			check: func(t *testing.T, h *harness, r resp) {
				res := r.result()
				wantEq(t, "keys", fmt.Sprint(slices.Sorted(maps.Keys(res))), "[assetId quantity toPlayerId transferId]")
				wantEq(t, "toPlayerId", res["toPlayerId"], h.v["bob"])
				if q, _ := h.holding("bob", "credits"); q != 105 {
					t.Errorf("bob credits %d", q)
				}
				st := h.statement("bob")
				last := st[len(st)-1]
				wantEq(t, "reason", last["reason"], "transfer")
				wantEq(t, "counterparty", last["counterparty"], h.v["alice"])
				wantEq(t, "transferId", last["transferId"], res["transferId"])
				// One Ledger entry: one new row in each party's Statement.
				wantEq(t, "bob's rows", len(st), 4)
				wantEq(t, "alice's rows", len(h.statement("alice")), 4)
			}},
		{name: "TransferToUnknownPlayerIsUnknownPlayer", setup: enrolled, owner: "alice", req: transferBody("t", "nobody", "credits", 1), code: freeport.CodeUnknownPlayer},
		{name: "TransferToSelfIsSelfDealing", setup: enrolled, owner: "alice", req: transferBody("t", "alice", "credits", 1), code: freeport.CodeSelfDealing},
		{name: "TransferOfUndefinedAssetIsUnknownAsset", setup: enrolled, owner: "alice", req: transferBody("t", "bob", "gold", 1), code: freeport.CodeUnknownAsset},
		{name: "TransferOfNonTransferableAssetIsRefusedAsUnknownAsset", setup: enrolled, owner: "alice", req: transferBody("t", "bob", "medal", 1), code: freeport.CodeUnknownAsset},
		{name: "TransferBeyondAvailableIsInsufficientAvailable", setup: enrolled, owner: "alice", req: transferBody("t", "bob", "credits", 101), code: freeport.CodeInsufficientAvailable},
		{name: "TransferCannotSpendReservedAssets", setup: openOne, owner: "alice", req: transferBody("t", "bob", "wood", 46), code: freeport.CodeInsufficientAvailable},
		{name: "TransferQuantityMustBePositiveInteger", setup: enrolled, owner: "alice", req: transferBody("t", "bob", "credits", 0), code: freeport.CodeMalformedRequest},

		// ---- Exchange: proposing ----
		{name: "ProposeReservesAllOfferedAssets", setup: enrolled, owner: "alice",
			req: `{"protocolVersion":2,"commandId":"offer-01","action":"proposeExchange","counterpartyPlayerId":"{{bob}}","offered":[{"assetId":"wood","quantity":10}],"requested":[{"assetId":"credits","quantity":40}]}`,
			check: func(t *testing.T, h *harness, r resp) {
				q, avail := h.holding("alice", "wood")
				wantEq(t, "wood", [2]int64{q, avail}, [2]int64{50, 40})
				wantEq(t, "status", r.result()["status"], freeport.StatusAwaiting)
				wantEq(t, "exchangeVersion", r.result()["exchangeVersion"], 1)
			}},
		{name: "ProposeRecordsTheProposersApproval", setup: enrolled, owner: "alice",
			req: `{"protocolVersion":2,"commandId":"offer-01","action":"proposeExchange","counterpartyPlayerId":"{{bob}}","offered":[{"assetId":"wood","quantity":10}],"requested":[]}`,
			check: func(t *testing.T, h *harness, r resp) {
				wantEq(t, "approvals", r.result()["approvals"], fmt.Sprintf("[map[approvedAt:%s playerId:%s roundNumber:1]]", freeport.FormatTime(T0), h.v["alice"]))
			}},
		{name: "ExchangeViewCarriesTheDocumentedFields", setup: enrolled, owner: "alice",
			req: `{"protocolVersion":2,"commandId":"offer-01","action":"proposeExchange","counterpartyPlayerId":"{{bob}}","offered":[{"assetId":"wood","quantity":10}],"requested":[]}`,
			check: func(t *testing.T, h *harness, r resp) {
				wantEq(t, "keys", fmt.Sprint(slices.Sorted(maps.Keys(r.result()))), "[answeringPlayerId approvals concludedAt counterpartyPlayerId createdAt exchangeId exchangeVersion expiresAt liveRound nextRoundCursor proposerPlayerId roundCount rounds ruleApplied ruleNote status terms termsHash]")
				wantEq(t, "answeringPlayerId", r.result()["answeringPlayerId"], h.v["bob"])
			}},
		{name: "CanonicalTermsContainExactlyTheDocumentedMembers", setup: enrolled, owner: "alice",
			req: `{"protocolVersion":2,"commandId":"o","action":"proposeExchange","counterpartyPlayerId":"{{bob}}","offered":[{"quantity":2,"assetId":"wood"},{"assetId":"rum","quantity":1},{"assetId":"wood","quantity":3}],"requested":[]}`,
			check: func(t *testing.T, h *harness, r resp) {
				terms := r.result()["terms"].(map[string]any)
				wantEq(t, "keys", fmt.Sprint(slices.Sorted(maps.Keys(terms))), "[counterpartyPlayerId expiresAt offered proposerPlayerId protocolVersion requested]")
				wantEq(t, "normalized offered", terms["offered"], "[map[assetId:rum quantity:1] map[assetId:wood quantity:5]]")
			}},
		{name: "TermsHashIsSHA256OfCanonicalTermsAndReproducible", setup: enrolled, owner: "alice",
			req: `{"protocolVersion":2,"commandId":"o","action":"proposeExchange","counterpartyPlayerId":"{{bob}}","offered":[{"assetId":"wood","quantity":2}],"requested":[{"assetId":"rum","quantity":1}],"expiresAt":"2026-05-28T22:00:00+01:00"}`,
			check: func(t *testing.T, h *harness, r resp) {
				canonTerms := extractRaw(t, r.raw, `"terms":`)
				sum := sha256.Sum256(canonTerms)
				wantEq(t, "termsHash", r.result()["termsHash"], hex.EncodeToString(sum[:]))
			}},
		{name: "ExpiresAtIsNormalizedToOneUTCSpelling", setup: enrolled, owner: "alice",
			req: `{"protocolVersion":2,"commandId":"o","action":"proposeExchange","counterpartyPlayerId":"{{bob}}","offered":[{"assetId":"wood","quantity":2}],"requested":[],"expiresAt":"2026-05-28T23:30:00.5+02:00"}`,
			check: func(t *testing.T, h *harness, r resp) {
				res := r.result()
				wantEq(t, "expiresAt", res["expiresAt"], "2026-05-28T21:30:00.500Z")
				wantEq(t, "terms.expiresAt", res["terms"].(map[string]any)["expiresAt"], "2026-05-28T21:30:00.500Z")
				wantEq(t, "round expiresAt", res["rounds"].([]any)[0].(map[string]any)["expiresAt"], "2026-05-28T21:30:00.500Z")
			}},
		{name: "SameDeadlineSpelledDifferentlySealsTheSameHash", setup: func(h *harness) {
			enrolled(h)
			h.remember("y", h.must("alice", `{"protocolVersion":2,"commandId":"o1","action":"proposeExchange","counterpartyPlayerId":"{{bob}}","offered":[{"assetId":"wood","quantity":2}],"requested":[],"expiresAt":"2026-05-28T21:00:00Z"}`))
		}, owner: "alice",
			req: `{"protocolVersion":2,"commandId":"o2","action":"proposeExchange","counterpartyPlayerId":"{{bob}}","offered":[{"assetId":"wood","quantity":2}],"requested":[],"expiresAt":"2026-05-28T16:00:00.000-05:00"}`,
			check: func(t *testing.T, h *harness, r resp) {
				wantEq(t, "termsHash", r.result()["termsHash"], h.v["y.hash"])
				if r.result()["exchangeId"] == h.v["y"] {
					t.Error("same exchangeId")
				}
			}},
		{name: "ProposeToSelfIsSelfDealing", setup: enrolled, owner: "alice",
			req: `{"protocolVersion":2,"commandId":"o","action":"proposeExchange","counterpartyPlayerId":"{{alice}}","offered":[{"assetId":"wood","quantity":2}],"requested":[]}`, code: freeport.CodeSelfDealing},
		{name: "ProposeToUnknownPlayerIsUnknownPlayer", setup: enrolled, owner: "alice",
			req: `{"protocolVersion":2,"commandId":"o","action":"proposeExchange","counterpartyPlayerId":"p-nope","offered":[{"assetId":"wood","quantity":2}],"requested":[]}`, code: freeport.CodeUnknownPlayer},
		{name: "ProposeNamingUndefinedAssetIsUnknownAsset", setup: enrolled, owner: "alice",
			req: `{"protocolVersion":2,"commandId":"o","action":"proposeExchange","counterpartyPlayerId":"{{bob}}","offered":[{"assetId":"wood","quantity":2}],"requested":[{"assetId":"tea","quantity":1}]}`, code: freeport.CodeUnknownAsset},
		{name: "ProposeBeyondAvailableIsInsufficientAvailable", setup: enrolled, owner: "alice",
			req: `{"protocolVersion":2,"commandId":"o","action":"proposeExchange","counterpartyPlayerId":"{{bob}}","offered":[{"assetId":"wood","quantity":51}],"requested":[]}`, code: freeport.CodeInsufficientAvailable},
		{name: "ProposeWithPastDeadlineIsMalformed", setup: enrolled, owner: "alice",
			req: `{"protocolVersion":2,"commandId":"o","action":"proposeExchange","counterpartyPlayerId":"{{bob}}","offered":[{"assetId":"wood","quantity":1}],"requested":[],"expiresAt":"2020-01-01T00:00:00Z"}`, code: freeport.CodeMalformedRequest},
		{name: "ProposeWithNothingOnEitherSideIsMalformed", setup: enrolled, owner: "alice",
			req: `{"protocolVersion":2,"commandId":"o","action":"proposeExchange","counterpartyPlayerId":"{{bob}}","offered":[],"requested":[]}`, code: freeport.CodeMalformedRequest},
		{name: "TermsHashIdentifiesTermsNotAnExchange", setup: func(h *harness) {
			enrolled(h)
			h.propose("y", "alice", "bob", `[{"assetId":"wood","quantity":1}]`, `[]`)
		}, owner: "alice",
			req: `{"protocolVersion":2,"commandId":"o2","action":"proposeExchange","counterpartyPlayerId":"{{bob}}","offered":[{"assetId":"wood","quantity":1}],"requested":[]}`,
			check: func(t *testing.T, h *harness, r resp) {
				wantEq(t, "hash", r.result()["termsHash"], h.v["y.hash"])
				if r.result()["exchangeId"] == h.v["y"] {
					t.Error("same exchange")
				}
			}},

		// ---- Exchange: answering ----
		{name: "ApprovalSettlesBothDirections", setup: openOne, owner: "bob", req: respondX,
			check: func(t *testing.T, h *harness, r resp) {
				wantEq(t, "status", r.result()["status"], freeport.StatusSettled)
				wantEq(t, "answeringPlayerId", r.result()["answeringPlayerId"], nil)
				aw, _ := h.holding("alice", "wood")
				ac, _ := h.holding("alice", "credits")
				bw, _ := h.holding("bob", "wood")
				bc, _ := h.holding("bob", "credits")
				wantEq(t, "holdings", []int64{aw, ac, bw, bc}, []int64{45, 120, 55, 80})
			}},
		{name: "ApprovalIsRecordedAgainstTheLiveRound", setup: openOne, owner: "bob", req: respondX,
			check: func(t *testing.T, h *harness, r resp) {
				ap := r.result()["approvals"].([]any)
				wantEq(t, "approvals", len(ap), 2)
				wantEq(t, "second", ap[1].(map[string]any)["playerId"], h.v["bob"])
				wantEq(t, "round", ap[1].(map[string]any)["roundNumber"], 1)
			}},
		{name: "DeclineReleasesReservations", setup: openOne, owner: "bob", req: declineX,
			check: func(t *testing.T, h *harness, r resp) {
				wantEq(t, "status", r.result()["status"], freeport.StatusDeclined)
				q, avail := h.holding("alice", "wood")
				wantEq(t, "wood", [2]int64{q, avail}, [2]int64{50, 50})
			}},
		{name: "OnlyThePartyBeingAskedMayRespond", setup: openOne, owner: "alice", req: respondX, code: freeport.CodeNotYourTurn},
		{name: "RespondByNonPartyIsNotAParty", setup: openOne, owner: "carol", req: respondX, code: freeport.CodeNotAParty},
		{name: "RespondToUnknownExchangeIsUnknownExchange", setup: openOne, owner: "bob",
			req: `{"protocolVersion":2,"action":"respondToExchange","commandId":"r","exchangeId":"x-nope","exchangeVersion":1,"termsHash":"{{x.hash}}","decision":"approve"}`, code: freeport.CodeUnknownExchange},
		{name: "UnknownExchangeIsCheckedBeforeNotAParty", setup: openOne, owner: "carol",
			req: `{"protocolVersion":2,"action":"getExchange","exchangeId":"x-nope"}`, code: freeport.CodeUnknownExchange},
		{name: "ApprovalMustNameTheCurrentVersion", setup: openOne, owner: "bob",
			req: `{"protocolVersion":2,"action":"respondToExchange","commandId":"r","exchangeId":"{{x}}","exchangeVersion":2,"termsHash":"{{x.hash}}","decision":"approve"}`, code: freeport.CodeStaleExchangeVersion},
		{name: "ApprovalMustNameTheExactTermsHash", setup: openOne, owner: "bob",
			req: `{"protocolVersion":2,"action":"respondToExchange","commandId":"r","exchangeId":"{{x}}","exchangeVersion":1,"termsHash":"` + strings.Repeat("0", 64) + `","decision":"approve"}`, code: freeport.CodeTermsMismatch},
		{name: "DecisionIsApproveOrDecline", setup: openOne, owner: "bob",
			req: `{"protocolVersion":2,"action":"respondToExchange","commandId":"r","exchangeId":"{{x}}","exchangeVersion":1,"termsHash":"{{x.hash}}","decision":"maybe"}`, code: freeport.CodeMalformedRequest},
		{name: "OnlyTheLiveRoundAuthorMayCancel", setup: openOne, owner: "bob", req: cancelX, code: freeport.CodeNotYourTurn},
		{name: "CancelReleasesReservations", setup: openOne, owner: "alice", req: cancelX,
			check: func(t *testing.T, h *harness, r resp) {
				wantEq(t, "status", r.result()["status"], freeport.StatusCancelled)
				wantEq(t, "exchangeVersion", r.result()["exchangeVersion"], 2)
				_, avail := h.holding("alice", "wood")
				wantEq(t, "wood available", avail, 50)
			}},
		{name: "CancelMustNameTheCurrentVersion", setup: openOne, owner: "alice",
			req: `{"protocolVersion":2,"action":"cancelExchange","commandId":"k","exchangeId":"{{x}}","exchangeVersion":7}`, code: freeport.CodeStaleExchangeVersion},
		{name: "CounteredProposerCannotCancel", setup: countered, owner: "alice", req: cancelX, code: freeport.CodeNotYourTurn},
		{name: "CounteredProposerDeclinesInstead", setup: countered, owner: "alice", req: declineX,
			check: func(t *testing.T, h *harness, r resp) {
				wantEq(t, "status", r.result()["status"], freeport.StatusDeclined)
				_, avail := h.holding("bob", "credits")
				wantEq(t, "bob credits available", avail, 100)
			}},
		{name: "ConcludedExchangeIsNotOpenWhoeverSends", setup: func(h *harness) {
			openOne(h)
			h.respond("x", "bob", "decline")
		}, owner: "alice", req: cancelX, code: freeport.CodeExchangeNotOpen},
		{name: "StatusIsDecidedBeforeTurn", setup: func(h *harness) {
			openOne(h)
			h.respond("x", "bob", "decline")
		}, owner: "bob", req: cancelX, code: freeport.CodeExchangeNotOpen},
		{name: "IdentityIsDecidedBeforeStatus", setup: func(h *harness) {
			openOne(h)
			h.respond("x", "bob", "decline")
		}, owner: "carol", req: cancelX, code: freeport.CodeNotAParty},
		{name: "ExpiryConcludesAndReleasesReservations", setup: func(h *harness) {
			openOne(h)
			h.now += 3600 * 1000
		}, owner: "alice", req: getX,
			check: func(t *testing.T, h *harness, r resp) {
				wantEq(t, "status", r.result()["status"], freeport.StatusExpired)
				wantEq(t, "exchangeVersion", r.result()["exchangeVersion"], 2)
				wantEq(t, "answeringPlayerId", r.result()["answeringPlayerId"], nil)
				_, avail := h.holding("alice", "wood")
				wantEq(t, "wood available", avail, 50)
			}},
		{name: "ExpiredExchangeRefusesApproval", setup: func(h *harness) {
			openOne(h)
			h.now += 3600 * 1000
		}, owner: "bob", req: respondX, code: freeport.CodeExchangeNotOpen},
		{name: "ExpirySweepTakesAtMost50PerPass", setup: func(h *harness) {
			enrolled(h)
			for i := 0; i < 60; i++ {
				h.propose(fmt.Sprint("e", i), "alice", "bob", `[{"assetId":"credits","quantity":1}]`, `[]`)
			}
			h.now += 3600 * 1000
		}, owner: "alice", req: `{"protocolVersion":2,"action":"listExchanges","status":"awaiting_counterparty","limit":100}`,
			check: func(t *testing.T, h *harness, r resp) {
				wantEq(t, "still open after one pass", len(r.result()["exchanges"].([]any)), 10)
				r2 := h.must("alice", `{"protocolVersion":2,"action":"listExchanges","status":"awaiting_counterparty"}`)
				wantEq(t, "open after two passes", len(r2["exchanges"].([]any)), 0)
			}},

		// ---- unfunded ----
		{name: "UnfundedWhenAnsweringPartyLacksItsSide", setup: func(h *harness) {
			enrolled(h)
			h.propose("x", "alice", "bob", `[{"assetId":"wood","quantity":5}]`, `[{"assetId":"credits","quantity":100}]`)
			h.must("bob", transferBody("t", "carol", "credits", 1))
		}, owner: "bob", req: respondX,
			check: func(t *testing.T, h *harness, r resp) {
				wantEq(t, "status", r.result()["status"], freeport.StatusUnfunded)
				aw, aa := h.holding("alice", "wood")
				bc, _ := h.holding("bob", "credits")
				wantEq(t, "nothing moved, reservation released", []int64{aw, aa, bc}, []int64{50, 50, 99})
			}},
		{name: "UnfundedWhenRuleWithdrawalExceedsPostSettlementAvailable", setup: func(h *harness) {
			enrolled(h)
			// bob pays 80 and the duty withdraws 30 more: 20 left < 30.
			h.propose("x", "alice", "bob", `[{"assetId":"rum","quantity":1}]`, `[{"assetId":"credits","quantity":80}]`)
		}, owner: "bob", req: respondX,
			check: func(t *testing.T, h *harness, r resp) {
				wantEq(t, "status", r.result()["status"], freeport.StatusUnfunded)
				wantEq(t, "ruleApplied", r.result()["ruleApplied"], false)
				bc, _ := h.holding("bob", "credits")
				ar, aa := h.holding("alice", "rum")
				wantEq(t, "nothing moved", []int64{bc, ar, aa}, []int64{100, 10, 10})
			}},
		{name: "RuleWithdrawalCannotUseAssetsReservedElsewhere", setup: func(h *harness) {
			enrolled(h)
			h.propose("y", "bob", "carol", `[{"assetId":"credits","quantity":50}]`, `[]`)
			// bob has 50 of 100 available and pays 25: 75 held, 50 still reserved, 25 < the 30 duty.
			h.propose("x", "alice", "bob", `[{"assetId":"rum","quantity":1}]`, `[{"assetId":"credits","quantity":25}]`)
		}, owner: "bob", req: respondX,
			check: func(t *testing.T, h *harness, r resp) {
				wantEq(t, "status", r.result()["status"], freeport.StatusUnfunded)
			}},
		{name: "UnfundedNamesNoPartyAndBothCausesLookAlike", owner: "visitor", req: standing,
			check: func(t *testing.T, h *harness, r resp) {
				shape := func(short string) string {
					hh := newHarness(t, h.fresh(t))
					enrolled(hh)
					if short == "side" {
						hh.propose("x", "alice", "bob", `[{"assetId":"rum","quantity":1}]`, `[{"assetId":"credits","quantity":101}]`)
					} else {
						hh.propose("x", "alice", "bob", `[{"assetId":"rum","quantity":1}]`, `[{"assetId":"credits","quantity":80}]`)
					}
					out := hh.call("bob", respondX)
					res := out.result()
					delete(res, "terms")
					delete(res, "termsHash")
					delete(res, "rounds")
					// The two games are separate instances: compare their
					// shapes with each game's IDs replaced by their roles.
					s := strings.NewReplacer(hh.v["alice"], "<alice>", hh.v["bob"], "<bob>", hh.v["carol"], "<carol>",
						hh.v["x"], "<x>").Replace(fmt.Sprint(res))
					if strings.Contains(string(out.raw), "short") || strings.Contains(string(out.raw), "insufficient") {
						t.Errorf("unfunded response explains itself: %s", out.raw)
					}
					return s
				}
				wantEq(t, "cause 1 vs cause 2", shape("side"), shape("rule"))
			}},
		{name: "UnfundedApprovalConsumesCommandIDAndConcludes", setup: func(h *harness) {
			enrolled(h)
			h.propose("x", "alice", "bob", `[{"assetId":"wood","quantity":5}]`, `[{"assetId":"credits","quantity":100}]`)
			h.must("bob", transferBody("t", "carol", "credits", 1))
			h.must("bob", respondX)
			h.must("carol", transferBody("t", "bob", "credits", 1))
		}, owner: "bob", req: `{"protocolVersion":2,"action":"respondToExchange","commandId":"r-2","exchangeId":"{{x}}","exchangeVersion":2,"termsHash":"{{x.hash}}","decision":"approve"}`,
			code: freeport.CodeExchangeNotOpen,
			check: func(t *testing.T, h *harness, r resp) {
				again := h.call("bob", respondX)
				wantEq(t, "replayed status", again.result()["status"], freeport.StatusUnfunded)
				wantEq(t, "exchangeVersion", again.result()["exchangeVersion"], 2)
				wantEq(t, "approvals", len(again.result()["approvals"].([]any)), 2)
			}},

		// ---- Rounds ----
		{name: "CounterWritesTheNextRoundAndPassesTheTurn", setup: openOne, owner: "bob", req: counterX,
			check: func(t *testing.T, h *harness, r resp) {
				res := r.result()
				wantEq(t, "liveRound", res["liveRound"], 2)
				wantEq(t, "roundCount", res["roundCount"], 2)
				wantEq(t, "answeringPlayerId", res["answeringPlayerId"], h.v["alice"])
				wantEq(t, "exchangeVersion", res["exchangeVersion"], 2)
				wantEq(t, "status", res["status"], freeport.StatusAwaiting)
				rounds := res["rounds"].([]any)
				wantEq(t, "round 1 outcome", rounds[0].(map[string]any)["outcome"], "countered")
				wantEq(t, "round 2 outcome", rounds[1].(map[string]any)["outcome"], nil)
				wantEq(t, "round 2 author", rounds[1].(map[string]any)["authorPlayerId"], h.v["bob"])
			}},
		{name: "CounterReleasesPreviousAuthorAndReservesNewAuthor", setup: openOne, owner: "bob", req: counterX,
			check: func(t *testing.T, h *harness, r resp) {
				_, aw := h.holding("alice", "wood")
				_, bc := h.holding("bob", "credits")
				wantEq(t, "available", []int64{aw, bc}, []int64{50, 91})
			}},
		{name: "CounterNeverChangesDirectionOrParties", setup: openOne, owner: "bob", req: counterX,
			check: func(t *testing.T, h *harness, r resp) {
				terms := r.result()["terms"].(map[string]any)
				wantEq(t, "proposer", terms["proposerPlayerId"], h.v["alice"])
				wantEq(t, "counterparty", terms["counterpartyPlayerId"], h.v["bob"])
				wantEq(t, "offered", terms["offered"], "[map[assetId:wood quantity:3]]")
			}},
		{name: "CounterBeyondAvailableLeavesPreviousRoundStanding", setup: openOne, owner: "bob",
			req:  `{"protocolVersion":2,"action":"counterExchange","commandId":"h","exchangeId":"{{x}}","exchangeVersion":1,"termsHash":"{{x.hash}}","offered":[{"assetId":"wood","quantity":3}],"requested":[{"assetId":"credits","quantity":101}]}`,
			code: freeport.CodeInsufficientAvailable,
			check: func(t *testing.T, h *harness, r resp) {
				x := h.must("alice", getX)
				wantEq(t, "roundCount", x["roundCount"], 1)
				_, aw := h.holding("alice", "wood")
				wantEq(t, "alice still reserved", aw, 45)
			}},
		{name: "CounterValidatesAssetsLikePropose", setup: countered, owner: "alice",
			req:  `{"protocolVersion":2,"action":"counterExchange","commandId":"h","exchangeId":"{{x}}","exchangeVersion":2,"termsHash":"{{x.hash}}","offered":[{"assetId":"medal","quantity":1}],"requested":[]}`,
			code: freeport.CodeUnknownAsset},
		{name: "CounterValidatesExpiresAtLikePropose", setup: openOne, owner: "bob",
			req:  `{"protocolVersion":2,"action":"counterExchange","commandId":"h","exchangeId":"{{x}}","exchangeVersion":1,"termsHash":"{{x.hash}}","offered":[],"requested":[{"assetId":"credits","quantity":1}],"expiresAt":"2026-05-28T20:26:40Z"}`,
			code: freeport.CodeMalformedRequest},
		{name: "CounterByLiveRoundAuthorIsNotYourTurn", setup: openOne, owner: "alice", req: counterX, code: freeport.CodeNotYourTurn},
		{name: "CounterMustNameTheLiveRoundsTermsHash", setup: countered, owner: "alice",
			req:  `{"protocolVersion":2,"action":"counterExchange","commandId":"h","exchangeId":"{{x}}","exchangeVersion":2,"termsHash":"` + strings.Repeat("a", 64) + `","offered":[],"requested":[{"assetId":"credits","quantity":1}]}`,
			code: freeport.CodeTermsMismatch},
		{name: "CounterByStrangerIsNotAParty", setup: openOne, owner: "carol", req: counterX, code: freeport.CodeNotAParty},
		{name: "ProposerMayApproveACounter", setup: countered, owner: "alice", req: respondX,
			check: func(t *testing.T, h *harness, r resp) {
				wantEq(t, "status", r.result()["status"], freeport.StatusSettled)
				aw, _ := h.holding("alice", "wood")
				wantEq(t, "alice wood", aw, 46)
			}},
		{name: "AuthoringARoundIsItsAuthorsApproval", setup: openOne, owner: "bob", req: counterX,
			check: func(t *testing.T, h *harness, r resp) {
				wantEq(t, "approvals", r.result()["approvals"], fmt.Sprintf("[map[approvedAt:%[1]s playerId:%[2]s roundNumber:1] map[approvedAt:%[1]s playerId:%[3]s roundNumber:2]]", freeport.FormatTime(T0), h.v["alice"], h.v["bob"]))
			}},
		{name: "ExchangeVersionCountsMovesNotRounds", setup: countered, owner: "alice", req: declineX,
			check: func(t *testing.T, h *harness, r resp) {
				wantEq(t, "exchangeVersion", r.result()["exchangeVersion"], 3)
				wantEq(t, "liveRound", r.result()["liveRound"], 2)
			}},
		{name: "ConcludedExchangesLastRoundKeepsNullOutcome", setup: countered, owner: "alice", req: declineX,
			check: func(t *testing.T, h *harness, r resp) {
				rounds := r.result()["rounds"].([]any)
				wantEq(t, "outcome", rounds[1].(map[string]any)["outcome"], nil)
				wantEq(t, "answeringPlayerId", r.result()["answeringPlayerId"], nil)
			}},
		{name: "RoundsCarryNoCommandIDOrWords", setup: countered, owner: "alice", req: getX,
			check: func(t *testing.T, h *harness, r resp) {
				for _, rd := range r.result()["rounds"].([]any) {
					wantEq(t, "round keys", fmt.Sprint(slices.Sorted(maps.Keys(rd.(map[string]any)))), "[authorPlayerId createdAt expiresAt outcome roundNumber terms termsHash]")
				}
				if contains(r.raw, `"commandId"`) {
					t.Error("commandId in exchange view")
				}
			}},
		{name: "RoundsAreBoundedTo100MostRecentWithCursor", setup: longHaggle(130), owner: "alice", req: getX,
			check: func(t *testing.T, h *harness, r resp) {
				res := r.result()
				rounds := res["rounds"].([]any)
				wantEq(t, "len", len(rounds), 100)
				wantEq(t, "roundCount", res["roundCount"], 131)
				wantEq(t, "first", rounds[0].(map[string]any)["roundNumber"], 32)
				ap := res["approvals"].([]any)
				wantEq(t, "approvals of carried rounds", ap[0].(map[string]any)["roundNumber"], 32)
				cur := res["nextRoundCursor"].(string)
				older := h.must("alice", `{"protocolVersion":2,"action":"getExchange","exchangeId":"{{x}}","roundCursor":"`+cur+`"}`)
				or := older["rounds"].([]any)
				wantEq(t, "older window", []any{len(or), or[0].(map[string]any)["roundNumber"], or[30].(map[string]any)["roundNumber"]}, []any{31, 1, 31})
				wantEq(t, "cursor at round 1", older["nextRoundCursor"], nil)
				wantEq(t, "approvals end at window", len(older["approvals"].([]any)), 31)
			}},
		{name: "RoundLimitMayAskForFewerRounds", setup: longHaggle(4), owner: "bob",
			req: `{"protocolVersion":2,"action":"getExchange","exchangeId":"{{x}}","roundLimit":2}`,
			check: func(t *testing.T, h *harness, r resp) {
				res := r.result()
				wantEq(t, "rounds", len(res["rounds"].([]any)), 2)
				cur := res["nextRoundCursor"].(string)
				next := h.must("bob", `{"protocolVersion":2,"action":"getExchange","exchangeId":"{{x}}","roundLimit":2,"roundCursor":"`+cur+`"}`)
				rs := next["rounds"].([]any)
				wantEq(t, "window", []any{rs[0].(map[string]any)["roundNumber"], rs[1].(map[string]any)["roundNumber"]}, []any{2, 3})
			}},
		{name: "RoundLimitNeverAsksForMoreThan100", setup: openOne, owner: "alice",
			req: `{"protocolVersion":2,"action":"getExchange","exchangeId":"{{x}}","roundLimit":101}`, code: freeport.CodeMalformedRequest},
		{name: "ForeignRoundCursorIsMalformedForAParty", setup: openOne, owner: "alice",
			req: `{"protocolVersion":2,"action":"getExchange","exchangeId":"{{x}}","roundCursor":"r.2.0000000000000000"}`, code: freeport.CodeMalformedRequest},
		{name: "ForeignRoundCursorIsCheckedAfterIdentity", setup: openOne, owner: "carol",
			req: `{"protocolVersion":2,"action":"getExchange","exchangeId":"{{x}}","roundCursor":"bogus"}`, code: freeport.CodeNotAParty},
		{name: "ListingCarriesLiveTermsAndRoundCountButNoRounds", setup: longHaggle(3), owner: "alice",
			req: `{"protocolVersion":2,"action":"listExchanges"}`,
			check: func(t *testing.T, h *harness, r resp) {
				x := r.result()["exchanges"].([]any)[0].(map[string]any)
				wantEq(t, "rounds", x["rounds"], nil)
				wantEq(t, "nextRoundCursor", x["nextRoundCursor"], nil)
				wantEq(t, "roundCount", x["roundCount"], 4)
				ap := x["approvals"].([]any)
				wantEq(t, "live round approvals", []any{len(ap), ap[0].(map[string]any)["roundNumber"]}, []any{1, 4})
			}},
		{name: "ListExchangesFiltersByPartyAndStatusThenPages", setup: func(h *harness) {
			enrolled(h)
			for i := 0; i < 5; i++ {
				h.propose(fmt.Sprint("e", i), "alice", "bob", `[{"assetId":"credits","quantity":1}]`, `[]`)
			}
			h.propose("c", "carol", "bob", `[{"assetId":"credits","quantity":1}]`, `[]`)
			h.respond("e1", "bob", "decline")
		}, owner: "alice", req: `{"protocolVersion":2,"action":"listExchanges","status":"awaiting_counterparty","limit":3}`,
			check: func(t *testing.T, h *harness, r resp) {
				page := r.result()
				ids := exchangeIDs(page)
				wantEq(t, "first page", ids, []string{h.v["e4"], h.v["e3"], h.v["e2"]})
				cur := page["nextCursor"].(string)
				page2 := h.must("alice", `{"protocolVersion":2,"action":"listExchanges","status":"awaiting_counterparty","limit":3,"cursor":"`+cur+`"}`)
				wantEq(t, "second page", exchangeIDs(page2), []string{h.v["e0"]})
				wantEq(t, "nextCursor at end", page2["nextCursor"], nil)
			}},
		{name: "ListExchangesRefusesUnknownStatus", setup: enrolled, owner: "alice",
			req: `{"protocolVersion":2,"action":"listExchanges","status":"countered"}`, code: freeport.CodeMalformedRequest},
		{name: "ListExchangesRefusesForeignCursor", setup: enrolled, owner: "alice",
			req: `{"protocolVersion":2,"action":"listExchanges","cursor":"x.1.abcdef"}`, code: freeport.CodeMalformedRequest},

		// ---- Game Rules ----
		{name: "RuleAppliedAndRuleNoteReachOnlyThePartyWhoseGoodsMoved", setup: enrolled, owner: "alice",
			req: `{"protocolVersion":2,"action":"proposeExchange","commandId":"o","counterpartyPlayerId":"{{bob}}","offered":[{"assetId":"rum","quantity":2}],"requested":[{"assetId":"credits","quantity":10}]}`,
			check: func(t *testing.T, h *harness, r resp) {
				h.remember("x", r.result())
				bobView := h.respond("x", "bob", "approve")
				wantEq(t, "bob ruleApplied", bobView["ruleApplied"], true)
				wantEq(t, "bob ruleNote", bobView["ruleNote"], "The customs man takes his cut.")
				a := h.must("alice", getX)
				wantEq(t, "alice ruleApplied", a["ruleApplied"], false)
				wantEq(t, "alice ruleNote", a["ruleNote"], nil)
				bc, _ := h.holding("bob", "credits")
				wantEq(t, "bob credits (100 - 10 - 30)", bc, 60)
			}},
		{name: "RuleSignalIsStoredForLaterReads", setup: settledWithRule, owner: "bob",
			req: `{"protocolVersion":2,"action":"listExchanges"}`,
			check: func(t *testing.T, h *harness, r resp) {
				x := r.result()["exchanges"].([]any)[0].(map[string]any)
				wantEq(t, "ruleApplied", x["ruleApplied"], true)
				wantEq(t, "ruleNote", x["ruleNote"], "The customs man takes his cut.")
			}},
		{name: "RuleMovementNarratesItselfInTheStatement", setup: settledWithRule, owner: "bob",
			req: `{"protocolVersion":2,"action":"readStatement"}`,
			check: func(t *testing.T, h *harness, r resp) {
				entries := r.result()["entries"].([]any)
				last := entries[len(entries)-1].(map[string]any)
				wantEq(t, "reason", last["reason"], "rule_applied")
				wantEq(t, "counterparty", last["counterparty"], nil)
				wantEq(t, "ruleNote", last["ruleNote"], "The customs man takes his cut.")
				for _, s := range []string{"game_rule", "rum-duty"} {
					if contains(r.raw, s) {
						t.Errorf("statement names the mechanism %q", s)
					}
				}
			}},
		{name: "RuleWithNoLinesReportsNullNote", setup: enrolled, owner: "alice",
			req: `{"protocolVersion":2,"action":"proposeExchange","commandId":"o","counterpartyPlayerId":"{{bob}}","offered":[{"assetId":"wood","quantity":10}],"requested":[]}`,
			check: func(t *testing.T, h *harness, r resp) {
				h.remember("x", r.result())
				h.respond("x", "bob", "approve")
				a := h.must("alice", getX)
				wantEq(t, "ruleApplied", a["ruleApplied"], true)
				wantEq(t, "ruleNote", a["ruleNote"], nil)
				m, _ := h.holding("alice", "medal")
				wantEq(t, "medal granted from issuance", m, 1)
			}},
		{name: "RulesAreNotPartOfTerms", setup: settledWithRule, owner: "alice", req: getX,
			check: func(t *testing.T, h *harness, r resp) {
				canonTerms := extractRaw(t, r.raw, `"terms":`)
				sum := sha256.Sum256(canonTerms)
				wantEq(t, "hash", r.result()["termsHash"], hex.EncodeToString(sum[:]))
				if contains(canonTerms, "rule") {
					t.Error("rule in terms")
				}
			}},
		{name: "NoRuleFiresOnDecline", setup: func(h *harness) {
			enrolled(h)
			h.propose("x", "alice", "bob", `[{"assetId":"rum","quantity":2}]`, `[{"assetId":"credits","quantity":10}]`)
		}, owner: "bob", req: declineX,
			check: func(t *testing.T, h *harness, r resp) {
				wantEq(t, "ruleApplied", r.result()["ruleApplied"], false)
				bc, _ := h.holding("bob", "credits")
				wantEq(t, "credits", bc, 100)
			}},
		{name: "RuleOutsideItsWindowDoesNotFire", setup: openOne, owner: "bob", req: respondX,
			check: func(t *testing.T, h *harness, r resp) {
				ac, _ := h.holding("alice", "credits")
				wantEq(t, "no festival grant", ac, 120)
			}},

		// ---- Statements ----
		{name: "EntryNumberIsTheReadersOwnDenseOrdinal", setup: func(h *harness) {
			enrolled(h)
			h.must("alice", transferBody("a1", "carol", "credits", 1))
			h.must("bob", transferBody("b1", "carol", "credits", 1))
			h.must("alice", transferBody("a2", "bob", "credits", 1))
		}, owner: "bob", req: `{"protocolVersion":2,"action":"readStatement"}`,
			check: func(t *testing.T, h *harness, r resp) {
				for i, e := range r.result()["entries"].([]any) {
					wantEq(t, "entryNumber", e.(map[string]any)["entryNumber"], i+1)
				}
				wantEq(t, "count", len(r.result()["entries"].([]any)), 5)
			}},
		{name: "StatementShowsCommandIDOnlyOnRowsTheReaderIssued", setup: func(h *harness) {
			enrolled(h)
			h.must("alice", transferBody("secret-alice", "bob", "credits", 1))
			h.must("bob", transferBody("bob-own", "alice", "credits", 1))
		}, owner: "bob", req: `{"protocolVersion":2,"action":"readStatement"}`,
			check: func(t *testing.T, h *harness, r resp) {
				if contains(r.raw, "secret-alice") {
					t.Error("bob reads alice's commandId")
				}
				entries := r.result()["entries"].([]any)
				wantEq(t, "alice's row", entries[3].(map[string]any)["commandId"], nil)
				wantEq(t, "bob's row", entries[4].(map[string]any)["commandId"], "bob-own")
			}},
		{name: "StatementLimitReturnsMostRecentEntries", setup: enrolled, owner: "alice",
			req: `{"protocolVersion":2,"action":"readStatement","limit":2}`,
			check: func(t *testing.T, h *harness, r resp) {
				e := r.result()["entries"].([]any)
				wantEq(t, "numbers", []any{e[0].(map[string]any)["entryNumber"], e[1].(map[string]any)["entryNumber"]}, []any{2, 3})
			}},
		{name: "StatementLimitIsBounded", setup: enrolled, owner: "alice",
			req: `{"protocolVersion":2,"action":"readStatement","limit":101}`, code: freeport.CodeMalformedRequest},
		{name: "NothingAboutARoundReachesTheStatement", setup: countered, owner: "alice",
			req:   `{"protocolVersion":2,"action":"readStatement"}`,
			check: func(t *testing.T, h *harness, r resp) { wantEq(t, "entries", len(r.result()["entries"].([]any)), 3) }},

		// ---- Idempotency ----
		{name: "IdenticalRetryReturnsOriginalBytes", setup: func(h *harness) {
			enrolled(h)
			h.v["first"] = string(h.call("alice", transferBody("pay-01", "bob", "credits", 5)).raw)
			h.must("carol", transferBody("c", "bob", "credits", 1))
		}, owner: "alice", req: transferBody("pay-01", "bob", "credits", 5),
			check: func(t *testing.T, h *harness, r resp) {
				wantEq(t, "bytes", string(r.raw), h.v["first"])
				ac, _ := h.holding("alice", "credits")
				wantEq(t, "moved once", ac, 95)
			}},
		{name: "DifferentContentUnderSameCommandIDIsReuse", setup: func(h *harness) {
			enrolled(h)
			h.must("alice", transferBody("pay-01", "bob", "credits", 5))
		}, owner: "alice", req: transferBody("pay-01", "bob", "credits", 6), code: freeport.CodeCommandIDReuse},
		{name: "CommandIDReuseAcrossActions", setup: enrolled, owner: "alice",
			req: `{"protocolVersion":2,"action":"setTradingName","commandId":"enroll-01","tradingName":"X"}`, code: freeport.CodeCommandIDReuse},
		{name: "IdempotencyIsScopedToThePlayer", setup: func(h *harness) {
			enrolled(h)
			h.must("alice", transferBody("pay-01", "carol", "credits", 5))
		}, owner: "bob", req: transferBody("pay-01", "carol", "credits", 5),
			check: func(t *testing.T, h *harness, r resp) {
				cc, _ := h.holding("carol", "credits")
				wantEq(t, "carol got both", cc, 110)
			}},
		{name: "PlayerResolutionPrecedesReplayLookup", setup: enrolled, owner: "dave",
			req: `{"protocolVersion":2,"action":"setTradingName","commandId":"enroll-01","tradingName":"X"}`, code: freeport.CodeNotEnrolled},
		{name: "ReplayIsKeyedByTheCanonicalParsedCommand", setup: func(h *harness) {
			enrolled(h)
			h.v["first"] = string(h.call("alice", `{"protocolVersion":2,"commandId":"o","action":"proposeExchange","counterpartyPlayerId":"{{bob}}","offered":[{"assetId":"wood","quantity":1}],"requested":[],"expiresAt":"2026-05-28T21:00:00Z"}`).raw)
		}, owner: "alice",
			req:   `{"requested":[],"expiresAt":"2026-05-28T22:00:00.000+01:00","offered":[{"quantity":1,"assetId":"wood"}],"counterpartyPlayerId":"{{bob}}","action":"proposeExchange","commandId":"o","protocolVersion":2}`,
			check: func(t *testing.T, h *harness, r resp) { wantEq(t, "bytes", string(r.raw), h.v["first"]) }},
		{name: "RefusedCommandsAreNotRecorded", setup: func(h *harness) {
			enrolled(h)
			if r := h.call("alice", transferBody("pay-big", "bob", "credits", 150)); r.code() != freeport.CodeInsufficientAvailable {
				h.t.Fatalf("got %s", r.raw)
			}
			h.must("carol", transferBody("c", "alice", "credits", 60))
		}, owner: "alice", req: transferBody("pay-big", "bob", "credits", 150),
			check: func(t *testing.T, h *harness, r resp) {
				bc, _ := h.holding("bob", "credits")
				wantEq(t, "bob", bc, 250)
			}},
		{name: "RepeatedEnrolmentUnderOriginalCommandIDReplaysOriginalBytes", setup: func(h *harness) {
			h.v["first"] = string(h.call("alice", enrol).raw)
			h.enrol("alice", "bob")
			h.must("alice", transferBody("t", "bob", "credits", 9))
		}, owner: "alice", req: enrol,
			check: func(t *testing.T, h *harness, r resp) { wantEq(t, "bytes", string(r.raw), h.v["first"]) }},
		{name: "StateVersionIsOneGameWideCounter", setup: enrolled, owner: "bob", req: transferBody("t", "alice", "credits", 1),
			check: func(t *testing.T, h *harness, r resp) { wantEq(t, "stateVersion", r.version(), 4) }},
	}
}

// longHaggle opens x and counters it n times, alternating bob and alice.
func longHaggle(n int) func(h *harness) {
	return func(h *harness) {
		openOne(h)
		who := []string{"bob", "alice"}
		for i := 0; i < n; i++ {
			h.counter("x", who[i%2], fmt.Sprintf(`[{"assetId":"wood","quantity":%d}]`, 1+i%5), `[{"assetId":"credits","quantity":3}]`)
		}
	}
}

func exchangeIDs(page map[string]any) []string {
	var ids []string
	for _, x := range page["exchanges"].([]any) {
		ids = append(ids, x.(map[string]any)["exchangeId"].(string))
	}
	return ids
}

func standingEntryFor(h *harness, owner string) map[string]any {
	h.t.Helper()
	for _, p := range h.must("visitor", standing)["players"].([]any) {
		if m := p.(map[string]any); m["playerId"] == h.v[owner] {
			return m
		}
	}
	h.t.Fatalf("%s not on the standing", owner)
	return nil
}

// extractRaw returns the raw JSON value following key's first occurrence.
func extractRaw(t *testing.T, raw []byte, key string) []byte {
	t.Helper()
	i := strings.Index(string(raw), key)
	if i < 0 {
		t.Fatalf("no %s in %s", key, raw)
	}
	rest := raw[i+len(key):]
	depth := 0
	for j, c := range rest {
		switch c {
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return rest[:j+1]
			}
		}
	}
	t.Fatalf("unterminated %s", key)
	return nil
}
