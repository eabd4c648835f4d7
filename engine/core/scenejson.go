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
	o := canon.OpenObject(b)
	o.String("gameId", s.GameID)
	o.String("status", string(s.Status))
	o.Key("body")
	body := canon.OpenObject(o.B)
	body.String("textKey", string(s.Body.TextKey))
	body.String("text", s.Body.Text)
	if err = appendParamsMember(&body, s.Body.Params); err != nil {
		return nil, err
	}
	o.B = body.Close()
	o.Key("actions")
	o.B = canon.AppendList(o.B, s.Actions, func(b []byte, a *AvailableAction) []byte {
		if err == nil {
			b, err = a.appendJSON(b)
		}
		return b
	})
	if err != nil {
		return nil, err
	}
	o.Key("view")
	o.B = s.View.appendJSON(o.B)
	return o.Close(), nil
}

func (a *AvailableAction) appendJSON(b []byte) ([]byte, error) {
	o := canon.OpenObject(b)
	o.String("id", a.ID)
	o.String("labelKey", string(a.LabelKey))
	o.Bool("available", a.Available)
	o.OptString("reasonKey", string(a.ReasonKey))
	if err := appendParamsMember(&o, a.Params); err != nil {
		return nil, err
	}
	return o.Close(), nil
}

func (v *PlayerView) appendJSON(b []byte) []byte {
	o := canon.OpenObject(b)
	o.String("gameId", v.GameID)
	o.String("status", string(v.Status))
	o.Raw("kindView", v.KindView)
	return o.Close()
}

// appendParamsMember writes the member "params" unless p is empty, as
// the omitempty tag does.
func appendParamsMember(o *canon.Object, p Params) error {
	if len(p) == 0 {
		return nil
	}
	o.Key("params")
	var err error
	o.B, err = appendParams(o.B, p)
	return err
}

// appendParams appends p as canonical JSON. It fails, as encoding/json
// does, on a param that JSON cannot hold.
func appendParams(b []byte, p Params) ([]byte, error) {
	if out, ok := appendPlainParams(b, p); ok {
		return out, nil
	}
	enc, err := canon.Marshal(map[string]any(p))
	return append(b, enc...), err
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
	o := canon.OpenObject(b)
	for _, k := range keys {
		o.Key(k)
		var f float64
		switch v := p[k].(type) {
		case string:
			if !utf8.ValidString(v) {
				return o.B, false
			}
			o.B = canon.AppendString(o.B, v)
			continue
		case bool:
			o.B = strconv.AppendBool(o.B, v)
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
			return o.B, false
		}
		if math.IsInf(f, 0) || math.IsNaN(f) {
			return o.B, false
		}
		o.B = canon.AppendNumber(o.B, f)
	}
	return o.Close(), true
}
