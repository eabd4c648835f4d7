package session

// StateOf returns the canonical serialization of the game a session
// record holds, whichever form it is in, for tests that read the state a
// record store was given.
func (s *Store) StateOf(rec SessionRecord) ([]byte, error) {
	if rec.Log == nil {
		return rec.Blob, nil
	}
	st, _, err := s.restore("StateOf", rec)
	if err != nil {
		return nil, err
	}
	return s.engine.Serialize(st)
}
