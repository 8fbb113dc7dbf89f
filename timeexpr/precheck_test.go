package timeexpr

import (
	"go/ast"
	goparser "go/parser"
	gotoken "go/token"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"
	"time"
)

// findAll is FindAllWith with the pre-check on or off.
func findAll(text string, now time.Time, opt Options, precheck bool) []Match {
	p := newParser(text, now, opt, false)
	p.noPrecheck = !precheck
	var out []Match
	p.scan(func(m Match, _ result) { out = append(out, m) })
	return out
}

// testStrings returns every string literal in this package's tests: all table inputs, positive and
// negative, now and as tests are added.
func testStrings(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("*_test.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("glob tests: %v", err)
	}
	seen := map[string]bool{}
	var out []string
	fset := gotoken.NewFileSet()
	for _, name := range files {
		f, err := goparser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatalf("parse %s: %v", name, err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == gotoken.STRING {
				if s, err := strconv.Unquote(lit.Value); err == nil && !seen[s] {
					seen[s] = true
					out = append(out, s)
				}
			}
			return true
		})
	}
	return out
}

// The pre-check never changes a result: every string in the tests, alone and inside a longer
// sentence, gives the same matches with and without it, at both clocks, in both date orders.
func TestPrecheck(t *testing.T) {
	ins := testStrings(t)
	if len(ins) < 500 {
		t.Fatalf("only %d test strings found", len(ins))
	}
	checked := 0
	for name, now := range clocks(t) {
		for _, dayFirst := range []bool{false, true} {
			opt := Options{Location: now.Location(), DayFirst: dayFirst}
			for _, in := range ins {
				for _, text := range []string{in, "Well, " + in + " and then nothing else happened."} {
					want := findAll(text, now, opt, false)
					if got := findAll(text, now, opt, true); !reflect.DeepEqual(got, want) {
						t.Errorf("%s: FindAll(%q) with the pre-check = %v, without = %v", name, text, got, want)
					}
					if len(want) > 0 {
						checked++
					}
				}
			}
		}
	}
	if checked < 1000 {
		t.Errorf("only %d texts with a match were compared", checked)
	}
}

// precheckSole are expressions whose only trigger is one word, so that TestPrecheck fails when that
// word is missing from triggerWords.
var precheckSole = []string{
	"in two months", "in five years", "in an hour", "in two hours", "in ten minutes", "in ten mins",
	"in ten min", "the past minute", "the past thirty seconds", "the past second", "in two fortnights", "the other night",
	"the other week", "of late", "some time back", "when we first met", "our earliest conversation",
	"our latest chat", "our most recent chat", "in the autumn", "at Xmas", "on NYE", "at Easter",
	"on Thanksgiving", "at Halloween", "in the spring", "over the summer", "in the fall", "in winter",
	"the day after tomorrow", "this morning", "this afternoon", "this evening", "tonight", "lately",
	"recently", "moments ago", "earlier", "just now", "on the fifth", "in the next two weeks",
	"in the noughties", "the twenties", "the thirties", "the forties", "the fifties", "the sixties",
	"the seventies", "the eighties", "the nineties", "notes from W43", "KW46", "on Juneteenth",
	"on Cinco de Mayo", "at noon", "at midday", "at midnight", "nowadays",
}

func TestPrecheckSole(t *testing.T) {
	now := clocks(t)["UTC"]
	for _, in := range precheckSole {
		if ms := FindAll(in, now, nil); len(ms) != 1 || ms[0].Expr == "" {
			t.Errorf("FindAll(%q) = %v, want one match", in, ms)
		}
	}
}
