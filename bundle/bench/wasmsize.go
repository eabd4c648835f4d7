package main

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// runWasmSize is `bench wasmsize`: what a Go js/wasm module is made of,
// the size of each section, the Go runtime's tables inside the data
// section (type descriptors and strings, the function tables the runtime
// keeps for stack traces and garbage collection), and the code section by
// package, raw and gzip-compressed on its own.
//
// Build the module without -s so that it keeps its name section (the code
// is the same; the names add about 2%):
//
//	GOOS=js GOARCH=wasm go build -trimpath -o /tmp/play.wasm ./wasm/play
//	go run ./bundle/bench wasmsize /tmp/play.wasm
//
// Generic instantiations count under the package of the generic function
// (slices.SortFunc for a campaign's type is under slices), and the
// compiler's type equality and hash functions under "type:".
// docs/site-build.md reports what it prints for the browser module.
func runWasmSize(args []string, stdout, stderr io.Writer) int {
	fl := flags("wasmsize", stderr)
	top := fl.Int("top", 40, "packages to list")
	if err := fl.Parse(args); err != nil {
		return 2
	}
	if fl.NArg() != 1 {
		fmt.Fprintln(stderr, "usage: go run ./bundle/bench wasmsize [-top n] module.wasm")
		return 2
	}
	b, err := os.ReadFile(fl.Arg(0))
	if err == nil {
		err = report(stdout, b, *top)
	}
	if err != nil {
		fmt.Fprintln(stderr, "bench wasmsize:", err)
		return 1
	}
	return 0
}

// module is the parts of a wasm binary the report needs.
type module struct {
	sections map[byte]int // section id → size
	imports  int          // imported functions (they come first in the index space)
	bodies   [][]byte     // function bodies, in order
	names    map[int]string
	data     []byte // the data section
}

var errShort = errors.New("truncated module")

// reader reads LEB128 numbers and slices from b.
type reader struct {
	b   []byte
	off int
	err error
}

func (r *reader) u() int {
	v, n := binary.Uvarint(r.b[min(r.off, len(r.b)):])
	if n <= 0 {
		r.err, r.off = errShort, len(r.b)
		return 0
	}
	r.off += n
	return int(v)
}

// s reads a signed LEB128 number (binary.Varint is zig-zag, not LEB128).
func (r *reader) s() int64 {
	var v int64
	var shift uint
	for r.off < len(r.b) {
		c := r.b[r.off]
		r.off++
		v |= int64(c&0x7f) << shift
		shift += 7
		if c&0x80 == 0 {
			if shift < 64 && c&0x40 != 0 {
				v |= -1 << shift
			}
			return v
		}
	}
	r.err = errShort
	return 0
}

func (r *reader) bytes(n int) []byte {
	if n < 0 || r.off+n > len(r.b) {
		r.err, r.off = errShort, len(r.b)
		return nil
	}
	p := r.b[r.off : r.off+n]
	r.off += n
	return p
}

// limits reads a table's or memory's limits: flags, minimum, maximum if
// flagged.
func (r *reader) limits() {
	if f := r.u(); r.u() >= 0 && f&1 != 0 {
		r.u()
	}
}

func (r *reader) more() bool { return r.err == nil && r.off < len(r.b) }

func parse(b []byte) (*module, error) {
	if len(b) < 8 || string(b[:4]) != "\x00asm" {
		return nil, errors.New("not a wasm module")
	}
	m := &module{sections: map[byte]int{}, names: map[int]string{}}
	r := &reader{b: b, off: 8}
	for r.more() {
		id := r.bytes(1)
		if id == nil {
			break
		}
		sec := &reader{b: r.bytes(r.u())}
		m.sections[id[0]] += len(sec.b)
		switch id[0] {
		case 2: // imports
			for n := sec.u(); n > 0 && sec.err == nil; n-- {
				sec.bytes(sec.u()) // module
				sec.bytes(sec.u()) // name
				switch kind := sec.bytes(1); {
				case kind == nil:
				case kind[0] == 0: // function
					sec.u()
					m.imports++
				case kind[0] == 1: // table
					sec.bytes(1)
					sec.limits()
				case kind[0] == 2: // memory
					sec.limits()
				case kind[0] == 3: // global
					sec.bytes(2)
				}
			}
		case 10: // code
			for n := sec.u(); n > 0 && sec.err == nil; n-- {
				m.bodies = append(m.bodies, sec.bytes(sec.u()))
			}
		case 11: // data
			m.data = sec.b
		case 0: // custom
			if string(sec.bytes(sec.u())) != "name" {
				continue
			}
			for sec.more() {
				sub := sec.bytes(1)
				body := &reader{b: sec.bytes(sec.u())}
				if sub == nil || sub[0] != 1 { // function names
					continue
				}
				for n := body.u(); n > 0 && body.err == nil; n-- {
					idx := body.u()
					m.names[idx] = string(body.bytes(body.u()))
				}
			}
		}
		if sec.err != nil {
			return nil, fmt.Errorf("section %d: %w", id[0], sec.err)
		}
	}
	return m, r.err
}

// pkgOf is the package of a function as the Go linker names it in the name
// section ("github.com_storyloom_storyloom_engine_core.__Engine_.advance":
// the import path with / written _, then a dot).
func pkgOf(name string) string {
	if name == "" {
		return "(unnamed)"
	}
	if strings.HasPrefix(name, "type:") {
		return "type: (equality and hash)"
	}
	prefix := ""
	if strings.HasPrefix(name, "github.com") {
		prefix, name = "github.com", name[len("github.com"):]
	}
	if i := strings.IndexAny(name, ".["); i >= 0 {
		name = name[:i]
	}
	return strings.ReplaceAll(prefix+name, "_", "/")
}

var sectionNames = map[byte]string{0: "custom (names)", 1: "type", 2: "import", 3: "function", 4: "table", 5: "memory", 6: "global", 7: "export", 8: "start", 9: "element", 10: "code", 11: "data"}

func report(w io.Writer, b []byte, top int) error {
	m, err := parse(b)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "module: %d bytes, %d gzip -9\n\nsections:\n", len(b), gzipSize(b))
	var ids []int
	for id := range m.sections {
		ids = append(ids, int(id))
	}
	sort.Ints(ids)
	for _, id := range ids {
		fmt.Fprintf(w, "  %-16s %9d\n", sectionNames[byte(id)], m.sections[byte(id)])
	}
	if err := reportData(w, m.data); err != nil {
		fmt.Fprintln(w, "data section:", err)
	}
	if len(m.names) == 0 {
		fmt.Fprintln(w, "\nno name section (built with -s): no code by package")
		return nil
	}
	type pkg struct {
		name  string
		funcs int
		code  bytes.Buffer
	}
	byName := map[string]*pkg{}
	for i, body := range m.bodies {
		n := pkgOf(m.names[m.imports+i])
		p := byName[n]
		if p == nil {
			p = &pkg{name: n}
			byName[n] = p
		}
		p.funcs++
		p.code.Write(body)
	}
	pkgs := make([]*pkg, 0, len(byName))
	for _, p := range byName {
		pkgs = append(pkgs, p)
	}
	sort.Slice(pkgs, func(i, j int) bool {
		if pkgs[i].code.Len() != pkgs[j].code.Len() {
			return pkgs[i].code.Len() > pkgs[j].code.Len()
		}
		return pkgs[i].name < pkgs[j].name
	})
	fmt.Fprintf(w, "\ncode by package (%d functions; gzip of each package's bodies alone):\n", len(m.bodies))
	fmt.Fprintf(w, "  %9s %8s %6s  %s\n", "raw", "gzip", "funcs", "package")
	rest := pkg{name: "(others)"}
	for i, p := range pkgs {
		if i >= top {
			rest.funcs += p.funcs
			rest.code.Write(p.code.Bytes())
			continue
		}
		fmt.Fprintf(w, "  %9d %8d %6d  %s\n", p.code.Len(), gzipSize(p.code.Bytes()), p.funcs, p.name)
	}
	if rest.funcs > 0 {
		fmt.Fprintf(w, "  %9d %8d %6d  %s\n", rest.code.Len(), gzipSize(rest.code.Bytes()), rest.funcs, rest.name)
	}
	return nil
}

// reportData lays the data section out in memory and splits it by the Go
// runtime's moduledata: read-only data (type descriptors, strings), the
// pclntab's parts, and the data and noptrdata sections. Segments are stored
// without their runs of zeros, so "stored" can be less than "span".
func reportData(w io.Writer, data []byte) error {
	r := &reader{b: data}
	type segment struct {
		addr int
		b    []byte
	}
	var segs []segment
	end := 0
	for n := r.u(); n > 0 && r.err == nil; n-- {
		if r.u() != 0 { // active segment of memory 0
			return errors.New("unexpected segment kind")
		}
		if op := r.bytes(1); op == nil || op[0] != 0x41 { // i32.const
			return errors.New("unexpected segment offset")
		}
		addr := int(r.s())
		r.bytes(1) // end
		b := r.bytes(r.u())
		if addr < 0 || addr > 1<<30 {
			return errors.New("segment out of range")
		}
		segs = append(segs, segment{addr, b})
		end = max(end, addr+len(b))
	}
	if r.err != nil {
		return r.err
	}
	mem := make([]byte, end+64)
	for _, s := range segs {
		copy(mem[s.addr:], s.b)
	}
	u64 := func(a int) int {
		if a < 0 || a+8 > len(mem) {
			return 0
		}
		return int(binary.LittleEndian.Uint64(mem[a:]))
	}
	// pcHeader: magic, 0, 0, minLC 1, ptrSize 8 (runtime/symtab.go).
	ph := bytes.Index(mem, []byte{0xf1, 0xff, 0xff, 0xff, 0, 0, 1, 8})
	if ph < 0 {
		return errors.New("no pclntab header")
	}
	// moduledata starts with a pointer to the pcHeader, then funcnametab,
	// whose data is at pcHeader + funcnameOffset.
	md := -1
	for a := 0; a+32 <= len(mem); a += 8 {
		if u64(a) == ph && u64(a+8) == ph+u64(ph+32) {
			md = a
			break
		}
	}
	if md < 0 {
		return errors.New("no moduledata")
	}
	slice := func(i int) int { return u64(md + 8 + 24*i) } // data pointer of the i'th slice
	// After pcHeader and six slices: findfunctab, minpc, maxpc, text, etext,
	// noptrdata, enoptrdata, data, edata, bss, ebss, noptrbss, enoptrbss,
	// covctrs, ecovctrs, end, gcdata, gcbss, types, etypes, rodata, gofunc,
	// epclntab.
	word := func(i int) int { return u64(md + 8 + 24*6 + 8*i) }
	findfunctab, noptrdata, enoptrdata, dataStart, edata := word(0), word(5), word(6), word(7), word(8)
	rodata, gofunc, epclntab := word(20), word(21), word(22)
	type region struct {
		name     string
		from, to int
	}
	regions := []region{
		{"rodata: type descriptors, strings, static data", rodata, ph},
		{"pclntab: function names", slice(0), slice(1)},
		{"pclntab: file names and compilation units", slice(1), slice(3)},
		{"pclntab: pc tables (stack, line, inlining)", slice(3), slice(4)},
		{"pclntab: function table and _func records", slice(4), gofunc},
		{"go:func.*: stack maps, inlining trees, arg info", gofunc, findfunctab},
		{"findfunctab", findfunctab, epclntab},
		{"noptrdata", noptrdata, enoptrdata},
		{"data", dataStart, min(edata, end)},
	}
	fmt.Fprintf(w, "\ndata section (%d bytes stored):\n  %9s %9s %8s  %s\n", len(data), "span", "stored", "gzip", "region")
	for _, g := range regions {
		if g.from <= 0 || g.to < g.from || g.to > len(mem) {
			fmt.Fprintf(w, "  %9s %9s %8s  %s (not found)\n", "-", "-", "-", g.name)
			continue
		}
		stored := 0
		for _, s := range segs {
			if lo, hi := max(s.addr, g.from), min(s.addr+len(s.b), g.to); hi > lo {
				stored += hi - lo
			}
		}
		fmt.Fprintf(w, "  %9d %9d %8d  %s\n", g.to-g.from, stored, gzipSize(mem[g.from:g.to]), g.name)
	}
	return nil
}
