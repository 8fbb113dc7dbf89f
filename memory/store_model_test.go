package memory

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mneme-mcp/mneme/embed"
)

func TestModelMismatchAndReembed(t *testing.T) {
	ctx := context.Background()
	c := newTestClock()
	path := filepath.Join(t.TempDir(), "mneme.db")
	optsA := testOptions(path, c) // builtin-hash-v1/64
	s := openTest(t, optsA)
	var ids []string
	for _, text := range []string{"first memory about gardens", "second memory about boats", "!!!"} {
		m, _ := remember(t, s, Draft{Content: text})
		ids = append(ids, m.ID)
	}
	s.Close()

	b := embed.Builtin(32)
	optsB := optsA
	optsB.ModelID, optsB.Embed = b.ModelID, b.Func
	_, err := Open(ctx, optsB)
	if !errors.Is(err, ErrModelMismatch) {
		t.Fatalf("Open with another model: %v, want ErrModelMismatch", err)
	}
	for _, want := range []string{`"builtin-hash-v1/64"`, `"builtin-hash-v1/32"`, "mneme reembed"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %s", err, want)
		}
	}

	optsB.AllowModelMismatch = true
	s2 := openTest(t, optsB)
	if s2.ModelID() != optsA.ModelID {
		t.Errorf("ModelID before reembed = %q, want the stored %q", s2.ModelID(), optsA.ModelID)
	}
	if _, _, err := s2.Remember(ctx, Draft{Content: "mixing models"}); !errors.Is(err, ErrModelMismatch) {
		t.Errorf("Remember before reembed: %v, want ErrModelMismatch", err)
	}
	if err := s2.sync(ctx); !errors.Is(err, ErrModelMismatch) {
		t.Errorf("sync before reembed: %v, want ErrModelMismatch", err)
	}
	var calls, last int
	if err := s2.Reembed(ctx, func(done, total int) { calls++; last = done; _ = total }); err != nil {
		t.Fatalf("Reembed: %v", err)
	}
	if calls == 0 || last != 3 {
		t.Errorf("progress called %d times, last done %d", calls, last)
	}
	if s2.ModelID() != b.ModelID {
		t.Errorf("ModelID after reembed = %q", s2.ModelID())
	}
	if n := countRows(t, s2, `SELECT count(*) FROM vectors WHERE model = ? AND dim = 32`, b.ModelID); n != 2 {
		t.Errorf("%d vectors of the new model, want 2 (featureless text has none)", n)
	}
	if n := countRows(t, s2, `SELECT count(*) FROM vectors WHERE model <> ?`, b.ModelID); n != 0 {
		t.Errorf("%d vectors of the old model left", n)
	}
	// The store works normally afterwards, also for a plain reopen.
	remember(t, s2, Draft{Content: "after reembed"})
	mustSync(t, s2)
	if s2.idx.len() != 4 {
		t.Errorf("index holds %d, want 4", s2.idx.len())
	}
	s2.Close()
	optsB.AllowModelMismatch = false
	s3 := openTest(t, optsB)
	if got, err := s3.Get(ctx, ids); err != nil || len(got) != 3 {
		t.Errorf("Get after reopen: %v", err)
	}
}

func TestEmptyStoreTakesNewModel(t *testing.T) {
	c := newTestClock()
	path := filepath.Join(t.TempDir(), "mneme.db")
	s := openTest(t, testOptions(path, c))
	s.Close()
	b := embed.Builtin(32)
	opts := testOptions(path, c)
	opts.ModelID, opts.Embed = b.ModelID, b.Func
	s2 := openTest(t, opts)
	if s2.ModelID() != b.ModelID {
		t.Errorf("store without vectors kept model %q", s2.ModelID())
	}
}

func TestOpenOptions(t *testing.T) {
	ctx := context.Background()
	e := embed.Builtin(16)
	for _, o := range []Options{
		{ModelID: e.ModelID, Embed: e.Func},
		{Path: filepath.Join(t.TempDir(), "a.db"), ModelID: e.ModelID},
		{Path: filepath.Join(t.TempDir(), "b.db"), Embed: e.Func},
	} {
		if _, err := Open(ctx, o); !errors.Is(err, ErrInvalid) {
			t.Errorf("Open(%+v): %v, want ErrInvalid", o, err)
		}
	}
	// A path with characters special in URIs works.
	s := openTest(t, Options{Path: filepath.Join(t.TempDir(), "dir with space?#%", "m.db"), ModelID: e.ModelID, Embed: e.Func})
	if _, _, err := s.Remember(ctx, Draft{Content: "hello"}); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(s.Path()); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("database file mode %v (%v), want owner-only 0600", fi.Mode().Perm(), err)
	}
	if s.opts.DefaultScope != DefaultScope || s.opts.Ranking != DefaultRanking() || s.opts.Location == nil || s.opts.Logger == nil {
		t.Errorf("options not normalised: %+v", s.opts)
	}
}

func TestConcurrentOpenOfNewStore(t *testing.T) {
	opts := testOptions(filepath.Join(t.TempDir(), "new", "mneme.db"), newTestClock())
	errs := make(chan error, 4)
	for range 4 {
		go func() {
			s, err := Open(context.Background(), opts)
			if err == nil {
				_, _, err = s.Remember(context.Background(), Draft{Content: "hello"})
				s.Close()
			}
			errs <- err
		}()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	s := openTest(t, opts)
	if v, _ := userVersion(context.Background(), s.db); v != len(migrations) {
		t.Errorf("user_version %d, want %d", v, len(migrations))
	}
	if n := countRows(t, s, `SELECT count(*) FROM memories`); n != 1 {
		t.Errorf("%d memories, want 1 (the others deduplicated)", n)
	}
}

func TestNewerSchemaRefused(t *testing.T) {
	opts := testOptions(filepath.Join(t.TempDir(), "mneme.db"), newTestClock())
	s := openTest(t, opts)
	if _, err := s.db.Exec(`PRAGMA user_version = 99`); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := Open(context.Background(), opts); err == nil || !strings.Contains(err.Error(), "upgrade mneme") {
		t.Errorf("Open of a newer schema: %v, want a hint to upgrade", err)
	}
}
