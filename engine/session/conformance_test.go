package session_test

import (
	"testing"

	"github.com/storyloom/storyloom/engine/session"
	"github.com/storyloom/storyloom/engine/session/conformance"
)

func TestMemoryRecordsConformance(t *testing.T) {
	conformance.RunRecordStore(t, func(*testing.T) session.RecordStore { return session.NewMemoryRecords() })
}

func TestMemoryProfilesConformance(t *testing.T) {
	conformance.RunProfileStore(t, func(*testing.T) session.ProfileStore { return session.NewMemoryProfiles() })
}
