package conformance

import (
	"crypto/ecdh"
	"crypto/ed25519"
	"crypto/hpke"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/storyloom/storyloom/bundle/owp"
)

// serverCodes is every error code of the profile, from the specification.
var serverCodes = []string{
	"INVALID_REQUEST", "UNSUPPORTED_PROFILE", "ENCRYPTION_REQUIRED", "INVALID_CONTEXT",
	"AUTH_REQUIRED", "INVALID_SIGNATURE", "CLOCK_SKEW", "UNKNOWN_SESSION", "SESSION_EXPIRED",
	"FORBIDDEN", "SCOPE_DENIED", "CONSENT_DENIED", "GRANT_REVOKED", "GRANT_EXPIRED",
	"NOT_FOUND", "METHOD_NOT_ALLOWED",
	"INSTANCE_CHANGED", "REGISTRATION_EXISTS", "IDEMPOTENCY_CONFLICT", "INVALID_STATE", "ROUND_CLOSED",
	"CONSENT_REQUIRED", "LOCATION_MISSING", "LOCATION_STALE", "CONTEXT_CHANGED", "RESULT_NOT_READY",
	"PAYLOAD_TOO_LARGE", "INVALID_OUTPUT", "FORMAT_MISMATCH", "CAPACITY_REACHED", "INTERNAL_ERROR",
	"CONTEXT_UNAVAILABLE", "PROVIDER_UNAVAILABLE",
}

// TestMain runs the suite and then, when every test ran, checks that the
// cases produced every error code of the profile.
func TestMain(m *testing.M) {
	flag.Parse()
	code := m.Run()
	if code == 0 && flag.Lookup("test.run").Value.String() == "" {
		var missing []string
		for _, c := range serverCodes {
			if !seenCodes.m[c] {
				missing = append(missing, c)
			}
		}
		sort.Strings(missing)
		if len(missing) > 0 {
			fmt.Fprintf(os.Stderr, "FAIL: no conformance case produced %s\n", strings.Join(missing, ", "))
			code = 1
		}
	}
	os.Exit(code)
}

// TestInternalError: a fault inside a transition answers a retryable
// INTERNAL_ERROR with no diagnostics, and the market goes on.
func TestInternalError(t *testing.T) {
	var fault atomic.Bool
	m := startWith(t, owp.Options{NewID: func() string {
		if fault.Load() {
			panic("injected fault")
		}
		return newUUID()
	}})
	owner := m.register("owner", writing, false)
	fault.Store(true)
	r := owner.post("/v1/rounds", map[string]any{"profile": profile, "media_type": plain})
	r.want(t, 500, "INTERNAL_ERROR")
	if strings.Contains(string(r.raw), "injected") {
		t.Fatalf("diagnostics leaked: %s", r.raw)
	}
	fault.Store(false)
	owner.createRound(writing, plain)
}

// TestSigningVectorOffline verifies docs/owp/signing-vector.json with this
// package's own reading of the layouts: nothing here is shared with the
// server or the Go client.
func TestSigningVectorOffline(t *testing.T) {
	raw, err := os.ReadFile("../../../docs/owp/signing-vector.json")
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Seed          string            `json:"ed25519_seed_hex"`
		SPKI          string            `json:"public_key_spki_base64url"`
		AgentID       string            `json:"agent_id"`
		Method        string            `json:"method"`
		PathQuery     string            `json:"path_query"`
		Body          string            `json:"body"`
		SigningString string            `json:"signing_string"`
		Headers       map[string]string `json:"headers"`
		Context       struct {
			ResponseAAD  string `json:"response_aad"`
			RequestAAD   string `json:"request_aad"`
			RecipientKey string `json:"recipient_p256_private_key_hex"`
			AdapterKey   string `json:"adapter_signing_public_key"`
			Box          struct {
				Enc        string `json:"enc"`
				Ciphertext string `json:"ciphertext"`
			} `json:"box"`
			Plaintext string `json:"plaintext"`
			Signature string `json:"response_signature"`
		} `json:"context"`
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	seed, _ := hex.DecodeString(v.Seed)
	priv := ed25519.NewKeyFromSeed(seed)
	spki, _ := x509.MarshalPKIXPublicKey(priv.Public())
	sum := sha256.Sum256(spki)
	if base64.RawURLEncoding.EncodeToString(spki) != v.SPKI || "agent_"+hex.EncodeToString(sum[:])[:24] != v.AgentID || v.Headers["OWP-Agent-Id"] != v.AgentID {
		t.Fatal("key or agent id")
	}
	var ts int64
	fmt.Sscan(v.Headers["OWP-Timestamp"], &ts)
	msg := signingString(v.Method, v.PathQuery, v.Headers["OWP-Instance-Id"], v.AgentID, v.Headers["OWP-Session-Id"], ts, v.Headers["OWP-Request-Id"], []byte(v.Body))
	if string(msg) != v.SigningString {
		t.Fatalf("signing string:\n%s\nwant\n%s", v.SigningString, msg)
	}
	sig, err := base64.RawURLEncoding.Strict().DecodeString(v.Headers["OWP-Signature"])
	if err != nil || !ed25519.Verify(priv.Public().(ed25519.PublicKey), msg, sig) {
		t.Fatal("the request signature does not verify")
	}
	lines := strings.Split(v.Context.ResponseAAD, "\n")
	if len(lines) != 8 || lines[0] != profile+"/context" || lines[1] != "response" ||
		v.Context.RequestAAD != strings.Join(append([]string{lines[0], "request"}, lines[2:]...), "\n") {
		t.Fatalf("AAD layout %q", lines)
	}
	adapter, _ := base64.StdEncoding.DecodeString(v.Context.AdapterKey)
	rsig, _ := base64.StdEncoding.DecodeString(v.Context.Signature)
	if !ed25519.Verify(adapter, []byte(v.Context.ResponseAAD+"\n"+v.Context.Box.Enc+"\n"+v.Context.Box.Ciphertext), rsig) {
		t.Fatal("the response signature does not verify")
	}
	rk, _ := hex.DecodeString(v.Context.RecipientKey)
	key, err := hpke.DHKEM(ecdh.P256()).NewPrivateKey(rk)
	if err != nil {
		t.Fatal(err)
	}
	enc, _ := base64.StdEncoding.DecodeString(v.Context.Box.Enc)
	ct, _ := base64.StdEncoding.DecodeString(v.Context.Box.Ciphertext)
	rc, err := hpke.NewRecipient(enc, key, hpke.HKDFSHA256(), hpke.AES256GCM(), []byte(profile+"/context"))
	if err != nil {
		t.Fatal(err)
	}
	if pt, err := rc.Open([]byte(v.Context.ResponseAAD), ct); err != nil || string(pt) != v.Context.Plaintext {
		t.Fatalf("box: %v", err)
	}
}
