package embed

import (
	"context"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzWords checks the invariants of the analysis on arbitrary input: words
// are non-empty valid UTF-8 without spaces or hyphens, folding is a fixed
// point, re-analysing the joined words gives them back, and the built-in
// embedder either returns a unit vector or ErrEmptyText exactly when there
// are no words.
func FuzzWords(f *testing.F) {
	for _, s := range []string{"", "I'm at Sarah’s café", "e-mail 4th 2023", "Straße ǅ ÉCOLE", "cafe\u0301", "\xff\xfe bad utf8", "'''", "a'b'c", sentence200, "ᏣᎳᎩ ꮳꮃꭹ", "ꮳ\u0301ꮃ\u0300 ᏸᏽ’Ꭰ"} {
		f.Add(s)
	}
	embed := Builtin(64).Func
	f.Fuzz(func(t *testing.T, s string) {
		if f := foldNFC(s); foldNFC(f) != f {
			t.Fatalf("foldNFC not idempotent: %q -> %q -> %q", s, f, foldNFC(f))
		}
		words := Words(s)
		for _, w := range words {
			if w == "" || !utf8.ValidString(w) || strings.ContainsAny(w, " \t\n-") {
				t.Fatalf("Words(%q) has bad word %q", s, w)
			}
		}
		if again := Words(strings.Join(words, " ")); !slices.Equal(again, words) {
			t.Fatalf("Words not stable: %q -> %q -> %q", s, words, again)
		}
		for _, term := range Terms(s) {
			if term == "" {
				t.Fatalf("Terms(%q) has an empty term", s)
			}
		}
		v, err := embed(context.Background(), s)
		if (err != nil) != (len(words) == 0) {
			t.Fatalf("embed(%q) err = %v with %d words", s, err, len(words))
		}
		if err == nil {
			if n := norm2(v); n < 0.9999 || n > 1.0001 {
				t.Fatalf("embed(%q) norm %v", s, n)
			}
		}
	})
}
