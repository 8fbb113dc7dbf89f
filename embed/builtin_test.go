package embed

import (
	"context"
	"errors"
	"math"
	"slices"
	"testing"
)

func mustEmbed(t testing.TB, e Embedder, text string) []float32 {
	t.Helper()
	v, err := e.Func(context.Background(), text)
	if err != nil {
		t.Fatalf("%s(%q): %v", e.ModelID, text, err)
	}
	return v
}

func cosine(a, b []float32) float64 {
	var dot, na, nb float64
	for i := range a {
		dot += float64(a[i]) * float64(b[i])
		na += float64(a[i]) * float64(a[i])
		nb += float64(b[i]) * float64(b[i])
	}
	return dot / math.Sqrt(na*nb)
}

func norm2(v []float32) float64 {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	return math.Sqrt(s)
}

func TestBuiltinModelIDAndDim(t *testing.T) {
	tests := []struct {
		dim     int
		wantID  string
		wantLen int
	}{
		{0, "builtin-hash-v1/512", 512},
		{-3, "builtin-hash-v1/512", 512},
		{64, "builtin-hash-v1/64", 64},
		{1000, "builtin-hash-v1/1000", 1000},
	}
	for _, tt := range tests {
		e := Builtin(tt.dim)
		if e.ModelID != tt.wantID {
			t.Errorf("Builtin(%d).ModelID = %q, want %q", tt.dim, e.ModelID, tt.wantID)
		}
		if e.Func == nil {
			t.Fatalf("Builtin(%d).Func is nil", tt.dim)
		}
		if v := mustEmbed(t, e, "a puppy"); len(v) != tt.wantLen {
			t.Errorf("Builtin(%d) vector length %d, want %d", tt.dim, len(v), tt.wantLen)
		}
	}
}

func TestBuiltinDeterministicUnitNorm(t *testing.T) {
	e := Builtin(0)
	for _, text := range []string{"I adopted a puppy", sentence200, "Café crème in Zürich, 2023", "what did you do", "x"} {
		a, b := mustEmbed(t, e, text), mustEmbed(t, Builtin(512), text)
		if !slices.Equal(a, b) {
			t.Errorf("%q: two embeddings differ", text)
		}
		if n := norm2(a); math.Abs(n-1) > 1e-5 {
			t.Errorf("%q: norm %v, want 1", text, n)
		}
		for _, x := range a {
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				t.Fatalf("%q: non-finite component", text)
			}
		}
	}
}

// TestBuiltinGolden pins one whole vector so that an accidental change of the
// features or hashing (which would silently invalidate stored vectors without
// changing the model id) fails. "adopted" and "puppy" are 2 word features
// (1.0) and 7+5 trigrams (0.5), no collisions: norm sqrt(2*1 + 12*0.25) = sqrt 5.
func TestBuiltinGolden(t *testing.T) {
	w, g := float32(1/math.Sqrt(5)), float32(0.5/math.Sqrt(5))
	want := map[int]float32{
		65: -g, 235: g, 310: w, 314: -g, 321: -w, 344: g, 367: g,
		385: -g, 455: -g, 460: -g, 471: -g, 481: g, 505: -g, 510: -g,
	}
	v := mustEmbed(t, Builtin(0), "I adopted a puppy")
	for i, x := range v {
		if math.Abs(float64(x-want[i])) > 1e-6 {
			t.Errorf("v[%d] = %v, want %v", i, x, want[i])
		}
	}
}

func TestBuiltinSimilarity(t *testing.T) {
	e := Builtin(0)
	a := mustEmbed(t, e, "I adopted a puppy")
	b := mustEmbed(t, e, "we got a new dog puppy")
	c := mustEmbed(t, e, "the quarterly tax report")
	ab, ac := cosine(a, b), cosine(a, c)
	t.Logf("cos(puppy, dog puppy) = %.3f, cos(puppy, tax report) = %.3f", ab, ac)
	if ab <= ac {
		t.Errorf("cos(similar) = %.3f <= cos(unrelated) = %.3f", ab, ac)
	}
	// Inflections meet through stems and trigrams.
	d := mustEmbed(t, e, "adopting puppies")
	if ad := cosine(a, d); ad <= ac {
		t.Errorf("cos(adopted puppy, adopting puppies) = %.3f <= cos(unrelated) = %.3f", ad, ac)
	}
	// Case and Unicode form do not matter.
	if !slices.Equal(mustEmbed(t, e, "CAFE\u0301 Crème"), mustEmbed(t, e, "caf\u00e9 crème")) {
		t.Error("case/NFD variant embeds differently")
	}
}

func TestBuiltinEmptyText(t *testing.T) {
	e := Builtin(0)
	for _, text := range []string{"", "   ", "?!... --", "\n\t"} {
		v, err := e.Func(context.Background(), text)
		if !errors.Is(err, ErrEmptyText) || v != nil {
			t.Errorf("Func(%q) = %v, %v; want nil, ErrEmptyText", text, v, err)
		}
	}
	if got := ErrEmptyText.Error(); got != "embed: empty text" {
		t.Errorf("ErrEmptyText = %q", got)
	}
	// Only stopwords still give a vector.
	if v := mustEmbed(t, e, "what did you do"); len(v) != 512 {
		t.Errorf("stopword-only text: len %d", len(v))
	}
}

func TestBuiltinCanceledContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Builtin(0).Func(ctx, "a puppy"); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

func TestBuiltinConcurrent(t *testing.T) {
	e := Builtin(128)
	want := mustEmbed(t, e, sentence200)
	errc := make(chan error)
	for g := 0; g < 8; g++ {
		go func() {
			for n := 0; n < 50; n++ {
				v, err := e.Func(context.Background(), sentence200)
				if err == nil && !slices.Equal(v, want) {
					err = errors.New("concurrent embedding differs")
				}
				if err != nil {
					errc <- err
					return
				}
			}
			errc <- nil
		}()
	}
	for g := 0; g < 8; g++ {
		if err := <-errc; err != nil {
			t.Error(err)
		}
	}
}

func BenchmarkBuiltinEmbed(b *testing.B) {
	ctx := context.Background()
	for _, dim := range []int{256, 512, 1024} {
		e := Builtin(dim)
		b.Run(e.ModelID[len("builtin-hash-v1/"):], func(b *testing.B) {
			b.SetBytes(int64(len(sentence200)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := e.Func(ctx, sentence200); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func TestBuiltinSignedCancellationFallsBack(t *testing.T) {
	// With one bucket every feature collides, so some words' signed features
	// cancel exactly; they must still embed (unsigned fallback), not error.
	e := Builtin(1)
	cancelled := 0
	for i := 26; i < 26+26*26; i++ { // two-letter words
		w := letterWord(i)
		acc := make([]float64, 1)
		word := []uint64{hashFeature(nsWord, Stem(w))}
		tri := []uint64{hashBytes(nsTrigram, []byte("#"+w)), hashBytes(nsTrigram, []byte(w+"#"))}
		slices.Sort(tri)
		if accumulate(acc, word, tri, true) == 0 {
			cancelled++
		}
		if v := mustEmbed(t, e, w); len(v) != 1 || math.Abs(float64(v[0]))-1 > 1e-6 {
			t.Fatalf("%q: vector %v", w, v)
		}
	}
	if cancelled == 0 {
		t.Fatal("no two-letter word cancelled in one bucket: the test no longer covers the fallback")
	}
	t.Logf("%d of %d two-letter words cancel with one bucket", cancelled, 26*26)
}
