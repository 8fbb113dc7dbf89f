package cli_test

// Robustness tests for "safe to run anywhere": several processes writing one
// store at once, and writers killed with SIGKILL in the middle of their
// work. The writers and checkers are this test binary run again with
// robustHelperEnv set: init (below) turns such a process into a helper
// before TestMain would build the mneme binary.

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/mneme-mcp/mneme/embed"
	"github.com/mneme-mcp/mneme/memory"
)

// The environment of a helper process.
const (
	robustHelperEnv = "MNEME_ROBUST_HELPER" // "plain", "mixed" or "check"; unset in a normal test run
	robustDBEnv     = "MNEME_ROBUST_DB"     // store path
	robustNEnv      = "MNEME_ROBUST_N"      // writes to make, 0 = until killed
	robustTagEnv    = "MNEME_ROBUST_TAG"    // unique prefix of a writer's texts
)

// init runs a helper instead of the tests when the environment asks for
// one. It has to be init: TestMain (in e2e_test.go) builds the mneme binary
// first, which a helper started 30 times over does not need.
func init() {
	switch mode := os.Getenv(robustHelperEnv); mode {
	case "":
	case "check":
		os.Exit(robustChecker())
	default:
		os.Exit(robustWriter(mode))
	}
}

// helperOnce guards helperBin, the test binary the helper processes run.
var (
	helperOnce sync.Once
	helperBin  string
	helperErr  error
)

// helperBinary returns the binary to run helper processes with: this one,
// or when it was built with -race, this package's test binary built without
// (two seconds with a warm build cache). Under the race detector SQLite
// (transpiled C) runs about ten times slower, which would leave a killed
// writer a handful of writes per round and make each check after a kill
// take a second. The process that reads while others write, the
// concurrency this suite is about, keeps the race detector.
func helperBinary(t *testing.T) string {
	t.Helper()
	helperOnce.Do(func() {
		helperBin = os.Args[0]
		info, ok := debug.ReadBuildInfo()
		if !ok || !slices.Contains(info.Settings, debug.BuildSetting{Key: "-race", Value: "true"}) {
			return
		}
		helperBin = filepath.Join(filepath.Dir(bin), "robust-helper")
		build := exec.Command("go", "test", "-c", "-o", helperBin, ".")
		if out, err := build.CombinedOutput(); err != nil {
			helperErr = fmt.Errorf("go test -c: %v\n%s", err, out)
		}
	})
	if helperErr != nil {
		t.Fatal(helperErr)
	}
	return helperBin
}

// helperCmd returns the command running the helper mode on the store path.
func helperCmd(t *testing.T, mode, path string, env ...string) *exec.Cmd {
	cmd := exec.Command(helperBinary(t), "-test.run=^$")
	cmd.Env = append(os.Environ(), append(env, robustHelperEnv+"="+mode, robustDBEnv+"="+path)...)
	return cmd
}

func openStore(ctx context.Context, path string) (*memory.Store, error) {
	em := embed.Builtin(0)
	return memory.Open(ctx, memory.Options{Path: path, ModelID: em.ModelID, Embed: em.Func})
}

// robustAck is one line a writer prints: "try" before a write (with the id
// for an update), "ok" once Remember has returned, i.e. after the commit.
type robustAck struct {
	Op         string   `json:"op"`
	ID         string   `json:"id,omitempty"`
	Content    string   `json:"content"`
	Token      string   `json:"token,omitempty"` // a word only this memory holds
	Update     bool     `json:"update,omitempty"`
	Superseded []string `json:"superseded,omitempty"`
}

// robustWriter writes memories through memory.Open/Remember and prints
// every acknowledged one on stdout, one line per write(2), so that a reader
// of the pipe holds exactly the lines written before a kill. Mode "plain"
// stores distinct thoughts; "mixed" cycles through a fact (superseding the
// subject's previous one), a thought, and an update of that thought, so
// that a kill also hits multi-row transactions.
func robustWriter(mode string) int {
	tag := os.Getenv(robustTagEnv)
	n, _ := strconv.Atoi(os.Getenv(robustNEnv))
	ctx := context.Background()
	st, err := openStore(ctx, os.Getenv(robustDBEnv))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	emit := func(a robustAck) {
		b, _ := json.Marshal(a)
		os.Stdout.Write(append(b, '\n')) // unbuffered: one write per line
	}
	subjects := []string{"Alice", "Bob", "Carol"}
	var lastThought string
	for i := 0; n == 0 || i < n; i++ {
		token := fmt.Sprintf("%sn%d", tag, i)
		d := memory.Draft{Content: fmt.Sprintf("%s wrote note %d with the token %s", tag, i, token)}
		if mode == "mixed" {
			switch i % 3 {
			case 0:
				subj := subjects[(i/3)%len(subjects)]
				obj := "town " + token
				d = memory.Draft{Kind: memory.KindFact, Subject: subj, Predicate: "lives in", Object: obj,
					Content: subj + " lives in " + obj}
			case 2:
				d = memory.Draft{ID: lastThought, Content: fmt.Sprintf("%s revised note %d with the token %s", tag, i-1, token)}
			}
		}
		emit(robustAck{Op: "try", ID: d.ID, Content: d.Content, Update: d.ID != ""})
		m, out, err := st.Remember(ctx, d)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 3
		}
		if out.Duplicate {
			fmt.Fprintf(os.Stderr, "%q was taken for a duplicate of %s\n", d.Content, m.ID)
			return 3
		}
		if mode == "mixed" && i%3 == 1 {
			lastThought = m.ID
		}
		emit(robustAck{Op: "ok", ID: m.ID, Content: m.Content, Token: token, Update: out.Updated, Superseded: out.Superseded})
	}
	if err := st.Close(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 4
	}
	return 0
}

// writerProc is a running writer and the lines it has printed.
type writerProc struct {
	cmd    *exec.Cmd
	stderr bytes.Buffer
	acks   chan robustAck // every line, closed at EOF of stdout
}

// startWriter starts a writer process on the store at path; a test that
// ends early kills it.
func startWriter(t *testing.T, path, mode, tag string, n int) *writerProc {
	t.Helper()
	w := &writerProc{cmd: helperCmd(t, mode, path, robustTagEnv+"="+tag, robustNEnv+"="+strconv.Itoa(n)),
		acks: make(chan robustAck, 1024)}
	w.cmd.Stderr = &w.stderr
	out, err := w.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := w.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.cmd.Process.Kill() })
	go func() {
		defer close(w.acks)
		// Only whole lines count: a line cut by the kill was never acknowledged.
		r := bufio.NewReader(out)
		for {
			line, err := r.ReadBytes('\n')
			if err != nil {
				io.Copy(io.Discard, r)
				return
			}
			var a robustAck
			if json.Unmarshal(line, &a) != nil {
				continue // the counts of acknowledged writes will not add up
			}
			w.acks <- a
		}
	}()
	return w
}

// robustLedger is what writers acknowledged, which a checker compares with
// the store.
type robustLedger struct {
	Content   map[string]string `json:"content"`   // id -> content acknowledged last (or found after a kill)
	Pending   map[string]string `json:"pending"`   // id -> content of an update cut by a kill: either may be stored
	Successor map[string]string `json:"successor"` // superseded id -> the acknowledged fact that superseded it
	Updated   map[string]bool   `json:"updated"`   // ids with an acknowledged update: they have history
	Find      map[string]string `json:"find"`      // token -> id it must recall first (may be left empty)
	Active    int               `json:"active"`    // active memories Stats must count; -1 = any

	acked, cut int // writes acknowledged; kills that cut a write in flight
}

func newLedger() *robustLedger {
	return &robustLedger{Content: map[string]string{}, Pending: map[string]string{},
		Successor: map[string]string{}, Updated: map[string]bool{}, Find: map[string]string{}, Active: -1}
}

// record notes one acknowledged write.
func (l *robustLedger) record(a robustAck) {
	l.acked++
	l.Content[a.ID] = a.Content
	delete(l.Pending, a.ID)
	if a.Update {
		l.Updated[a.ID] = true
	}
	for _, old := range a.Superseded {
		l.Successor[old] = a.ID
	}
}

// robustReport is what a checker prints.
type robustReport struct {
	Problems []string          `json:"problems"`
	Stored   map[string]string `json:"stored"` // content of every ledger id as stored
}

// check runs a checker process on the store at path and fails t with each
// problem it finds. An update cut by a kill is settled to what the store
// holds, since that is now durable.
func (l *robustLedger) check(t *testing.T, path string) {
	t.Helper()
	in, err := json.Marshal(l)
	if err != nil {
		t.Fatal(err)
	}
	cmd := helperCmd(t, "check", path)
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("checker: %v\n%s", err, stderr.String())
	}
	var rep robustReport
	if err := json.Unmarshal(out, &rep); err != nil {
		t.Fatalf("checker's report %q: %v", out, err)
	}
	for _, p := range rep.Problems {
		t.Error(p)
	}
	maps.Copy(l.Content, rep.Stored)
	clear(l.Pending)
}

// robustChecker reads a robustLedger on stdin, checks the store at
// robustDBEnv against it and prints a robustReport.
func robustChecker() int {
	var l robustLedger
	if err := json.NewDecoder(os.Stdin).Decode(&l); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	path := os.Getenv(robustDBEnv)
	rep := robustReport{Stored: map[string]string{}}
	problems, err := fileProblems(path)
	if err == nil {
		rep.Problems = problems
		err = l.storeProblems(path, &rep)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 3
	}
	json.NewEncoder(os.Stdout).Encode(rep)
	return 0
}

// fileProblems opens the database file with the sqlite driver alone and
// checks it with SQLite's integrity checks and that no memory is half
// written: FTS rows, vectors and history point to existing memories and
// every memory has its FTS row and vector; a superseded fact is archived
// and its successor exists; at most one fact per subject and predicate is
// active; no row has a rev past meta.rev.
func fileProblems(path string) ([]string, error) {
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(10000)")
	db, err := sql.Open("sqlite", (&url.URL{Scheme: "file", Path: path, RawQuery: q.Encode()}).String())
	if err != nil {
		return nil, err
	}
	defer db.Close()
	var problems []string
	var res string
	if err := db.QueryRow(`PRAGMA integrity_check`).Scan(&res); err != nil {
		return nil, fmt.Errorf("integrity_check: %w", err)
	}
	if res != "ok" {
		problems = append(problems, "integrity_check: "+res)
	}
	if _, err := db.Exec(`INSERT INTO memories_fts (memories_fts) VALUES ('integrity-check')`); err != nil {
		problems = append(problems, fmt.Sprintf("fts5 integrity-check: %v", err))
	}
	for _, c := range []struct{ what, query string }{
		{"foreign key violations", `SELECT count(*) FROM pragma_foreign_key_check`},
		{"memories without their fts row", `SELECT count(*) FROM memories m LEFT JOIN memories_fts f ON f.rowid = m.pk WHERE f.rowid IS NULL`},
		{"fts rows without their memory", `SELECT count(*) FROM memories_fts f LEFT JOIN memories m ON m.pk = f.rowid WHERE m.pk IS NULL`},
		{"fts rows with other content", `SELECT count(*) FROM memories m JOIN memories_fts f ON f.rowid = m.pk WHERE f.content <> m.content`},
		{"memories without a vector", `SELECT count(*) FROM memories m LEFT JOIN vectors v ON v.memory_id = m.id WHERE v.memory_id IS NULL`},
		{"vectors without their memory", `SELECT count(*) FROM vectors v LEFT JOIN memories m ON m.id = v.memory_id WHERE m.id IS NULL`},
		{"history rows without their memory", `SELECT count(*) FROM history h LEFT JOIN memories m ON m.id = h.memory_id WHERE m.id IS NULL`},
		{"superseded memories whose successor is missing or which are active",
			`SELECT count(*) FROM memories a LEFT JOIN memories b ON b.id = a.superseded_by
			 WHERE a.superseded_by <> '' AND (b.id IS NULL OR a.archived IS NULL)`},
		{"superseded memories without a history row",
			`SELECT count(*) FROM memories a WHERE a.superseded_by <> ''
			 AND NOT EXISTS (SELECT 1 FROM history h WHERE h.memory_id = a.id AND h.reason = 'supersede')`},
		{"subject/predicate pairs with two active facts",
			`SELECT count(*) FROM (SELECT 1 FROM memories WHERE archived IS NULL AND fact_key IS NOT NULL
			 GROUP BY scope, fact_key HAVING count(*) > 1)`},
		{"rows with a rev past meta.rev", `SELECT count(*) FROM memories WHERE rev > (SELECT value FROM meta WHERE key = 'rev')`},
	} {
		var n int
		if err := db.QueryRow(c.query).Scan(&n); err != nil {
			return nil, fmt.Errorf("%s: %w", c.what, err)
		}
		if n != 0 {
			problems = append(problems, fmt.Sprintf("%d %s", n, c.what))
		}
	}
	return problems, nil
}

// storeProblems opens the store and compares it with the ledger: every
// acknowledged id with its content, superseded facts archived and linked to
// their successor, history of updates, Find by recall, the Active count.
func (l *robustLedger) storeProblems(path string, rep *robustReport) error {
	ctx := context.Background()
	st, err := openStore(ctx, path)
	if err != nil {
		return err
	}
	defer st.Close()
	problem := func(format string, args ...any) { rep.Problems = append(rep.Problems, fmt.Sprintf(format, args...)) }
	ids := slices.Sorted(maps.Keys(l.Content))
	got, err := st.Get(ctx, ids)
	if err != nil {
		problem("an acknowledged write is missing: %v", err)
		return nil
	}
	for _, m := range got {
		rep.Stored[m.ID] = m.Content
		if want := l.Content[m.ID]; m.Content != want && m.Content != l.Pending[m.ID] {
			problem("%s: content %q, want %q", m.ID, m.Content, want)
		}
		if succ, ok := l.Successor[m.ID]; ok && (!m.IsArchived() || m.SupersededBy != succ) {
			problem("%s: archived %v, superseded by %q, want by %s", m.ID, m.Archived, m.SupersededBy, succ)
		}
	}
	for id := range l.Updated {
		if h, err := st.History(ctx, id); err != nil || len(h) == 0 {
			problem("%s: updated, but history %v, %v", id, h, err)
		}
	}
	for token, id := range l.Find {
		res, err := st.Recall(ctx, memory.Query{Text: token, Limit: 3})
		if err != nil {
			return err
		}
		if len(res.Hits) == 0 || res.Hits[0].Memory.ID != id {
			problem("recall %s: %d hits, want %s first", token, len(res.Hits), id)
		}
	}
	if l.Active >= 0 {
		stats, err := st.Stats(ctx)
		if err != nil {
			return err
		}
		if stats.Memories != l.Active {
			problem("stats: %d active memories, want %d", stats.Memories, l.Active)
		}
	}
	return nil
}

// TestManyProcessesOneStore runs 4 writer processes × 250 writes at once on
// one store, while a Store handle of
// this process reads: every id a writer acknowledged must be found by the
// reader's next recall (the rev-delta sync, no reload). Afterwards a new
// process finds all 1,000 by id and by content.
func TestManyProcessesOneStore(t *testing.T) {
	procs, each := 4, 250
	if testing.Short() {
		each = 40
	}
	// The reader creates the store before the writers start: several
	// processes creating one new store at once can fail to open it
	// (SQLITE_BUSY from the first read of the schema version, a few in a
	// thousand opens), which is a bug of its own and would make this test
	// flaky.
	path := filepath.Join(t.TempDir(), "many.db")
	ctx := context.Background()
	reader, err := openStore(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close()
	if _, err := reader.Recall(ctx, memory.Query{Text: "nothing yet"}); err != nil {
		t.Fatal(err) // the index is loaded: from here on it grows by deltas only
	}
	helperBinary(t)
	start := time.Now()
	writers := make([]*writerProc, procs)
	for i := range writers {
		writers[i] = startWriter(t, path, "plain", fmt.Sprintf("w%d", i), each)
	}

	// Fan the writers' acknowledgements into one channel.
	type acked struct {
		robustAck
		writer int
	}
	all := make(chan acked, procs*each)
	done := make(chan int)
	for i, w := range writers {
		go func() {
			for a := range w.acks {
				if a.Op == "ok" {
					all <- acked{a, i}
				}
			}
			done <- i
		}()
	}
	led := newLedger()
	counts := make([]int, procs)
	var calls int
	for running := procs; running > 0 || len(all) > 0; {
		// Everything acknowledged so far must be visible to the next call.
		var batch []acked
	drain:
		for len(batch) < memory.MaxLimit {
			select {
			case a := <-all:
				batch = append(batch, a)
			case i := <-done:
				running--
				if err := writers[i].cmd.Wait(); err != nil {
					t.Fatalf("writer %d: %v\n%s", i, err, writers[i].stderr.String())
				}
			default:
				break drain
			}
		}
		if len(batch) == 0 {
			if running > 0 {
				time.Sleep(time.Millisecond)
			}
			continue
		}
		ids := make([]string, len(batch))
		for j, a := range batch {
			ids[j] = a.ID
			led.record(a.robustAck)
			led.Find[a.Token] = a.ID
			counts[a.writer]++
		}
		calls++
		res, err := reader.Recall(ctx, memory.Query{IDs: ids})
		if err != nil {
			t.Fatalf("recall of %d acknowledged ids (call %d): %v", len(ids), calls, err)
		}
		for j, h := range res.Hits {
			if h.Memory.ID != ids[j] || h.Memory.Content != batch[j].Content {
				t.Errorf("recall hit %d: %s %q, want %s %q", j, h.Memory.ID, h.Memory.Content, ids[j], batch[j].Content)
			}
		}
	}
	t.Logf("%d processes × %d writes in %v; the reader saw each write on its next call (%d recalls)",
		procs, each, time.Since(start).Round(time.Millisecond), calls)
	for i, c := range counts {
		if c != each {
			t.Errorf("writer %d acknowledged %d writes, want %d", i, c, each)
		}
	}
	if len(led.Content) != procs*each {
		t.Fatalf("%d distinct ids acknowledged, want %d", len(led.Content), procs*each)
	}

	// The reader's index grew by deltas alone: a sample by content.
	sampled := 0
	for token, id := range led.Find {
		if sampled++; sampled > 20 {
			break
		}
		res, err := reader.Recall(ctx, memory.Query{Text: token, Limit: 3})
		if err != nil {
			t.Fatalf("recall %s: %v", token, err)
		}
		if len(res.Hits) == 0 || res.Hits[0].Memory.ID != id {
			t.Errorf("reader: recall %s: %d hits, want %s first", token, len(res.Hits), id)
		}
	}
	if stats, err := reader.Stats(ctx); err != nil || stats.Memories != procs*each {
		t.Errorf("reader: stats %+v, %v, want %d memories", stats, err, procs*each)
	}
	// A new process: every id, every token, the count.
	led.Active = procs * each
	led.check(t, path)
	t.Logf("all done in %v", time.Since(start).Round(time.Millisecond))
}

// TestCrashSafety kills a writer with SIGKILL at a random moment, at least
// 30 times over, and checks after each kill (in a new process) that the
// store opens, passes SQLite's integrity checks, holds every acknowledged
// write with its content and no half-written one (see fileProblems and
// storeProblems). Rounds alternate between plain writes and a mix of facts
// superseding each other, thoughts and updates, whose transactions write
// several rows.
func TestCrashSafety(t *testing.T) {
	rounds := 32
	if testing.Short() {
		rounds = 6
	}
	// A store sees killsPerStore kills, each writer starting on what the
	// previous kill left; then a new store keeps the checks from growing
	// with every round.
	const killsPerStore = 8
	const seed = 20260511
	rng := rand.New(rand.NewPCG(seed, 1))
	t.Logf("seed %d", seed)
	var (
		path       string
		led        *robustLedger
		acked, cut int
		checking   time.Duration
	)
	start := time.Now()
	for round := range rounds {
		if round%killsPerStore == 0 {
			if led != nil {
				acked, cut = acked+led.acked, cut+led.cut
			}
			path = filepath.Join(t.TempDir(), "crash.db")
			led = newLedger()
		}
		mode := []string{"plain", "mixed"}[round%2]
		delay := time.Duration(20+rng.IntN(281)) * time.Millisecond
		w := startWriter(t, path, mode, fmt.Sprintf("c%d", round), 0)
		var inFlight *robustAck // the last "try" not yet acknowledged
		var kill <-chan time.Time
		timeout := time.After(time.Minute)
	read:
		for {
			select {
			case a, ok := <-w.acks:
				if !ok {
					break read
				}
				switch a.Op {
				case "try":
					inFlight = &a
				case "ok":
					inFlight = nil
					if led.record(a); kill == nil {
						kill = time.After(delay)
					}
				}
			case <-kill:
				if err := w.cmd.Process.Kill(); err != nil {
					t.Fatal(err)
				}
			case <-timeout:
				t.Fatalf("round %d: no acknowledged write within a minute\n%s", round, w.stderr.String())
			}
		}
		err := w.cmd.Wait()
		if ee := (*exec.ExitError)(nil); !errors.As(err, &ee) || ee.ExitCode() != -1 {
			t.Fatalf("round %d: writer ended with %v, want killed\n%s", round, err, w.stderr.String())
		}
		if inFlight != nil {
			led.cut++
			if inFlight.Update {
				led.Pending[inFlight.ID] = inFlight.Content
			}
		}
		checkStart := time.Now()
		led.check(t, path)
		checking += time.Since(checkStart)
		if t.Failed() {
			t.Fatalf("round %d (%s, killed %v after the first acknowledgement) left the store inconsistent", round, mode, delay)
		}
	}
	t.Logf("%d kills in %v (checks %v): %d acknowledged writes all kept, %d kills cut a write in flight",
		rounds, time.Since(start).Round(time.Millisecond), checking.Round(time.Millisecond), acked+led.acked, cut+led.cut)
}
