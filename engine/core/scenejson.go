package core

import (
	"math"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/storyloom/storyloom/engine/canon"
)

// AppendJSON appends s as a JSON document that reads back as the one
// encoding/json writes for it (same members and values; strings are not
// HTML-escaped, and members with params come in sorted key order). It
// uses no reflection, and KindView, which the engine wrote as canonical
// JSON, is copied as it is rather than validated and compacted again:
// the browser bridge answers every choice with a scene. It fails, as
// encoding/json does, on a param that JSON cannot hold.
func (s *Scene) AppendJSON(b []byte) ([]byte, error) {
	var err error
	b = append(b, `{"gameId":`...)
	b = canon.AppendString(b, s.GameID)
	b = append(b, `,"status":`...)
	b = canon.AppendString(b, string(s.Status))
	b = append(b, `,"body":{"textKey":`...)
	b = canon.AppendString(b, string(s.Body.TextKey))
	b = append(b, `,"text":`...)
	b = canon.AppendString(b, s.Body.Text)
	if b, err = appendParamsMember(b, s.Body.Params); err != nil {
		return nil, err
	}
	b = append(b, `},"actions":`...)
	if s.Actions == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range s.Actions {
			if i > 0 {
				b = append(b, ',')
			}
			if b, err = s.Actions[i].appendJSON(b); err != nil {
				return nil, err
			}
		}
		b = append(b, ']')
	}
	b = append(b, `,"view":`...)
	b = s.View.appendJSON(b)
	return append(b, '}'), nil
}

func (a *AvailableAction) appendJSON(b []byte) ([]byte, error) {
	b = append(b, `{"id":`...)
	b = canon.AppendString(b, a.ID)
	b = append(b, `,"labelKey":`...)
	b = canon.AppendString(b, string(a.LabelKey))
	b = append(b, `,"available":`...)
	b = strconv.AppendBool(b, a.Available)
	if a.ReasonKey != "" {
		b = append(b, `,"reasonKey":`...)
		b = canon.AppendString(b, string(a.ReasonKey))
	}
	b, err := appendParamsMember(b, a.Params)
	if err != nil {
		return nil, err
	}
	return append(b, '}'), nil
}

func (v *PlayerView) appendJSON(b []byte) []byte {
	b = append(b, `{"gameId":`...)
	b = canon.AppendString(b, v.GameID)
	b = append(b, `,"status":`...)
	b = canon.AppendString(b, string(v.Status))
	b = append(b, `,"kindView":`...)
	if len(v.KindView) == 0 {
		b = append(b, "null"...)
	} else {
		b = append(b, v.KindView...)
	}
	return append(b, '}')
}

// appendParamsMember appends ,"params":{…} when p is not empty, as the
// omitempty tag does.
func appendParamsMember(b []byte, p map[string]any) ([]byte, error) {
	if len(p) == 0 {
		return b, nil
	}
	if out, ok := appendPlainParams(append(b, `,"params":`...), p); ok {
		return out, nil
	}
	enc, err := canon.Marshal(p)
	if err != nil {
		return nil, err
	}
	b = append(b, `,"params":`...)
	return append(b, enc...), nil
}

// appendPlainParams appends p as canonical JSON when every value is a
// string of valid UTF-8, a bool, or a finite number of a built-in type
// (what a kind's text params and every logged param hold), in the form
// canon.Marshal gives, with no reflection. It reports false, having written nothing that counts,
// for anything else, which canon.Marshal then handles.
func appendPlainParams(b []byte, p map[string]any) ([]byte, bool) {
	if len(p) > MaxParams {
		return b, false
	}
	var small [MaxParams]string
	keys := small[:0]
	for k := range p {
		if !utf8.ValidString(k) {
			return b, false
		}
		keys = append(keys, k)
	}
	slices.SortFunc(keys, canon.CompareKeys)
	b = append(b, '{')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = canon.AppendString(b, k)
		b = append(b, ':')
		var f float64
		switch v := p[k].(type) {
		case string:
			if !utf8.ValidString(v) {
				return b, false
			}
			b = canon.AppendString(b, v)
			continue
		case bool:
			b = strconv.AppendBool(b, v)
			continue
		case int:
			f = float64(v)
		case int32:
			f = float64(v)
		case int64:
			f = float64(v)
		case float64:
			f = v
		default:
			return b, false
		}
		if math.IsInf(f, 0) || math.IsNaN(f) {
			return b, false
		}
		b = canon.AppendNumber(b, f)
	}
	return append(b, '}'), true
}
