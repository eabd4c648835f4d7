package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/storyloom/storyloom/engine/core"
	"github.com/storyloom/storyloom/engine/display"
	"github.com/storyloom/storyloom/engine/session"
)

// playHelp is what `help` prints inside the client.
const playHelp = `commands:
  N                          take choice N of the list
  ACTION [key=value ...]     take an action by id, e.g. plan.add activity=bake_bread count=2,
                             end_week, advance_ticks ticks=10 (a value in quotes stays a string)
  preview ACTION [key=value ...]  what the action would do, without taking it
  look                       show the scene again
  view                       show the game's view (the kind's projection) as JSON
  save                       save the game
  saves                      list this profile's saves, newest first
  load SAVE                  load a save, by id or by its number in the last saves list
  resume SESSION             go back to a session by id (as "session ..." printed it)
  branch N                   start a new session from this one after its first N actions
  help                       this list
  quit                       leave`

// runPlay is `bundle play [flags] [campaign]`: a terminal client over the
// session store for authors. With no campaign it lists the campaigns; with
// one it plays it from stdin, or from -script FILE, printing the scene,
// numbered choices (locked ones with their reason), messages and changes.
func runPlay(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("play", flag.ContinueOnError)
	fl.SetOutput(stderr)
	var sf storeFlags
	sf.register(fl)
	script := fl.String("script", "", "read the inputs from FILE, echo them, and print a deterministic transcript (in-memory records unless -db is given)")
	seed := fl.String("seed", "", "the game's seed (default: minted by the store; 1 with -script)")
	profile := fl.String("profile", "author", "the profile that keeps saves, achievements and endings")
	locale := fl.String("locale", "", "the locale to show text in, e.g. fr (default: the campaign's own)")
	fl.Usage = func() {
		fmt.Fprintln(stderr, "usage: go run ./bundle play [flags] [campaign]")
		fl.PrintDefaults()
	}
	// Flags may come before or after the campaign.
	var positional []string
	for rest := args; ; {
		if err := fl.Parse(rest); err != nil {
			return 2
		}
		if fl.NArg() == 0 {
			break
		}
		positional = append(positional, fl.Arg(0))
		rest = fl.Args()[1:]
	}
	if len(positional) > 1 {
		fl.Usage()
		return 2
	}
	opt := storeOptions{}
	var in io.Reader = os.Stdin
	if *script != "" {
		data, err := os.ReadFile(*script)
		if err != nil {
			fmt.Fprintln(stderr, "bundle play:", err)
			return 1
		}
		in = bytes.NewReader(data)
		if sf.db == "" {
			sf.memory = true
			opt.deterministic = true
		}
		if *seed == "" {
			*seed = "1"
		}
	}
	h, err := openStore(sf, opt)
	if err != nil {
		fmt.Fprintln(stderr, "bundle play:", err)
		return 1
	}
	defer func() { _ = h.close() }()
	h.printKeptWarnings(stderr, "bundle play: warning:")
	p := &player{
		ctx: context.Background(), store: h.store, out: stdout,
		profile: *profile, locale: *locale, echo: *script != "",
	}
	if len(positional) == 0 {
		if err := p.listCampaigns(); err != nil {
			fmt.Fprintln(stderr, "bundle play:", err)
			return 1
		}
		fmt.Fprintln(stdout, "play one with: go run ./bundle play CAMPAIGN")
		return 0
	}
	if err := p.start(positional[0], *seed); err != nil {
		fmt.Fprintln(stderr, "bundle play:", err)
		return 1
	}
	p.loop(in)
	return 0
}

// player is one terminal client: a session of the store and what it last
// showed.
type player struct {
	ctx     context.Context
	store   *session.Store
	out     io.Writer
	profile string
	locale  string
	echo    bool

	sessionID string
	scene     core.Scene
	strings   map[core.LocKey]string
	saves     []session.SaveSummary
}

func (p *player) printf(format string, args ...any) { fmt.Fprintf(p.out, format, args...) }

// listCampaigns prints the catalog: id, kind, title and progress.
func (p *player) listCampaigns() error {
	cat, err := p.store.ListCampaigns(p.ctx, p.profile, p.locale)
	if err != nil {
		return err
	}
	p.printf("campaigns:\n")
	for _, c := range cat.Campaigns {
		progress := ""
		if c.Progress != nil {
			progress = fmt.Sprintf("  (%d of %d endings found)", c.Progress.Discovered, c.Progress.Total)
		}
		p.printf("  %-20s %-12s %s%s\n", c.CampaignID, c.KindID, text(p.locale, cat.Strings, c.TitleKey, nil), progress)
	}
	return nil
}

// start creates the session and shows its first scene.
func (p *player) start(campaignID, seed string) error {
	cat, err := p.store.ListCampaigns(p.ctx, "", p.locale)
	if err != nil {
		return err
	}
	for _, c := range cat.Campaigns {
		if c.CampaignID == campaignID {
			p.printf("%s (%s, %s)\n", text(p.locale, cat.Strings, c.TitleKey, nil), c.CampaignID, c.KindID)
		}
	}
	h, err := p.store.CreateSession(p.ctx, session.CreateSessionConfig{CampaignID: campaignID, Seed: seed, ProfileID: p.profile})
	if err != nil {
		return fmt.Errorf("%s: %v (go run ./bundle play lists the campaigns)", session.Code(err), err)
	}
	p.printWarnings(h.Warnings)
	return p.enter(h)
}

// enter makes h the current session and shows its scene, then what a
// content update did to it: the outcome, with the reason code when the
// game was kept on its version, and the notice's text.
func (p *player) enter(h session.SessionHandle) error {
	p.sessionID = h.SessionID
	p.printf("session %s\n", h.SessionID)
	if err := p.show(h.Scene); err != nil {
		return err
	}
	for _, n := range h.Notices {
		outcome := n.Outcome
		if n.Reason != "" {
			outcome += ": " + n.Reason
		}
		p.printf("  notice (%s): %s\n", outcome, text(p.locale, p.strings, n.Message.Key, n.Message.Params))
	}
	return nil
}

// show makes sc the current scene, refreshes the string table and prints
// the scene.
func (p *player) show(sc core.Scene) error {
	p.scene = sc
	t, err := p.store.GetStrings(p.ctx, p.sessionID, p.locale)
	if err != nil {
		return err
	}
	p.strings = t
	p.printScene()
	return nil
}

// printScene prints the text, the choices numbered from 1 (a locked one
// with its reason) and the status when the game is over.
func (p *player) printScene() {
	sc := p.scene
	p.printf("\n%s\n\n", text(p.locale, p.strings, sc.Body.TextKey, sc.Body.Params, sc.Body.Text))
	if sc.Status != core.StatusActive {
		p.printf("— the game has %s —\n", sc.Status)
		return
	}
	for i, a := range sc.Actions {
		label := text(p.locale, p.strings, a.LabelKey, a.Params)
		line := fmt.Sprintf("  %d. %s  [%s]", i+1, label, a.ID)
		if !a.Available {
			line = fmt.Sprintf("  %d. (locked) %s  [%s] — %s", i+1, label, a.ID, text(p.locale, p.strings, a.ReasonKey, nil))
		}
		if len(a.Params) > 0 {
			line += "  " + formatParams(a.Params)
		}
		p.printf("%s\n", line)
	}
}

// loop reads commands until quit or the end of the input.
func (p *player) loop(in io.Reader) {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for {
		if !p.echo {
			p.printf("> ")
		}
		if !sc.Scan() {
			if !p.echo {
				p.printf("\n")
			}
			return
		}
		line := strings.TrimSpace(sc.Text())
		if p.echo {
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			p.printf("\n> %s\n", line)
		}
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if !p.command(line) {
			return
		}
	}
}

// command runs one input line and reports whether to go on.
func (p *player) command(line string) bool {
	word, rest, _ := strings.Cut(line, " ")
	rest = strings.TrimSpace(rest)
	var err error
	switch word {
	case "quit", "q", "exit":
		return false
	case "help", "?":
		p.printf("%s\n", playHelp)
	case "look":
		p.printScene()
	case "view":
		err = p.view()
	case "save":
		err = p.save()
	case "saves":
		err = p.listSaves()
	case "load":
		err = p.load(rest)
	case "resume":
		err = p.resume(rest)
	case "branch":
		err = p.branch(rest)
	case "preview":
		err = p.act(rest, true)
	default:
		err = p.act(line, false)
	}
	if err != nil {
		p.printf("  error: %s\n", p.describe(err))
	}
	return true
}

// act submits (or previews) "N" or "ACTION key=value …".
func (p *player) act(line string, preview bool) error {
	id, params, err := parseAction(line)
	if err != nil {
		return err
	}
	if n, convErr := strconv.Atoi(id); convErr == nil {
		if p.scene.Status != core.StatusActive {
			return fmt.Errorf("the game has %s: load a save, branch, or quit", p.scene.Status)
		}
		if n < 1 || n > len(p.scene.Actions) {
			return fmt.Errorf("no choice %d; the choices are 1 to %d", n, len(p.scene.Actions))
		}
		id = p.scene.Actions[n-1].ID
	}
	var res session.ActionResult
	if preview {
		res, err = p.store.PreviewAction(p.ctx, p.sessionID, id, params)
	} else {
		res, err = p.store.SubmitAction(p.ctx, p.sessionID, id, params)
	}
	if err != nil {
		return err
	}
	if !preview && res.OK {
		// The table may have grown: fetch it before rendering this result.
		if t, terr := p.store.GetStrings(p.ctx, p.sessionID, p.locale); terr == nil {
			p.strings = t
		}
	}
	p.printResult(res)
	if !res.OK || res.Scene == nil {
		return nil
	}
	if preview {
		p.printf("  (preview: nothing was taken)\n")
		return nil
	}
	return p.show(*res.Scene)
}

// printResult prints the refusals, messages, changes and warnings of res.
func (p *player) printResult(res session.ActionResult) {
	for _, e := range res.Errors {
		p.printf("  refused (%s): %s\n", e.Code, text(p.locale, p.strings, e.MessageKey, e.Details, e.Message))
	}
	for _, m := range res.Messages {
		p.printf("  * %s\n", text(p.locale, p.strings, m.Key, m.Params))
	}
	for _, c := range res.Changes {
		if c.Previous != nil {
			p.printf("  ~ %s: %v -> %v\n", c.Path, c.Previous, c.Value)
		} else {
			p.printf("  ~ %s: %v\n", c.Path, c.Value)
		}
	}
	p.printWarnings(res.Warnings)
	p.printNews(res.News)
}

// printNews announces what an action unlocked: each achievement, and the
// ending reached, marked new when the profile had not held it.
func (p *player) printNews(n *session.News) {
	if n == nil {
		return
	}
	for _, a := range n.Achievements {
		p.printf("  ★ achievement unlocked: %s%s\n", text(p.locale, p.strings, a.TitleKey, nil, a.ID), isNew(a.New))
	}
	if e := n.Ending; e != nil {
		p.printf("  ★ ending reached: %s%s\n", text(p.locale, p.strings, e.TitleKey, nil, e.ID), isNew(e.New))
	}
}

// isNew is the mark of a milestone the profile had not held before.
func isNew(fresh bool) string {
	if fresh {
		return " (new)"
	}
	return ""
}

func (p *player) printWarnings(ws []core.ValidationWarning) {
	for _, w := range ws {
		if w.Code == core.ReasonProfileMissing {
			continue // a profile's first game: nothing to tell an author
		}
		p.printf("  warning (%s): %s\n", w.Code, text(p.locale, p.strings, w.MessageKey, nil, w.Message))
	}
}

// view prints the session's projection.
func (p *player) view() error {
	v, err := p.store.GetView(p.ctx, p.sessionID)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := json.Indent(&buf, v.KindView, "  ", "  "); err != nil {
		return err
	}
	p.printf("  %s\n", buf.String())
	return nil
}

func (p *player) save() error {
	h, err := p.store.SaveGame(p.ctx, p.sessionID)
	if err != nil {
		return err
	}
	p.printf("  saved %s (after %s)\n", h.SaveID, actions(h.SavedAtSeq))
	return nil
}

func (p *player) listSaves() error {
	saves, err := p.store.ListSaves(p.ctx, p.profile)
	if err != nil {
		return err
	}
	p.saves = saves
	if len(saves) == 0 {
		p.printf("  no saves for profile %s\n", p.profile)
	}
	for i, s := range saves {
		p.printf("  %d. %s  %s  after %s\n", i+1, s.SaveID, s.CampaignID, actions(s.SavedAtSeq))
	}
	return nil
}

// load loads a save by id, or by its number in the last list.
func (p *player) load(arg string) error {
	if arg == "" {
		return fmt.Errorf("load which save? (saves lists them)")
	}
	id := arg
	if n, err := strconv.Atoi(arg); err == nil {
		if n < 1 || n > len(p.saves) {
			return fmt.Errorf("no save %d in the last list (saves lists them)", n)
		}
		id = p.saves[n-1].SaveID
	}
	h, err := p.store.LoadGame(p.ctx, id)
	if err != nil {
		return err
	}
	p.printf("  loaded %s\n", id)
	return p.enter(h)
}

// resume goes back to a session by id, past its adoption point.
func (p *player) resume(id string) error {
	if id == "" {
		return fmt.Errorf("resume which session?")
	}
	h, err := p.store.Resume(p.ctx, id)
	if err != nil {
		return err
	}
	return p.enter(h)
}

func (p *player) branch(arg string) error {
	n, err := strconv.Atoi(arg)
	if err != nil {
		return fmt.Errorf("branch after how many actions? (e.g. branch 2)")
	}
	h, err := p.store.BranchSession(p.ctx, p.sessionID, n)
	if err != nil {
		return err
	}
	p.printf("  branched after %d actions\n", n)
	return p.enter(h)
}

// describe renders an error: a store error by its reason code and the
// string table's text for it.
func (p *player) describe(err error) string {
	if code := session.Code(err); code != "" {
		if t, ok := p.strings[core.CoreReasonKey(code)]; ok {
			return fmt.Sprintf("%s (%s: %v)", t, code, err)
		}
		return fmt.Sprintf("%s: %v", code, err)
	}
	return err.Error()
}

// parseAction splits "ACTION key=value …" into the id and its params: a
// value is a number, true or false, or else a string; quotes keep a value
// a string ("12" stays "12") and may hold spaces.
func parseAction(line string) (string, core.Params, error) {
	fields, err := splitFields(line)
	if err != nil {
		return "", nil, err
	}
	if len(fields) == 0 {
		return "", nil, fmt.Errorf("which action?")
	}
	var params core.Params
	for _, f := range fields[1:] {
		k, v, ok := strings.Cut(f.text, "=")
		if !ok || k == "" {
			return "", nil, fmt.Errorf("%q is not key=value", f.text)
		}
		if params == nil {
			params = core.Params{}
		}
		params[k] = paramValue(v, f.quoted)
	}
	return fields[0].text, params, nil
}

// field is one word of an input line.
type field struct {
	text   string
	quoted bool // the value part was quoted
}

// splitFields splits on spaces, keeping "quoted text" whole.
func splitFields(line string) ([]field, error) {
	var out []field
	var cur strings.Builder
	inQuote, quoted, started := false, false, false
	for _, r := range line {
		switch {
		case r == '"':
			inQuote = !inQuote
			quoted, started = true, true
		case r == ' ' && !inQuote:
			if started {
				out = append(out, field{cur.String(), quoted})
				cur.Reset()
				quoted, started = false, false
			}
		default:
			cur.WriteRune(r)
			started = true
		}
	}
	if inQuote {
		return nil, fmt.Errorf("unclosed quote in %q", line)
	}
	if started {
		out = append(out, field{cur.String(), quoted})
	}
	return out, nil
}

func paramValue(v string, quoted bool) any {
	if quoted {
		return v
	}
	switch v {
	case "true":
		return true
	case "false":
		return false
	}
	if f, err := strconv.ParseFloat(v, 64); err == nil {
		return f
	}
	return v
}

// formatParams renders a parameter record as key=value, in key order.
func formatParams(params map[string]any) string {
	keys := make([]string, 0, len(params))
	for k := range params {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s=%v", k, params[k])
	}
	return "(" + strings.Join(parts, " ") + ")"
}

// text renders key from the table in locale ("" for the default) with its
// placeholders and plurals filled from params, as display.FillIn does;
// fallback (or the key itself) when the table lacks it.
func text(locale string, table map[core.LocKey]string, key core.LocKey, params map[string]any, fallback ...string) string {
	s, ok := table[key]
	if !ok {
		if len(fallback) > 0 && fallback[0] != "" {
			return fallback[0]
		}
		return key
	}
	if locale == "" {
		locale = core.DefaultLocale
	}
	fill := make(map[string]any, len(params))
	for k, v := range params {
		switch n := v.(type) {
		case int, int64:
			fill[k] = n
		case float64:
			if n == float64(int64(n)) {
				fill[k] = int64(n)
			} else {
				fill[k] = fmt.Sprint(n)
			}
		default:
			fill[k] = fmt.Sprint(v)
		}
	}
	return display.FillIn(locale, s, fill)
}

// actions is "1 action" or "n actions".
func actions(n int) string {
	if n == 1 {
		return "1 action"
	}
	return strconv.Itoa(n) + " actions"
}
