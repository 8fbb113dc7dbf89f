package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mneme-mcp/mneme/memory"
)

// testEnv is a fake process environment: XDG directories in a temp dir and
// whatever variables a test adds. Nothing of the real environment leaks in.
type testEnv struct {
	t    *testing.T
	vars map[string]string
}

func newTestEnv(t *testing.T) *testEnv {
	t.Helper()
	dir := t.TempDir()
	return &testEnv{t: t, vars: map[string]string{
		"XDG_DATA_HOME":   filepath.Join(dir, "data"),
		"XDG_CONFIG_HOME": filepath.Join(dir, "config"),
		"MNEME_LOG_LEVEL": "warn",
	}}
}

// result is what one in-process run of mneme produced.
type result struct {
	code           int
	stdout, stderr string
}

// run runs mneme in-process with the fake environment.
func (e *testEnv) run(args ...string) result {
	e.t.Helper()
	var out, errb bytes.Buffer
	code := Run(context.Background(), args, func(k string) string { return e.vars[k] }, strings.NewReader(""), &out, &errb)
	return result{code, out.String(), errb.String()}
}

// ok runs mneme and fails the test unless it exits 0.
func (e *testEnv) ok(args ...string) result {
	e.t.Helper()
	r := e.run(args...)
	if r.code != 0 {
		e.t.Fatalf("mneme %q: exit %d\nstdout: %s\nstderr: %s", args, r.code, r.stdout, r.stderr)
	}
	return r
}

// writeConfig writes the default config file (XDG_CONFIG_HOME/mneme/config.toml).
func (e *testEnv) writeConfig(toml string) string {
	e.t.Helper()
	p := filepath.Join(e.vars["XDG_CONFIG_HOME"], "mneme", "config.toml")
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		e.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(toml), 0o600); err != nil {
		e.t.Fatal(err)
	}
	return p
}

func decode[T any](t *testing.T, r result) T {
	t.Helper()
	var v T
	if err := json.Unmarshal([]byte(r.stdout), &v); err != nil {
		t.Fatalf("stdout is not the expected JSON: %v\n%s", err, r.stdout)
	}
	return v
}

type rememberOut struct {
	Memory struct {
		ID      string    `json:"id"`
		Content string    `json:"content"`
		Tags    []string  `json:"tags"`
		Scope   string    `json:"scope"`
		Kind    string    `json:"kind"`
		Time    time.Time `json:"time"`
		Created time.Time `json:"created"`
		Subject string    `json:"subject"`
		Thread  string    `json:"thread"`
	} `json:"memory"`
	Duplicate *bool `json:"duplicate"`
}

type recallOut struct {
	Memories []struct {
		ID      string   `json:"id"`
		Content string   `json:"content"`
		Tags    []string `json:"tags"`
		Score   struct {
			Relevance   float64 `json:"relevance"`
			Probability float64 `json:"probability"`
		} `json:"score"`
	} `json:"memories"`
	Window *struct {
		From time.Time `json:"from"`
		To   time.Time `json:"to"`
	} `json:"window"`
	More *bool `json:"more"`
}

func TestRememberFlagsBeforeOrAfterText(t *testing.T) {
	e := newTestEnv(t)
	after := decode[rememberOut](t, e.ok("remember", "likes green tea", "--tag", "food", "--json"))
	before := decode[rememberOut](t, e.ok("remember", "--tag", "drink", "--tag", "morning", "--json", "drinks coffee at seven"))
	if after.Memory.Content != "likes green tea" || strings.Join(after.Memory.Tags, ",") != "food" {
		t.Errorf("flags after text: got %+v", after.Memory)
	}
	if before.Memory.Content != "drinks coffee at seven" || strings.Join(before.Memory.Tags, ",") != "drink,morning" {
		t.Errorf("flags before text: got %+v", before.Memory)
	}
	if after.Duplicate == nil || *after.Duplicate {
		t.Errorf("duplicate = %v, want present and false", after.Duplicate)
	}
	again := decode[rememberOut](t, e.ok("remember", "--json", "likes green tea"))
	if again.Duplicate == nil || !*again.Duplicate || again.Memory.ID != after.Memory.ID {
		t.Errorf("remembering the same text again: duplicate %v id %s, want true and %s", again.Duplicate, again.Memory.ID, after.Memory.ID)
	}
	// Words after "--" are text, even when they look like flags.
	dash := decode[rememberOut](t, e.ok("remember", "--json", "--", "--tag", "is", "not", "a", "flag"))
	if dash.Memory.Content != "--tag is not a flag" {
		t.Errorf("after --: content %q", dash.Memory.Content)
	}
}

func TestRememberFact(t *testing.T) {
	e := newTestEnv(t)
	r := decode[rememberOut](t, e.ok("remember", "--json", "Alice lives in Berlin",
		"--subject", "Alice", "--predicate", "lives in", "--object", "Berlin", "--scope", "work", "--thread", "t1"))
	if r.Memory.Kind != "fact" || r.Memory.Subject != "Alice" || r.Memory.Scope != "work" || r.Memory.Thread != "t1" {
		t.Errorf("fact: got %+v", r.Memory)
	}
}

func TestClockPinning(t *testing.T) {
	e := newTestEnv(t)
	e.vars["MNEME_NOW"] = "2024-03-01T09:00:00Z"
	r := decode[rememberOut](t, e.ok("remember", "--json", "pinned by env"))
	if want := time.Date(2024, 3, 1, 9, 0, 0, 0, time.UTC); !r.Memory.Time.Equal(want) || !r.Memory.Created.Equal(want) {
		t.Errorf("MNEME_NOW: time %v created %v, want %v", r.Memory.Time, r.Memory.Created, want)
	}
	r = decode[rememberOut](t, e.ok("remember", "--json", "pinned by flag", "--now", "2025-01-02T03:04:05Z"))
	if want := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC); !r.Memory.Created.Equal(want) {
		t.Errorf("--now over MNEME_NOW: created %v, want %v", r.Memory.Created, want)
	}
	r = decode[rememberOut](t, e.ok("remember", "--json", "happened earlier", "--time", "2023-12-24T18:00:00Z"))
	if want := time.Date(2023, 12, 24, 18, 0, 0, 0, time.UTC); !r.Memory.Time.Equal(want) {
		t.Errorf("--time: time %v, want %v", r.Memory.Time, want)
	}
	// Words and numeric dates, read against the pinned clock in the zone and date order configured.
	e.vars["MNEME_TIMEZONE"] = "UTC"
	for _, c := range []struct {
		arg, order string
		want       time.Time
	}{
		{"yesterday", "", time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC)},
		{"last Monday at 3pm", "", time.Date(2024, 2, 26, 15, 0, 0, 0, time.UTC)},
		{"5/4/2023", "", time.Date(2023, 5, 4, 0, 0, 0, 0, time.UTC)},
		{"5/4/2023", "dmy", time.Date(2023, 4, 5, 0, 0, 0, 0, time.UTC)},
	} {
		e.vars["MNEME_DATE_ORDER"] = c.order
		r = decode[rememberOut](t, e.ok("remember", "--json", "said "+c.arg+" "+c.order, "--time", c.arg))
		if !r.Memory.Time.Equal(c.want) {
			t.Errorf("--time %q (date order %q): time %v, want %v", c.arg, c.order, r.Memory.Time, c.want)
		}
	}
	if r := e.run("remember", "bad time", "--time", "when pigs fly"); r.code != 2 || !strings.Contains(r.stderr, "time expression") {
		t.Errorf("--time when pigs fly: exit %d, stderr %s", r.code, r.stderr)
	}
}

func TestRecallAndForget(t *testing.T) {
	e := newTestEnv(t)
	e.vars["MNEME_NOW"] = "2024-05-10T12:00:00Z"
	tea := decode[rememberOut](t, e.ok("remember", "--json", "--tag", "food", "likes green tea without sugar"))
	e.ok("remember", "the car is a blue Volvo")

	got := decode[recallOut](t, e.ok("recall", "green tea", "--json", "--limit", "3"))
	if got.More == nil {
		t.Error(`recall --json: no "more" key`)
	}
	if len(got.Memories) == 0 || got.Memories[0].ID != tea.Memory.ID {
		t.Fatalf("recall green tea: got %+v, want %s first", got.Memories, tea.Memory.ID)
	}
	if p := got.Memories[0].Score.Probability; p <= 0 || p > 1 {
		t.Errorf("probability %v outside (0,1]", p)
	}
	var raw map[string]json.RawMessage
	json.Unmarshal([]byte(e.ok("recall", "--json", "tea").stdout), &raw)
	for _, k := range []string{"memories", "window", "more"} {
		if _, ok := raw[k]; !ok {
			t.Errorf("recall --json lacks %q: %s", k, raw)
		}
	}

	text := e.ok("recall", "tea").stdout
	if !strings.Contains(text, tea.Memory.ID) || !strings.Contains(text, "green tea") {
		t.Errorf("recall text output lacks the memory:\n%s", text)
	}

	dry := e.ok("forget", tea.Memory.ID, "--dry-run")
	if !strings.Contains(dry.stdout, "would archive "+tea.Memory.ID) {
		t.Errorf("forget --dry-run: %q", dry.stdout)
	}
	if got := decode[recallOut](t, e.ok("recall", "--json", "green tea")); len(got.Memories) == 0 || got.Memories[0].ID != tea.Memory.ID {
		t.Fatal("a dry run forgot the memory")
	}
	e.ok("forget", tea.Memory.ID)
	for _, m := range decode[recallOut](t, e.ok("recall", "--json", "green tea")).Memories {
		if m.ID == tea.Memory.ID {
			t.Fatal("recall still returns a forgotten memory")
		}
	}
	arch := decode[recallOut](t, e.ok("recall", "--json", "green tea", "--include-archived"))
	if len(arch.Memories) == 0 || arch.Memories[0].ID != tea.Memory.ID {
		t.Errorf("--include-archived does not return the archived memory: %+v", arch.Memories)
	}
}

func TestRecallTimeWindow(t *testing.T) {
	e := newTestEnv(t)
	e.vars["MNEME_NOW"] = "2024-05-10T12:00:00Z"
	e.ok("remember", "went hiking in the Alps", "--time", "2024-05-09T10:00:00Z")
	e.ok("remember", "went hiking in Scotland", "--time", "2024-03-01T10:00:00Z")
	got := decode[recallOut](t, e.ok("recall", "--json", "hiking", "--when", "yesterday", "--timezone", "UTC"))
	if got.Window == nil || got.Window.From.IsZero() {
		t.Fatalf("recall --when yesterday: no window in %+v", got)
	}
	if len(got.Memories) == 0 || !strings.Contains(got.Memories[0].Content, "Alps") {
		t.Errorf("recall --when yesterday: got %+v, want the Alps first", got.Memories)
	}
}

func TestStatsJSON(t *testing.T) {
	e := newTestEnv(t)
	e.ok("remember", "one")
	e.ok("remember", "two", "--scope", "work")
	id := decode[rememberOut](t, e.ok("remember", "--json", "three")).Memory.ID
	e.ok("forget", id)
	var s map[string]any
	if err := json.Unmarshal([]byte(e.ok("stats", "--json").stdout), &s); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"memories", "archived", "store", "model", "scopes"} {
		if _, ok := s[k]; !ok {
			t.Errorf("stats --json lacks %q: %v", k, s)
		}
	}
	if s["memories"] != 2.0 || s["archived"] != 1.0 {
		t.Errorf("stats: memories %v archived %v, want 2 and 1", s["memories"], s["archived"])
	}
	wantPath := filepath.Join(e.vars["XDG_DATA_HOME"], "mneme", "default.db")
	if s["store"] != wantPath {
		t.Errorf("store = %v, want %s", s["store"], wantPath)
	}
	if !strings.Contains(e.ok("stats").stdout, wantPath) {
		t.Error("stats text output lacks the store path")
	}
}

// storePath runs stats --json and returns the store path it reports.
func storePath(t *testing.T, e *testEnv, args ...string) string {
	t.Helper()
	s := decode[struct {
		Store string `json:"store"`
	}](t, e.ok(append([]string{"stats", "--json"}, args...)...))
	return filepath.Base(s.Store)
}

func TestPrecedence(t *testing.T) {
	e := newTestEnv(t)
	if got := storePath(t, e); got != "default.db" {
		t.Errorf("defaults: store %s", got)
	}
	e.writeConfig("store = \"fromfile\"\n")
	if got := storePath(t, e); got != "fromfile.db" {
		t.Errorf("file over defaults: store %s", got)
	}
	e.vars["MNEME_STORE"] = "fromenv"
	if got := storePath(t, e); got != "fromenv.db" {
		t.Errorf("env over file: store %s", got)
	}
	if got := storePath(t, e, "--store", "fromflag"); got != "fromflag.db" {
		t.Errorf("flag over env: store %s", got)
	}
	db := filepath.Join(t.TempDir(), "explicit.db")
	if got := storePath(t, e, "--db", db); got != "explicit.db" {
		t.Errorf("--db: store %s", got)
	}
	// --config names another file, as MNEME_CONFIG does.
	other := filepath.Join(t.TempDir(), "other.toml")
	os.WriteFile(other, []byte("store = \"other\"\n"), 0o600)
	delete(e.vars, "MNEME_STORE")
	if got := storePath(t, e, "--config", other); got != "other.db" {
		t.Errorf("--config: store %s", got)
	}
	// A flag's timezone beats the environment's.
	e.vars["MNEME_TIMEZONE"] = "Not/AZone"
	if r := e.run("stats"); r.code != 2 {
		t.Errorf("bad MNEME_TIMEZONE: exit %d, want 2", r.code)
	}
	e.ok("stats", "--timezone", "Europe/Berlin")
}

func TestErrors(t *testing.T) {
	e := newTestEnv(t)
	tests := []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"frobnicate"}, 2, `unknown command "frobnicate"`},
		{[]string{"remember", "x", "--nope"}, 2, "flag provided but not defined: -nope"},
		{[]string{"remember"}, 2, "nothing to remember"},
		{[]string{"remember", "x", "--time"}, 2, "flag needs an argument"},
		{[]string{"remember", "x", "--time", "tomorrowish"}, 2, "--time"},
		{[]string{"remember", "x", "--kind", "poem"}, 2, "--kind"},
		{[]string{"recall", "x", "--limit", "999"}, 2, "--limit"},
		{[]string{"recall", "x", "--limit", "many"}, 2, "invalid value"},
		{[]string{"recall"}, 2, "nothing to recall"},
		{[]string{"forget"}, 2, "at least one memory"},
		{[]string{"stats", "--now", "soon"}, 2, "MNEME_NOW"},
		{[]string{"stats", "--log-level", "loud"}, 2, "log"},
		{[]string{"stats", "--config", "/nonexistent/mneme.toml"}, 2, "nonexistent"},
		{[]string{"serve", "--transport", "tcp"}, 2, "use stdio, http or sse"},
		{[]string{"serve", "--transport", "http", "--addr", "8765"}, 2, "host:port"},
		{[]string{"serve", "--transport", "http", "--addr", "0.0.0.0:0"}, 2, "without a token"},
		{[]string{"serve", "--scope", " "}, 2, "scope"},
		{[]string{"bench"}, 2, "--memories and --queries"},
		{[]string{"forget", "no-such-id"}, 1, "not found"},
		{[]string{"help", "frobnicate"}, 2, "unknown command"},
	}
	for _, tt := range tests {
		r := e.run(tt.args...)
		if r.code != tt.code || !strings.Contains(r.stderr, tt.msg) {
			t.Errorf("mneme %q: exit %d, stderr %q; want exit %d and %q", tt.args, r.code, r.stderr, tt.code, tt.msg)
		}
		if r.stdout != "" {
			t.Errorf("mneme %q: wrote to stdout on error: %q", tt.args, r.stdout)
		}
	}
}

func TestModelMismatchAndReembed(t *testing.T) {
	e := newTestEnv(t)
	e.ok("remember", "likes green tea")
	e.writeConfig("[embedder]\ndim = 64\n")
	r := e.run("recall", "tea")
	if r.code != 1 || !strings.Contains(r.stderr, "mneme reembed") {
		t.Fatalf("other model: exit %d stderr %q; want 1 and a hint at mneme reembed", r.code, r.stderr)
	}
	re := e.ok("reembed")
	if !strings.Contains(re.stderr, "reembed: 1/1") || !strings.Contains(re.stdout, "builtin-hash-v1/64") {
		t.Errorf("reembed: stdout %q stderr %q", re.stdout, re.stderr)
	}
	if got := decode[recallOut](t, e.ok("recall", "--json", "tea")); len(got.Memories) != 1 {
		t.Errorf("after reembed: %d memories, want 1", len(got.Memories))
	}
}

func TestVersionAndHelp(t *testing.T) {
	e := newTestEnv(t)
	if r := e.ok("version"); r.stdout != "mneme dev\n" {
		t.Errorf("version: %q", r.stdout)
	}
	if v := decode[map[string]string](t, e.ok("version", "--json")); v["version"] != "dev" {
		t.Errorf("version --json: %v", v)
	}
	h := e.ok("help")
	for _, c := range commands() {
		if !strings.Contains(h.stdout, c.name) {
			t.Errorf("help does not list %s", c.name)
		}
	}
	if r := e.ok("--help"); r.stdout != h.stdout {
		t.Errorf("mneme --help differs from mneme help: %q", r.stdout)
	}
	if r := e.ok("help", "remember"); !strings.Contains(r.stdout, "--tag") {
		t.Errorf("help remember lacks --tag: %q", r.stdout)
	}
	if r := e.ok("recall", "--help"); !strings.Contains(r.stderr, "--no-reinforce") {
		t.Errorf("recall --help lacks --no-reinforce: %q", r.stderr)
	}
}

// TestDefaultCommandServes runs plain `mneme` (no command) in-process: it is
// serve over stdio, and stdout carries only the JSON-RPC responses. Stdin
// stays open until both responses have arrived (matched by id), as a real
// client's does.
func TestDefaultCommandServes(t *testing.T) {
	e := newTestEnv(t)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var errb bytes.Buffer
	done := make(chan int, 1)
	go func() {
		code := Run(context.Background(), nil, func(k string) string { return e.vars[k] }, inR, outW, &errb)
		outW.Close()
		done <- code
	}()
	go io.WriteString(inW, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`+"\n"+
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`+"\n")

	got := map[float64]string{}
	sc := bufio.NewScanner(outR)
	sc.Buffer(nil, 1<<20)
	for len(got) < 2 && sc.Scan() {
		var msg struct {
			JSONRPC string          `json:"jsonrpc"`
			ID      float64         `json:"id"`
			Result  json.RawMessage `json:"result"`
		}
		if err := json.Unmarshal(sc.Bytes(), &msg); err != nil || msg.JSONRPC != "2.0" || msg.Result == nil {
			t.Fatalf("not a JSON-RPC result: %q", sc.Text())
		}
		got[msg.ID] = sc.Text()
	}
	inW.Close()
	go io.Copy(io.Discard, outR) // keep reading: the server must never block on stdout
	if code := <-done; code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if len(got) != 2 || got[1] == "" {
		t.Fatalf("want responses to ids 1 and 2, got %v", got)
	}
	if !strings.Contains(got[2], `"remember"`) {
		t.Errorf("tools/list lacks remember: %s", got[2])
	}
}

func TestBench(t *testing.T) {
	e := newTestEnv(t)
	dir := t.TempDir()
	mem := filepath.Join(dir, "memories.jsonl")
	qs := filepath.Join(dir, "queries.jsonl")
	os.WriteFile(mem, []byte(strings.Join([]string{
		`{"id": "c1/1", "scope": "c1", "thread": "c1/s1", "time": "2023-05-08T13:56:00Z", "text": "Anna: I adopted a grey cat called Miso"}`,
		`{"id": "c1/2", "scope": "c1", "thread": "c1/s1", "time": "2023-05-08T13:57:00Z", "text": "Ben: I am training for the Berlin marathon"}`,
		`{"id": "c2/1", "scope": "c2", "thread": "c2/s1", "time": "2023-06-01T10:00:00Z", "text": "Cleo: my sister lives in Lisbon"}`,
	}, "\n")+"\n"), 0o600)
	os.WriteFile(qs, []byte(strings.Join([]string{
		`{"id": "q1", "scope": "c1", "query": "What is the name of Anna's cat?", "now": "2023-06-01T09:00:00Z", "evidence": ["c1/1"], "category": "single-hop"}`,
		`{"id": "q2", "scope": "c2", "query": "Where does Cleo's sister live?", "now": "2023-07-01T09:00:00Z", "evidence": ["c2/1"], "category": "single-hop"}`,
	}, "\n")+"\n"), 0o600)

	r := e.ok("bench", "--memories", mem, "--queries", qs, "--k", "1,2", "--json")
	var rep struct {
		All map[string]float64 `json:"all"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("bench --json: %v\n%s", err, r.stdout)
	}
	if rep.All["n"] != 2 || rep.All["recall@1"] != 1 || rep.All["hit@2"] != 1 {
		t.Errorf("bench: %v, want 2 questions all answered at 1", rep.All)
	}
	if _, err := os.Stat(filepath.Join(e.vars["XDG_DATA_HOME"], "mneme", "default.db")); err == nil {
		t.Error("bench wrote into the configured store")
	}

	r = e.ok("bench", "--memories", mem, "--queries", qs, "--scopes", "c2")
	if !strings.Contains(r.stdout, "R@1") || !strings.Contains(r.stdout, "all") {
		t.Errorf("bench table: %q", r.stdout)
	}
	if r := e.run("bench", "--memories", mem, "--queries", qs, "--k", "0"); r.code != 2 {
		t.Errorf("--k 0: exit %d, want 2", r.code)
	}
}

// TestRankingDefaults checks that without configuration the store ranks with
// exactly memory.DefaultRanking() (the measured defaults), and that a key the
// user sets overrides that key alone.
func TestRankingDefaults(t *testing.T) {
	storeRanking := func(e *testEnv) memory.Ranking {
		t.Helper()
		a := &app{ctx: context.Background(), getenv: func(k string) string { return e.vars[k] }, stderr: io.Discard}
		env, err := a.setup()
		if err != nil {
			t.Fatal(err)
		}
		defer env.close()
		opts, err := storeOptions(env, filepath.Join(t.TempDir(), "x.db"), false)
		if err != nil {
			t.Fatal(err)
		}
		return opts.Ranking
	}

	e := newTestEnv(t)
	if got, want := storeRanking(e), memory.DefaultRanking(); got != want {
		t.Errorf("no configuration: ranking %+v, want memory.DefaultRanking() %+v", got, want)
	}

	e.writeConfig("[recall]\nb = 0\nk1 = 1.7\n")
	e.vars["MNEME_DECAY_UNIT"] = "10d"
	want := memory.DefaultRanking()
	want.B, want.K1, want.DecayUnit = 0, 1.7, 10*24*time.Hour
	if got := storeRanking(e); got != want {
		t.Errorf("b, k1 and decay unit set: ranking %+v, want %+v", got, want)
	}
}
