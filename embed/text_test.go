package embed

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/kljensen/snowball/english"
)

func TestWords(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
	}{
		{"empty", "", nil},
		{"punctuation only", " -- ?! ... ", nil},
		{"lowercases ascii", "The Quick BROWN fox", []string{"the", "quick", "brown", "fox"}},
		{"already lowercase", "a cat sat", []string{"a", "cat", "sat"}},
		{"apostrophe inside word", "I'm sure it's Sarah's", []string{"i'm", "sure", "it's", "sarah's"}},
		{"typographic apostrophe", "I’m at Sarah’s", []string{"i'm", "at", "sarah's"}},
		{"modifier apostrophe", "Iʼm", []string{"i'm"}},
		{"quotes are not apostrophes", "'quoted' words' end", []string{"quoted", "words", "end"}},
		{"hyphen splits", "e-mail well-known", []string{"e", "mail", "well", "known"}},
		{"digits kept", "On the 4th of July 2023, at 10:30", []string{"on", "the", "4th", "of", "july", "2023", "at", "10", "30"}},
		{"underscore and slash split", "snake_case a/b", []string{"snake", "case", "a", "b"}},
		{"unicode letters", "Café ÉCOLE naïve", []string{"café", "école", "naïve"}},
		{"case folding", "Straße", []string{"strasse"}},
		{"non-latin", "Привет, мир! 東京", []string{"привет", "мир", "東京"}},
		{"unicode punctuation splits", "one—two…three", []string{"one", "two", "three"}},
		{"unicode apostrophe at end", "dogs’ bowls", []string{"dogs", "bowls"}},
		{"combining mark stays", "cafe\u0301s", []string{"cafés"}},
		// Unicode folds Cherokee to its capitals (the original letters).
		{"cherokee capitals", "ᏣᎳᎩ", []string{"ᏣᎳᎩ"}},
		{"cherokee small folds to capital", "ꮳꮃꭹ ᏸᏹᏺᏻᏼᏽ", []string{"ᏣᎳᎩ", "ᏰᏱᏲᏳᏴᏵ"}},
		{"cherokee mixed case", "ᏣᎳᎩ ꮳꮃꭹ ᏣꮃᎩ", []string{"ᏣᎳᎩ", "ᏣᎳᎩ", "ᏣᎳᎩ"}},
		{"cherokee with combining marks", "ꮳ\u0301ꮃ\u0300\u0301 Ꭰ\u0323", []string{"Ꮳ\u0301Ꮃ\u0300\u0301", "Ꭰ\u0323"}},
		{"cherokee apostrophe", "ꭰ’ꮃ", []string{"Ꭰ'Ꮃ"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Words(tt.in); !slices.Equal(got, tt.want) {
				t.Errorf("Words(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// TestWordsCaseVariants checks that upper, lower and mixed case give the
// same words, for scripts whose folding is not simply "to lowercase".
func TestWordsCaseVariants(t *testing.T) {
	for _, in := range []string{
		"ᏣᎳᎩ ꮳꮃꭹ", "ᏣᎳᎩ\u0301 ꮳꮃ\u0300ꭹ", "ᏰᏱᏲᏳᏴᏵ ᏸᏹᏺᏻᏼᏽ",
		"Straße STRASSE", "Café ÉCOLE cafe\u0301", "ΣΊΣΥΦΟΣ σίσυφος", "ǅemal ǄEMAL",
	} {
		want := Words(in)
		for _, v := range []string{strings.ToLower(in), strings.ToUpper(in), strings.ToTitle(in)} {
			if got := Words(v); !slices.Equal(got, want) {
				t.Errorf("Words(%q) = %q, want %q as for %q", v, got, want, in)
			}
		}
		if again := Words(strings.Join(want, " ")); !slices.Equal(again, want) {
			t.Errorf("Words not idempotent: %q -> %q -> %q", in, want, again)
		}
	}
}

// TestFoldNFCFixedPoint checks foldNFC(foldNFC(s)) == foldNFC(s) for every
// code point alone, decomposed, and followed by combining marks (the marks
// may compose with it), which is what makes Words idempotent. cases.Fold
// alone fails this for Cherokee.
func TestFoldNFCFixedPoint(t *testing.T) {
	bad := 0
	check := func(s string) {
		f := foldNFC(s)
		if g := foldNFC(f); g != f && bad < 20 {
			bad++
			t.Errorf("foldNFC(%+q) = %+q, foldNFC of that = %+q", s, f, g)
		}
	}
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if !utf8.ValidRune(r) || (!unicode.IsGraphic(r) && !unicode.IsMark(r)) {
			continue
		}
		s := string(r)
		check(s)
		if d := norm.NFD.String(s); d != s {
			check(d)
		}
		if unicode.In(r, unicode.L, unicode.N) {
			check(s + "\u0301")
			check(s + "\u0345") // ypogegrammeni folds to ι
		}
	}
}

func TestWordsNFCAndNFDEqual(t *testing.T) {
	nfc := "Caf\u00e9 cr\u00e8me"   // é, è precomposed
	nfd := "Cafe\u0301 cre\u0300me" // e + combining accents
	a, b := Words(nfc), Words(nfd)
	if !slices.Equal(a, b) {
		t.Fatalf("Words(NFC) = %q, Words(NFD) = %q, want equal", a, b)
	}
	if want := []string{"caf\u00e9", "cr\u00e8me"}; !slices.Equal(a, want) {
		t.Fatalf("Words(%q) = %q, want %q", nfc, a, want)
	}
	if !slices.Equal(Terms(nfc), Terms(nfd)) {
		t.Fatalf("Terms differ: %q vs %q", Terms(nfc), Terms(nfd))
	}
}

func TestStem(t *testing.T) {
	tests := []struct{ in, want string }{
		{"running", "run"},
		{"runs", "run"},
		{"recommended", "recommend"},
		{"recommendation", "recommend"},
		{"recommendations", "recommend"},
		{"adopted", "adopt"},
		{"puppies", "puppi"},
		{"puppy", "puppi"},
		{"dogs", "dog"},
		{"sarah's", "sarah"},
		{"quarterly", "quarter"},
		{"is", "is"},             // short words unchanged
		{"2023", "2023"},         // digits unchanged
		{"4th", "4th"},           // digits unchanged
		{"1990s", "1990s"},       // digits unchanged
		{"cafés", "cafés"},       // non-ASCII unchanged
		{"страницы", "страницы"}, // non-ASCII unchanged
		{"", ""},
	}
	for _, tt := range tests {
		if got := Stem(tt.in); got != tt.want {
			t.Errorf("Stem(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestIsStopword(t *testing.T) {
	for _, w := range []string{"the", "a", "i", "you", "what", "did", "i'm", "im", "don't", "dont", "of", "and", "not", "when"} {
		if !IsStopword(w) {
			t.Errorf("IsStopword(%q) = false, want true", w)
		}
	}
	for _, w := range []string{"dog", "last", "week", "may", "home", "first", "2023", "The"} {
		if IsStopword(w) {
			t.Errorf("IsStopword(%q) = true, want false", w)
		}
	}
}

// TestLexicalTerms: irregular forms meet their base word on the lexical
// side, while Terms (the built-in embedder's features) stays as it was.
func TestLexicalTerms(t *testing.T) {
	tests := []struct {
		in         string
		lex, terms []string
	}{
		{"When did Ana go to Porto?", []string{"ana", "go", "porto"}, []string{"ana", "go", "porto"}},
		{"I went to Porto and bought a bike", []string{"go", "porto", "buy", "bike"}, []string{"went", "porto", "bought", "bike"}},
		{"The children swam; we'd taken the ferry", []string{"child", "swim", "take", "ferri"}, []string{"children", "swam", "taken", "ferri"}},
		{"Running shoes she recommended", []string{"run", "shoe", "recommend"}, []string{"run", "shoe", "recommend"}},
		{"mentorship, internships and my childhood", []string{"mentor", "intern", "child"}, []string{"mentorship", "internship", "childhood"}},
		{"worship on a ship", []string{"worship", "ship"}, []string{"worship", "ship"}},
		{"My fam loved the tourney pics", []string{"famili", "love", "tournament", "pictur"}, []string{"fam", "love", "tourney", "pic"}},
		{"the colour of her favourite theatre", []string{"color", "favorit", "theater"}, []string{"colour", "favourit", "theatr"}},
		{"", nil, nil},
	}
	for _, tt := range tests {
		if got := LexicalTerms(tt.in); !slices.Equal(got, tt.lex) && len(got)+len(tt.lex) > 0 {
			t.Errorf("LexicalTerms(%q) = %q, want %q", tt.in, got, tt.lex)
		}
		if got := Terms(tt.in); !slices.Equal(got, tt.terms) && len(got)+len(tt.terms) > 0 {
			t.Errorf("Terms(%q) = %q, want %q", tt.in, got, tt.terms)
		}
	}
	for name, table := range map[string]map[string]string{"irregular": irregular, "variants": variants} {
		for form, base := range table {
			if IsStopword(form) || IsStopword(base) {
				t.Errorf("%s %q -> %q: a stopword never reaches the table", name, form, base)
			}
			if _, chained := irregular[base]; chained {
				t.Errorf("%s %q -> %q, which irregular maps on again", name, form, base)
			}
			if _, chained := variants[base]; chained {
				t.Errorf("%s %q -> %q, which variants maps on again", name, form, base)
			}
			if _, both := irregular[form]; both && name == "variants" {
				t.Errorf("%q is in both tables", form)
			}
			if form == base {
				t.Errorf("%s maps %q to itself", name, form)
			}
		}
	}
}

func TestTerms(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
	}{
		{"empty", "", nil},
		{"only stopwords", "What did you do, and when?", nil},
		{"question", "What did I recommend to my friend about running shoes last week?",
			[]string{"recommend", "friend", "run", "shoe", "last", "week"}},
		{"digits kept", "My 4th trip in 2023", []string{"4th", "trip", "2023"}},
		{"possessive", "Sarah’s dogs", []string{"sarah", "dog"}},
		{"contractions dropped", "I'm sure they've gone, didn't they", []string{"sure", "gone"}},
		{"unicode kept unstemmed", "Café crème in Zürich", []string{"café", "crème", "zürich"}},
		{"may is a month", "in May", []string{"may"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Terms(tt.in)
			if len(got) == 0 && len(tt.want) == 0 {
				return
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("Terms(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// sentence200 is a 200-character sentence for the benchmarks.
const sentence200 = "Last Tuesday I finally adopted a golden retriever puppy named Biscuit from the shelter on 4th Street; " +
	"my sister recommended them after she'd volunteered there in 2023 and loved the staff's care."

func TestSentence200Length(t *testing.T) {
	if n := len(sentence200); n < 190 || n > 210 {
		t.Fatalf("len(sentence200) = %d, want about 200", n)
	}
}

func BenchmarkTerms(b *testing.B) {
	b.Run("ascii200", func(b *testing.B) {
		b.SetBytes(int64(len(sentence200)))
		b.ReportAllocs()
		for b.Loop() {
			Terms(sentence200)
		}
	})
	b.Run("unicode", func(b *testing.B) {
		s := "Letzten Dienstag habe ich im Café am Märktplatz einen Welpen adoptiert — naïve Freude über Zürich’s Straßen, 2023."
		b.SetBytes(int64(len(s)))
		b.ReportAllocs()
		for b.Loop() {
			Terms(s)
		}
	})
}

func BenchmarkWords(b *testing.B) {
	b.SetBytes(int64(len(sentence200)))
	b.ReportAllocs()
	for b.Loop() {
		Words(sentence200)
	}
}

func TestTermsConcurrent(t *testing.T) {
	// Terms memoises stems in a shared table; concurrent use must give the
	// same results (run with -race).
	texts := []string{sentence200, "running runners ran quickly", "recommendations recommended", "puppies and dogs"}
	want := make([][]string, len(texts))
	for i, s := range texts {
		want[i] = Terms(s)
	}
	done := make(chan error)
	for g := 0; g < 8; g++ {
		go func() {
			var err error
			for n := 0; n < 200 && err == nil; n++ {
				i := (g + n) % len(texts)
				if got := Terms(texts[i]); !slices.Equal(got, want[i]) {
					err = fmt.Errorf("Terms(%q) = %q, want %q", texts[i], got, want[i])
				}
			}
			done <- err
		}()
	}
	for g := 0; g < 8; g++ {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}

func TestStemMemoCollision(t *testing.T) {
	// Many distinct words through the direct-mapped table: every result must
	// equal the uncached stemmer's.
	for i := 0; i < 3*stemSlots; i++ {
		w := letterWord(i) + "ing"
		if got, want := Stem(w), english.Stem(w, true); got != want {
			t.Fatalf("Stem(%q) = %q, want %q", w, got, want)
		}
	}
}

// letterWord spells i in base 26 with the letters a-z.
func letterWord(i int) string {
	b := []byte{'a' + byte(i%26)}
	for i /= 26; i > 0; i /= 26 {
		b = append(b, 'a'+byte(i%26))
	}
	return string(b)
}

func BenchmarkStem(b *testing.B) {
	b.Run("memo-hit", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			Stem("recommendations")
		}
	})
	b.Run("snowball-uncached", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			english.Stem("recommendations", true)
		}
	})
}
