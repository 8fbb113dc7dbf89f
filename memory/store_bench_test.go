package memory

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"
)

// seedStore writes n memories with vectors straight into a new store at
// path in one transaction (much faster than n Remember calls).
func seedStore(b *testing.B, path string, n int) Options {
	b.Helper()
	ctx := context.Background()
	c := newTestClock()
	opts := testOptions(path, c)
	s, err := Open(ctx, opts)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	rng := rand.New(rand.NewPCG(1, 2))
	words := []string{"garden", "boat", "coffee", "meeting", "river", "train", "book", "music", "code", "rain", "mountain", "dinner"}
	_, err = s.change(ctx, func(w *wtx) error {
		rev, err := w.bump()
		if err != nil {
			return err
		}
		for i := range n {
			d := Draft{Content: fmt.Sprintf("%s %s %s number %d", words[rng.IntN(len(words))], words[rng.IntN(len(words))], words[rng.IntN(len(words))], i),
				Tags: []string{words[rng.IntN(len(words))]}, Time: c.Now().Add(-time.Duration(rng.IntN(1000)) * time.Hour)}
			m, err := newMemory(d, c.Now(), DefaultScope)
			if err != nil {
				return err
			}
			vec, err := s.embed(ctx, m.Content)
			if err != nil {
				return err
			}
			if err := writeMemory(ctx, w, m, rev, true); err != nil {
				return err
			}
			if err := putVector(ctx, w, m.ID, opts.ModelID, vec); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return opts
}

// BenchmarkOpen measures Open alone: it must stay a few milliseconds at any
// size (the MCP handshake waits for it), since the index loads in the background.
func BenchmarkOpen(b *testing.B) {
	for _, n := range []int{1_000, 100_000} {
		b.Run(fmt.Sprintf("memories=%d", n), func(b *testing.B) {
			opts := seedStore(b, filepath.Join(b.TempDir(), "m.db"), n)
			ctx := context.Background()
			for b.Loop() {
				s, err := Open(ctx, opts)
				if err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				s.Close()
				b.StartTimer()
			}
		})
	}
}

// BenchmarkOpenAndLoad measures Open until the index is loaded (the first
// recall waits for that).
func BenchmarkOpenAndLoad(b *testing.B) {
	for _, n := range []int{1_000, 10_000} {
		b.Run(fmt.Sprintf("memories=%d", n), func(b *testing.B) {
			opts := seedStore(b, filepath.Join(b.TempDir(), "m.db"), n)
			ctx := context.Background()
			for b.Loop() {
				s, err := Open(ctx, opts)
				if err != nil {
					b.Fatal(err)
				}
				if err := s.sync(ctx); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				s.Close()
				b.StartTimer()
			}
		})
	}
}

// BenchmarkSyncUnchanged is the cost every recall pays when no other
// process wrote: one small query.
func BenchmarkSyncUnchanged(b *testing.B) {
	opts := seedStore(b, filepath.Join(b.TempDir(), "m.db"), 1_000)
	s, err := Open(context.Background(), opts)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	if err := s.sync(ctx); err != nil { // wait for the load
		b.Fatal(err)
	}
	for b.Loop() {
		if err := s.sync(ctx); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRemember is one new memory: dedup look-up, embedding, one
// transaction, index update.
func BenchmarkRemember(b *testing.B) {
	opts := seedStore(b, filepath.Join(b.TempDir(), "m.db"), 1_000)
	s, err := Open(context.Background(), opts)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	if err := s.sync(ctx); err != nil {
		b.Fatal(err)
	}
	i := 0
	for b.Loop() {
		i++
		if _, _, err := s.Remember(ctx, Draft{Content: fmt.Sprintf("benchmark memory number %d about rivers", i)}); err != nil {
			b.Fatal(err)
		}
	}
}
