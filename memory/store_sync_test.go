package memory

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
)

func TestTwoHandlesSeeEachOther(t *testing.T) {
	ctx := context.Background()
	c := newTestClock()
	opts := testOptions(filepath.Join(t.TempDir(), "mneme.db"), c)
	a, b := openTest(t, opts), openTest(t, opts)
	mustSync(t, a)
	mustSync(t, b)

	m, _ := remember(t, a, Draft{Content: "written by handle a", Tags: []string{"shared"}})
	if _, ok := b.idx.get(m.ID); ok {
		t.Fatal("b saw a's write before syncing")
	}
	mustSync(t, b)
	if got, ok := b.idx.get(m.ID); !ok || got.Content != m.Content {
		t.Fatalf("b's index after sync: %+v, %v", got, ok)
	}
	// A duplicate written through b reinforces a's memory; a sees the count.
	if _, out := remember(t, b, Draft{Content: "Written by handle A"}); !out.Duplicate {
		t.Error("b did not find a's memory as a duplicate")
	}
	mustSync(t, a)
	if got, _ := a.idx.get(m.ID); got.RecallCount != 1 {
		t.Errorf("a's index copy has recall count %d, want 1", got.RecallCount)
	}
	// Purges travel through tombstones.
	if _, err := b.Forget(ctx, ForgetRequest{IDs: []string{m.ID}, Purge: true}); err != nil {
		t.Fatal(err)
	}
	mustSync(t, a)
	if _, ok := a.idx.get(m.ID); ok {
		t.Error("a still holds the memory b purged")
	}
	// An interleaved write: a writes after b without syncing; a's lastRev
	// must not skip b's change.
	m1, _ := remember(t, b, Draft{Content: "b again"})
	m2, _ := remember(t, a, Draft{Content: "a again"})
	mustSync(t, a)
	for _, id := range []string{m1.ID, m2.ID} {
		if _, ok := a.idx.get(id); !ok {
			t.Errorf("a's index misses %s", id)
		}
	}
}

// TestStoreHelperProcess is not a test: TestTwoProcesses runs the test
// binary again with it selected and the environment saying what to write.
func TestStoreHelperProcess(t *testing.T) {
	path := os.Getenv("MNEME_STORE_HELPER_PATH")
	if path == "" {
		t.Skip("helper process for TestTwoProcesses")
	}
	n, _ := strconv.Atoi(os.Getenv("MNEME_STORE_HELPER_N"))
	s, err := Open(context.Background(), testOptions(path, newTestClock()))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	for i := range n {
		if _, _, err := s.Remember(context.Background(), Draft{Content: fmt.Sprintf("child memory %d", i)}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
	}
	if err := s.Close(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(4)
	}
	os.Exit(0)
}

func TestTwoProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a second process")
	}
	const n = 100
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "mneme.db")
	s := openTest(t, testOptions(path, newTestClock()))
	mustSync(t, s)

	cmd := exec.Command(exe, "-test.run=^TestStoreHelperProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), "MNEME_STORE_HELPER_PATH="+path, "MNEME_STORE_HELPER_N="+strconv.Itoa(n))
	var out lockedBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		remember(t, s, Draft{Content: fmt.Sprintf("parent memory %d", i)})
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("child: %v\n%s", err, out.String())
	}
	if got := countRows(t, s, `SELECT count(*) FROM memories`); got != 2*n {
		t.Fatalf("%d memories, want %d", got, 2*n)
	}
	mustSync(t, s)
	if s.idx.len() != 2*n {
		t.Errorf("index holds %d memories, want %d", s.idx.len(), 2*n)
	}
}

type lockedBuffer struct {
	mu sync.Mutex
	b  []byte
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.b = append(l.b, p...)
	return len(p), nil
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return string(l.b)
}

func TestConcurrentWritersLoseNothing(t *testing.T) {
	const goroutines, writes = 8, 50
	c := newTestClock()
	opts := testOptions(filepath.Join(t.TempDir(), "mneme.db"), c)
	handles := []*Store{openTest(t, opts), openTest(t, opts)}
	var wg sync.WaitGroup
	errs := make(chan error, goroutines)
	for g := range goroutines {
		wg.Go(func() {
			s := handles[g%2]
			for i := range writes {
				d := Draft{Content: fmt.Sprintf("goroutine %d write %d", g, i), Tags: []string{"load"}}
				if i%10 == 0 {
					// A duplicate of everyone's first write, racing on purpose.
					d.Content = "the shared one"
				}
				if _, _, err := s.Remember(context.Background(), d); err != nil {
					errs <- err
					return
				}
				if i%7 == 0 {
					if err := s.sync(context.Background()); err != nil {
						errs <- err
						return
					}
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	// 45 distinct writes per goroutine plus one shared memory reinforced 39 times.
	want := goroutines*(writes-writes/10) + 1
	if got := countRows(t, handles[0], `SELECT count(*) FROM memories`); got != want {
		t.Errorf("%d memories, want %d", got, want)
	}
	if got := countRows(t, handles[0], `SELECT recall_count FROM memories WHERE content = 'the shared one'`); got != goroutines*writes/10-1 {
		t.Errorf("shared memory reinforced %d times, want %d", got, goroutines*writes/10-1)
	}
	for i, s := range handles {
		mustSync(t, s)
		if s.idx.len() != want {
			t.Errorf("handle %d index holds %d, want %d", i, s.idx.len(), want)
		}
		if m, _ := s.idx.get(firstID(t, s)); m.RecallCount != goroutines*writes/10-1 {
			t.Errorf("handle %d index copy of the shared memory has count %d", i, m.RecallCount)
		}
	}
}

func firstID(t *testing.T, s *Store) string {
	t.Helper()
	var id string
	if err := s.db.QueryRow(`SELECT id FROM memories WHERE content = 'the shared one'`).Scan(&id); err != nil {
		t.Fatal(err)
	}
	return id
}

func TestLateOwnWriteDoesNotOverwriteSyncedState(t *testing.T) {
	s, _ := newTestStore(t)
	m, _ := remember(t, s, Draft{Content: "current text"})
	mustSync(t, s)
	s.syncMu.Lock()
	rev := s.lastRev
	s.syncMu.Unlock()
	stale := m
	stale.Content = "stale text"
	// A write at a rev the index has already passed must not be put.
	s.applyOwn(rev, []row{{m: stale, rev: rev}}, nil)
	if got, _ := s.idx.get(m.ID); got.Content != "current text" {
		t.Errorf("index copy = %q after a late write", got.Content)
	}
}
