package embed

import (
	"strings"
	"sync/atomic"

	"github.com/kljensen/snowball/english"
)

// The snowball stemmer allocates a rune slice per suffix test and costs about
// a microsecond per word, which dominates Terms. Stems are memoised in a
// fixed-size, direct-mapped table: a slot holds the last word hashed to it,
// a colliding word replaces it. It is a cache of a pure function (results do
// not depend on it), bounded (stemSlots entries), lock-free and safe for
// concurrent use; the zero value is ready, so it needs no init.
const stemSlots = 1 << 13

type stemEntry struct{ word, stem string }

var stemMemo [stemSlots]atomic.Pointer[stemEntry]

// porter2 returns english.Stem(word, true), memoised.
func porter2(word string) string {
	h := uint32(2166136261) // FNV-1a 32
	for i := 0; i < len(word); i++ {
		h = (h ^ uint32(word[i])) * 16777619
	}
	slot := &stemMemo[h%stemSlots]
	if e := slot.Load(); e != nil && e.word == word {
		return e.stem
	}
	w := strings.Clone(word) // word may point into a long text: do not retain it
	s := english.Stem(w, true)
	slot.Store(&stemEntry{word: w, stem: s})
	return s
}
