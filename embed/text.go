package embed

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// Words splits text into lowercase words. A word is a run of Unicode letters
// and digits (combining marks stay with the word they follow). An apostrophe
// between two word characters stays in the word as an ASCII "'" (the
// typographic ’ and ʼ are mapped to it), so "I'm" gives "i'm" and "Sarah’s"
// gives "sarah's"; every other character, hyphens included, separates words
// ("e-mail" gives "e" and "mail"). Text is case-folded and NFC-normalised, so
// "Café" written composed or decomposed gives the same word.
//
// ASCII text takes a fast path that allocates only the result (and one
// lowercase copy when the text has capitals). Words is safe for concurrent use.
func Words(text string) []string {
	return appendWords(nil, text)
}

// appendWords appends the words of text to dst (see Words).
func appendWords(dst []string, text string) []string {
	if dst == nil {
		dst = make([]string, 0, len(text)/5+1) // English averages ~6 bytes a word with its space
	}
	if isASCII(text) {
		return appendASCIIWords(dst, strings.ToLower(text)) // no copy without capitals
	}
	return appendUnicodeWords(dst, foldNFC(text))
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func isWordByte(c byte) bool {
	return ('a' <= c && c <= 'z') || ('0' <= c && c <= '9')
}

// appendASCIIWords splits lowercase ASCII text; the words share s's memory.
func appendASCIIWords(dst []string, s string) []string {
	start := -1
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case isWordByte(c):
			if start < 0 {
				start = i
			}
		case c == '\'' && start >= 0 && i+1 < len(s) && isWordByte(s[i+1]):
			// apostrophe inside a word: keep it
		default:
			if start >= 0 {
				dst = append(dst, s[start:i])
				start = -1
			}
		}
	}
	if start >= 0 {
		dst = append(dst, s[start:])
	}
	return dst
}

// foldNFC case-folds s, normalises it to NFC and maps typographic apostrophes
// to "'". Casers are stateful, so one is made per call.
//
// The result is a fixed point: foldNFC(foldNFC(s)) == foldNFC(s), which is
// what makes Words idempotent. cases.Fold alone is not: for Cherokee it swaps
// the cases (U+13A0 Ꭰ gives U+AB70 ꭰ and ꭰ gives Ꭰ) instead of folding both
// to the capital as Unicode's CaseFolding.txt does, so foldCherokee finishes
// the job before NFC. TestFoldNFCFixedPoint checks every code point.
func foldNFC(s string) string {
	s = norm.NFC.String(foldCherokee(cases.Fold().String(s)))
	if strings.ContainsRune(s, '’') || strings.ContainsRune(s, 'ʼ') {
		s = strings.Map(func(r rune) rune {
			if r == '’' || r == 'ʼ' {
				return '\''
			}
			return r
		}, s)
	}
	return s
}

// cherokeeCapital maps a small Cherokee letter (U+AB70–U+ABBF, U+13F8–U+13FD)
// to its capital (U+13A0–U+13EF, U+13F0–U+13F5), the case-folded form in
// Unicode; other runes are returned unchanged. Cherokee's capitals are the
// original letters, so Unicode folds to them, not to the small forms.
func cherokeeCapital(r rune) rune {
	switch {
	case 0xAB70 <= r && r <= 0xABBF:
		return r - 0xAB70 + 0x13A0
	case 0x13F8 <= r && r <= 0x13FD:
		return r - 0x13F8 + 0x13F0
	}
	return r
}

// foldCherokee folds the small Cherokee letters of s to capitals (see
// cherokeeCapital); s is returned as is, without allocating, when it has none.
// Both forms are 3 bytes in UTF-8, so the letters are rewritten in place in
// a copy and every other byte, invalid UTF-8 included, is kept.
func foldCherokee(s string) string {
	var b []byte
	for i, r := range s {
		if c := cherokeeCapital(r); c != r {
			if b == nil {
				b = []byte(s)
			}
			utf8.EncodeRune(b[i:], c)
		}
	}
	if b == nil {
		return s
	}
	return string(b)
}

func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return isWordByte(byte(r))
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// appendUnicodeWords splits folded, NFC text; the words share s's memory.
func appendUnicodeWords(dst []string, s string) []string {
	start := -1
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case isWordRune(r):
			if start < 0 {
				start = i
			}
		case start >= 0 && unicode.IsMark(r):
			// combining mark that did not compose: part of the word
		case r == '\'' && start >= 0 && i+1 < len(s):
			if next, _ := utf8.DecodeRuneInString(s[i+1:]); !isWordRune(next) {
				dst = append(dst, s[start:i])
				start = -1
			}
		default:
			if start >= 0 {
				dst = append(dst, s[start:i])
				start = -1
			}
		}
		i += size
	}
	if start >= 0 {
		dst = append(dst, s[start:])
	}
	return dst
}

// Stem returns the English Porter2 (snowball) stem of a lowercase word:
// "running" gives "run", "recommended" and "recommendation" both give
// "recommend", a possessive "sarah's" gives "sarah". Words of one or two
// letters, words with digits ("2023", "4th") and words with non-ASCII
// letters are returned unchanged. Stem is safe for concurrent use.
func Stem(word string) string {
	if len(word) <= 2 {
		return word
	}
	for i := 0; i < len(word); i++ {
		c := word[i]
		if !('a' <= c && c <= 'z') && c != '\'' {
			return word
		}
	}
	return porter2(word)
}

// Terms returns the lexical terms of text: its Words without stopwords
// (IsStopword), each stemmed (Stem). Digits are kept ("2023", "4th"). This is
// what the built-in embedder sees; the BM25 index sees LexicalTerms. Terms
// is safe for concurrent use.
func Terms(text string) []string {
	return terms(text, nil)
}

// terms returns the Words of text without stopwords, each stemmed after
// base (when not nil) has replaced it with the word to stem.
func terms(text string, base func(string) string) []string {
	words := appendWords(nil, text)
	out := words[:0] // filter in place: every term is written at or before its word
	for _, w := range words {
		if IsStopword(w) {
			continue
		}
		if base != nil {
			w = base(w)
		}
		out = append(out, Stem(w))
	}
	return out
}
