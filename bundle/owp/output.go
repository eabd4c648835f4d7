package owp

import (
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/storyloom/storyloom/bundle/owp/wire"
)

// gardenFacts are the fixed public facts of every writing job.
var gardenFacts = wire.GardenFacts{Garden: "Elm Garden", Day: "Saturday", Activity: "planting workshop"}

// outputMediaType reports whether mt is a job output media type.
func outputMediaType(mt string) bool {
	return mt == wire.MediaPlain || mt == wire.MediaMarkdown || mt == wire.MediaJSON
}

// newJob builds a round's job for a capability and output media type.
func newJob(capability, mediaType string) (wire.Job, bool) {
	if !outputMediaType(mediaType) {
		return wire.Job{}, false
	}
	contract := wire.OutputContract{MediaType: mediaType, MaxBytes: wire.MaxOutputBytes}
	switch capability {
	case wire.CapabilityWriting:
		if mediaType == wire.MediaJSON {
			contract.SchemaID = ptr(wire.SchemaGardenFacts)
		}
		facts := gardenFacts
		return wire.Job{
			Capability:     capability,
			Instruction:    "Write a short public notice announcing the garden event from these facts.",
			Input:          wire.JobInput{Facts: &facts},
			ResultAudience: "public",
			OutputContract: contract,
		}, true
	case wire.CapabilityWeather:
		if mediaType == wire.MediaJSON {
			contract.SchemaID = ptr(wire.SchemaWeatherFacts)
		}
		return wire.Job{
			Capability:     capability,
			Instruction:    "Report the current weather at the owner's location: area, temperature in °C and condition.",
			Input:          wire.JobInput{Dependencies: []wire.ContextScope{{Field: wire.ScopeField, Purpose: wire.ScopePurpose}}},
			ResultAudience: "private",
			OutputContract: contract,
		}, true
	}
	return wire.Job{}, false
}

// decodeContent reads a writing submission's content: FORMAT_MISMATCH for
// another media type, INVALID_OUTPUT for anything malformed, extra or too
// large.
func decodeContent(raw json.RawMessage, contract wire.OutputContract) (wire.Content, string) {
	var head struct {
		MediaType string `json:"media_type"`
	}
	if err := json.Unmarshal(raw, &head); err != nil {
		return wire.Content{}, wire.CodeInvalidOutput
	}
	if head.MediaType != contract.MediaType {
		return wire.Content{}, wire.CodeFormatMismatch
	}
	var c wire.Content
	if err := decodeStrict(raw, &c); err != nil {
		return wire.Content{}, wire.CodeInvalidOutput
	}
	return c, checkContent(c, contract)
}

// checkContent checks a decoded content against an output contract.
func checkContent(c wire.Content, contract wire.OutputContract) string {
	if c.MediaType != contract.MediaType {
		return wire.CodeFormatMismatch
	}
	hasData := len(c.Data) > 0 && string(c.Data) != "null"
	if contract.SchemaID == nil {
		if c.Text == nil || hasData || *c.Text == "" || len(*c.Text) > contract.MaxBytes {
			return wire.CodeInvalidOutput
		}
		return ""
	}
	if c.Text != nil || !hasData {
		return wire.CodeInvalidOutput
	}
	var n int
	switch *contract.SchemaID {
	case wire.SchemaGardenFacts:
		var f wire.GardenFacts
		if decodeStrict(c.Data, &f) != nil || !boundedFact(f.Garden) || !boundedFact(f.Day) || !boundedFact(f.Activity) {
			return wire.CodeInvalidOutput
		}
		n = len(`{"garden":,"day":,"activity":}`) + jsQuotedLen(f.Garden) + jsQuotedLen(f.Day) + jsQuotedLen(f.Activity)
	case wire.SchemaWeatherFacts:
		var f wire.WeatherFacts
		if decodeStrict(c.Data, &f) != nil || !boundedFact(f.Area) || !boundedFact(f.Condition) || !boundedFact(f.ObservedAt) ||
			f.TemperatureC < -100 || f.TemperatureC > 100 {
			return wire.CodeInvalidOutput
		}
		n = len(`{"area":,"temperature_c":,"condition":,"observed_at":}`) + len(strconv.Itoa(f.TemperatureC)) +
			jsQuotedLen(f.Area) + jsQuotedLen(f.Condition) + jsQuotedLen(f.ObservedAt)
	}
	if n > contract.MaxBytes {
		return wire.CodeInvalidOutput
	}
	return ""
}

// boundedFact accepts 1 to 2048 bytes: output fields are bounded, and
// three of them can still exceed the 4096-byte output limit.
func boundedFact(v string) bool { return v != "" && len(v) <= 2048 }

// jsQuotedLen is the length in UTF-8 bytes of JSON.stringify(v) for a
// string: quotes, two-character escapes for quote, backslash, \b \t \n \f
// \r, six-character escapes for other control characters, everything else
// as is (U+2028 and U+2029 included, unlike encoding/json).
func jsQuotedLen(v string) int {
	n := 2
	for _, r := range v {
		switch {
		case r == '"' || r == '\\' || r == '\b' || r == '\t' || r == '\n' || r == '\f' || r == '\r':
			n += 2
		case r < 0x20:
			n += 6
		default:
			n += utf8.RuneLen(r)
		}
	}
	return n
}

// lowered is the text a policy searches: the text, or the data as sent.
func lowered(c wire.Content) string {
	if c.Text != nil {
		return strings.ToLower(*c.Text)
	}
	return strings.ToLower(string(c.Data))
}

// writingScore is most-facts-first-submission-v1: one point for each of
// "elm garden", "saturday" and "planting workshop".
func writingScore(c wire.Content) int {
	text, n := lowered(c), 0
	for _, fact := range []string{"elm garden", "saturday", "planting workshop"} {
		if strings.Contains(text, fact) {
			n++
		}
	}
	return n
}

// weatherScore is weather-facts-v1: one point each for the area, the
// temperature and the condition of the observation delivered to the agent.
// JSON compares the fields exactly; text searches case-insensitively for
// the area, "<temperature> °C" and the condition.
func weatherScore(c wire.Content, obs wire.WeatherObservation) int {
	n := 0
	if c.Text == nil {
		var f wire.WeatherFacts
		_ = json.Unmarshal(c.Data, &f) // checked by checkContent
		for _, ok := range []bool{f.Area == obs.Area, f.TemperatureC == obs.TemperatureC, f.Condition == obs.Condition} {
			if ok {
				n++
			}
		}
		return n
	}
	text := lowered(c)
	for _, want := range []string{obs.Area, strconv.Itoa(obs.TemperatureC) + " °C", obs.Condition} {
		if strings.Contains(text, strings.ToLower(want)) {
			n++
		}
	}
	return n
}

// decodeEncrypted reads a weather submission's outer content:
// ENCRYPTION_REQUIRED for plaintext, INVALID_CONTEXT for a malformed box.
func decodeEncrypted(raw json.RawMessage) (wire.Box, string) {
	var head struct {
		MediaType string `json:"media_type"`
	}
	if err := json.Unmarshal(raw, &head); err != nil {
		return wire.Box{}, wire.CodeInvalidContext
	}
	if head.MediaType != wire.MediaEncrypted {
		return wire.Box{}, wire.CodeEncryptionRequired
	}
	var ec wire.EncryptedContent
	if err := decodeStrict(raw, &ec); err != nil {
		return wire.Box{}, wire.CodeInvalidContext
	}
	return ec.Box, ""
}
