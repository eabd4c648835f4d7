package site

import (
	"bytes"
	"fmt"
	"html"
	"io"
	"strings"

	"github.com/tdewolff/parse/v2"
	thtml "github.com/tdewolff/parse/v2/html"
)

// htmlAttr is one attribute of a start tag, its value unescaped.
type htmlAttr struct {
	key, val string
	hasVal   bool
}

// htmlTag is a start tag seen while rewriting a page.
type htmlTag struct {
	name  string
	attrs []htmlAttr
}

// get returns the value of the attribute key and whether it is present.
func (t *htmlTag) get(key string) (string, bool) {
	for _, a := range t.attrs {
		if a.key == key {
			return a.val, true
		}
	}
	return "", false
}

// set changes the attribute key to val, adding it when absent.
func (t *htmlTag) set(key, val string) {
	for i := range t.attrs {
		if t.attrs[i].key == key {
			t.attrs[i].val, t.attrs[i].hasVal = val, true
			return
		}
	}
	t.attrs = append(t.attrs, htmlAttr{key: key, val: val, hasVal: true})
}

// del removes the attribute key.
func (t *htmlTag) del(key string) {
	out := t.attrs[:0]
	for _, a := range t.attrs {
		if a.key != key {
			out = append(out, a)
		}
	}
	t.attrs = out
}

// String renders the start tag.
func (t *htmlTag) String() string {
	var b strings.Builder
	b.WriteString("<" + t.name)
	for _, a := range t.attrs {
		b.WriteString(" " + a.key)
		if a.hasVal {
			b.WriteString(`="` + html.EscapeString(a.val) + `"`)
		}
	}
	b.WriteString(">")
	return b.String()
}

// tagEdit is what an edit function decides for one start tag.
type tagEdit int

const (
	keepTag        tagEdit = iota // write the (possibly changed) tag
	replaceElement                // write the replacement instead of the whole element
)

// rewriteHTML copies a page, letting edit change each start tag or replace
// its whole element (for <script>, up to and including </script>), and
// inserting beforeHeadEnd just before </head>. Everything else is copied
// byte for byte.
func rewriteHTML(src []byte, beforeHeadEnd string, edit func(t *htmlTag) (tagEdit, string)) ([]byte, error) {
	var out bytes.Buffer
	l := thtml.NewLexer(parse.NewInputBytes(src))
	var tag *htmlTag
	skipUntil := "" // end tag name that closes a replaced element
	headDone := false
	for {
		tt, data := l.Next()
		switch tt {
		case thtml.ErrorToken:
			if err := l.Err(); err != io.EOF {
				return nil, fmt.Errorf("site: parsing HTML: %w", err)
			}
			if !headDone && beforeHeadEnd != "" {
				return nil, fmt.Errorf("site: index.html has no </head>")
			}
			return out.Bytes(), nil
		case thtml.StartTagToken:
			tag = &htmlTag{name: strings.ToLower(string(l.Text()))}
			continue
		case thtml.AttributeToken:
			if tag != nil {
				val := l.AttrVal()
				a := htmlAttr{key: strings.ToLower(string(l.AttrKey())), hasVal: val != nil}
				if len(val) >= 2 && (val[0] == '"' || val[0] == '\'') && val[len(val)-1] == val[0] {
					val = val[1 : len(val)-1]
				}
				a.val = html.UnescapeString(string(val))
				tag.attrs = append(tag.attrs, a)
			}
			continue
		case thtml.StartTagCloseToken, thtml.StartTagVoidToken:
			if tag == nil {
				break
			}
			t := tag
			tag = nil
			if skipUntil != "" {
				continue
			}
			what, repl := edit(t)
			switch what {
			case replaceElement:
				out.WriteString(repl)
				if t.name == "script" || t.name == "style" {
					skipUntil = t.name
				}
			default:
				out.WriteString(t.String())
			}
			continue
		case thtml.EndTagToken:
			name := strings.ToLower(string(l.Text()))
			if skipUntil != "" {
				if name == skipUntil {
					skipUntil = ""
				}
				continue
			}
			if name == "head" && !headDone {
				out.WriteString(beforeHeadEnd)
				headDone = true
			}
		}
		if skipUntil != "" {
			continue
		}
		out.Write(data)
	}
}
