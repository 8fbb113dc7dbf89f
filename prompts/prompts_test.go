package prompts

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

const testOntology = `food
  cuisine: italian, japanese, thai
  dishes: pizza, sushi
pets
  companions: cat, dog
  petcare: adoption, vet
places
  cities: berlin, lisbon, tokyo`

const testTranscript = `[2025-03-02 18:04] user: Hi! We adopted a puppy called Bruno last week.
[2025-03-02 18:05] assistant: Congratulations! How is he settling in?
[2025-03-02 18:06] user: Great. I also moved from Berlin to Lisbon, the office is closer now.`

var testMemories = []Item{
	{Ref: "m1", Time: "2025-01-07", Text: "User lives in Berlin"},
	{Ref: "m2", Time: "2025-03-02", Text: "User moved to Lisbon"},
	{Ref: "m3", Time: "", Text: "User's dog is called\nBruno"},
}

// goldenData is the fixed data of each golden file.
var goldenData = map[string]struct {
	name Name
	data any
}{
	"memory-controller": {MemoryController, ControllerData{
		Message:      "What was the name of the restaurant you recommended last time?",
		Conversation: "user: I'm hungry.\nassistant: What are you in the mood for?",
	}},
	"memory-controller-no-conversation": {MemoryController, ControllerData{Message: "What is the capital of Peru?"}},
	"select-tags":                       {SelectTags, SelectTagsData{Ontology: testOntology, Items: []string{"We had sushi in Tokyo"}}},
	"select-tags-batch": {SelectTags, &SelectTagsData{Ontology: testOntology, Items: []string{
		"I adopted a puppy last week", "We had sushi\nin Tokyo", "The weather is nice"}}},
	"time-filter":      {TimeFilter, TimeFilterData{Message: "What did I eat last Sunday?", Now: "2025-06-10T09:30 (Tuesday)"}},
	"relevance-filter": {RelevanceFilter, RelevanceData{Question: "Where do I live now?", Memories: testMemories}},
	"key-events":       {KeyEvents, KeyEventsData{Transcript: testTranscript, Now: "2025-03-02 18:10", Ontology: testOntology}},
	"key-events-plain": {KeyEvents, KeyEventsData{Transcript: testTranscript}},
	"review-memories":  {ReviewMemories, ReviewData{Tag: "moving", Memories: testMemories}},
	"ontology-expansion": {OntologyExpansion, ExpansionData{Ontology: testOntology,
		Text: "I started learning to make Ethiopian injera at home."}},
	"post-thinking": {PostThinking, PostThinkingData{Transcript: testTranscript, Now: "2025-03-02 18:10",
		Ontology: testOntology, Memories: testMemories}},
	"post-thinking-plain": {PostThinking, PostThinkingData{Transcript: testTranscript}},
}

func TestGolden(t *testing.T) {
	covered := map[Name]bool{}
	for file, g := range goldenData {
		covered[g.name] = true
		t.Run(file, func(t *testing.T) {
			got, err := Render(g.name, g.data)
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", file+".golden")
			if *update {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("missing golden file (run go test ./prompts -update): %v", err)
			}
			if got != string(want) {
				t.Errorf("%s differs from the golden file (run with -update if intended):\n%s", file, got)
			}
		})
	}
	for _, n := range Names() {
		if !covered[n] {
			t.Errorf("no golden test for %s", n)
		}
	}
}

func TestTemplatesAndDescriptions(t *testing.T) {
	names := Names()
	if len(names) != len(specs) {
		t.Errorf("Names has %d entries, specs %d", len(names), len(specs))
	}
	files, _ := templateFiles.ReadDir(".")
	if len(files) != len(names) {
		t.Errorf("%d template files for %d prompts", len(files), len(names))
	}
	for _, n := range names {
		if _, err := templateFiles.Open(string(n) + ".tmpl"); err != nil {
			t.Errorf("%s: %v", n, err)
		}
		desc, args := Describe(n)
		if desc == "" || len(args) == 0 {
			t.Errorf("%s: empty description or arguments", n)
		}
		// Every argument names a field of the data struct, and a required one comes first.
		typ := reflect.TypeOf(specs[n].data)
		for i, a := range args {
			if _, ok := typ.FieldByNameFunc(func(f string) bool { return strings.EqualFold(f, a.Name) }); !ok {
				t.Errorf("%s: argument %q is not a field of %v", n, a.Name, typ)
			}
			if a.Description == "" || (i == 0 && !a.Required) {
				t.Errorf("%s: argument %+v", n, a)
			}
		}
	}
	if d, a := Describe("nope"); d != "" || a != nil {
		t.Error("Describe of an unknown name")
	}
}

func TestRenderErrors(t *testing.T) {
	if _, err := Render("nope", nil); err == nil || !strings.Contains(err.Error(), "unknown prompt") {
		t.Errorf("unknown name: %v", err)
	}
	if _, err := Render(SelectTags, ControllerData{Message: "x"}); err == nil {
		t.Error("wrong data type accepted")
	}
	if _, err := Render(SelectTags, (*SelectTagsData)(nil)); err == nil {
		t.Error("nil pointer accepted")
	}
	if _, err := Render(MemoryController, nil); err == nil {
		t.Error("nil data accepted")
	}
	// A map must hold every key the template uses (missingkey=error).
	if _, err := Render(MemoryController, map[string]any{"Message": "hi"}); err == nil {
		t.Error("map without Conversation accepted")
	}
	got, err := Render(MemoryController, map[string]any{"Message": "hi", "Conversation": ""})
	if err != nil || !strings.Contains(got, "<message>\nhi\n</message>") {
		t.Errorf("map data: %v\n%s", err, got)
	}
	// Single and batch wording.
	one, _ := Render(SelectTags, SelectTagsData{Ontology: "x", Items: []string{"a"}})
	many, _ := Render(SelectTags, SelectTagsData{Ontology: "x", Items: []string{"a", "b"}})
	if !strings.Contains(one, "for the text") || !strings.Contains(many, "for each numbered text") {
		t.Error("select-tags wording does not follow the number of items")
	}
}

func isMalformed(err error) bool {
	var pe *ParseError
	return errors.As(err, &pe) && errors.Is(err, ErrMalformed)
}

func TestParseController(t *testing.T) {
	cases := []struct {
		reply  string
		need   bool
		source string
		bad    bool
	}{
		{"Q1: B", false, "", false},
		{"Q1: A\nQ2: A", true, SourceBoth, false},
		{"Q1: A\nQ2: B\nQ3: A", true, SourceLongTerm, false},
		{"Q1: A\nQ2: B\nQ3: B", true, SourceConversation, false},
		{"q1 - a\nq2 - b\nq3 - b", true, SourceConversation, false},
		{"1. A\n2. B\n3. A", true, SourceLongTerm, false},
		{"**Q1:** A\n**Q2:** B\n**Q3:** (A)", true, SourceLongTerm, false},
		{"Sure! Here are my answers:\nQ1: A\nQ2: A\nLet me know if you need more.", true, SourceBoth, false},
		{"B", false, "", false},
		{"A.", true, "", true}, // Q2 missing
		{"Q1: B\nQ2: A", false, "", false},
		{"Q1: A\nQ2: B", true, "", true},
		{"Q1: A\nQ1: B", false, "", true},
		{"", false, "", true},
		{"Ja, frühere Informationen sind nötig.", false, "", true},
		{"I think the user needs memory.", false, "", true},
		{"Q4: A", false, "", true},
	}
	for _, c := range cases {
		need, source, err := ParseController(c.reply)
		if need != c.need || source != c.source || (err != nil) != c.bad {
			t.Errorf("%q: got %v %q %v, want %v %q bad=%v", c.reply, need, source, err, c.need, c.source, c.bad)
		}
		if err != nil && !isMalformed(err) {
			t.Errorf("%q: error %v is not a *ParseError", c.reply, err)
		}
	}
}

func TestParseTags(t *testing.T) {
	cases := []struct {
		reply string
		n     int
		want  [][]string
		bad   []string // substrings of the error; nil: no error
	}{
		{"1: dog, adoption\n2: sushi, tokyo, japanese\n3: NONE", 3,
			[][]string{{"dog", "adoption"}, {"sushi", "tokyo", "japanese"}, {}}, nil},
		{"Here are the tags:\n\n1: Dog, #adoption\n2. sushi,tokyo\nHope this helps!", 2,
			[][]string{{"dog", "adoption"}, {"sushi", "tokyo"}}, nil},
		{"```\n1) dog, dog, pets\n```", 1, [][]string{{"dog", "pets"}}, nil},
		{"dog, adoption", 1, [][]string{{"dog", "adoption"}}, nil},
		{"Sure, here they are:\ndog,adoption,pets", 1, [][]string{{"dog", "adoption", "pets"}}, nil},
		{"1: a, b, c, d, e", 1, [][]string{{"a", "b", "c"}}, []string{"more than 3"}},
		{"1: ice cream, dessert", 1, [][]string{{"dessert"}}, []string{`"ice cream" is not one lowercase word`}},
		{"1: dog\n5: cat", 2, [][]string{{"dog"}, nil}, []string{"item 5 is out of range", "no tags for item 2"}},
		{"1: dog\n1: cat", 1, [][]string{{"dog"}}, []string{"answered twice"}},
		{"", 2, [][]string{nil, nil}, []string{"no tags for item 1, 2"}},
		{"Perro, mascota adoptada", 1, [][]string{nil}, []string{"no tags for item 1"}},
		{"1: perro, mascota", 1, [][]string{{"perro", "mascota"}}, nil}, // words; the caller checks the ontology
		{"0: dog", 1, [][]string{nil}, []string{"item 0 is out of range"}},
		{"99999999999999999999: dog", 1, [][]string{nil}, []string{"out of range"}},
		{"x", 0, nil, []string{"asked for 0"}},
	}
	for _, c := range cases {
		got, err := ParseTags(c.reply, c.n)
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: got %q, want %q", c.reply, got, c.want)
		}
		checkErr(t, c.reply, err, c.bad)
	}
}

func checkErr(t *testing.T, reply string, err error, want []string) {
	t.Helper()
	if want == nil {
		if err != nil {
			t.Errorf("%q: unexpected error %v", reply, err)
		}
		return
	}
	if !isMalformed(err) {
		t.Errorf("%q: error %v, want a *ParseError", reply, err)
		return
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("%q: error %q lacks %q", reply, err, w)
		}
	}
}

func TestParseRelevant(t *testing.T) {
	cases := []struct {
		reply string
		n     int
		want  []int
		bad   []string
	}{
		{"3, 1", 3, []int{3, 1}, nil},
		{"NONE", 3, nil, nil},
		{"none.", 3, nil, nil},
		{"[2, 3]", 3, []int{2, 3}, nil},
		{"Relevant: 1 and 2", 3, []int{1, 2}, nil},
		{"The relevant memories are:\n#2\n#3\n", 3, []int{2, 3}, nil},
		{"1, 1, 2", 2, []int{1, 2}, nil},
		{"2, 7, 0", 3, []int{2}, []string{"memory 7 is out of range 1-3", "memory 0"}},
		{"", 3, nil, []string{"no numbers and no NONE"}},
		{"Memory 2 is relevant because it mentions Lisbon.", 3, nil, []string{"no numbers"}},
		{"1. [2025-01-07] User lives in Berlin", 3, nil, []string{"no numbers"}},
		{"Ninguno", 3, nil, []string{"no numbers"}},
		{"NONE\n2", 3, []int{2}, []string{"NONE and lists numbers"}},
	}
	for _, c := range cases {
		got, err := ParseRelevant(c.reply, c.n)
		if !slices.Equal(got, c.want) {
			t.Errorf("%q: got %v, want %v", c.reply, got, c.want)
		}
		checkErr(t, c.reply, err, c.bad)
	}
}

func TestParseKeyEvents(t *testing.T) {
	reply := `Here is what I found:
- User adopted a puppy called Bruno;2025-03-02 18:04;dog, adoption
FACT;user;has a dog named;Bruno;2025-03-02 18:04
User moved from Berlin to Lisbon;2025-03-02 18:06;moving,lisbon
FACT;user;lives in;Lisbon;2025-03-02 18:06;lisbon
User likes short walks;2025-03-02 18:06
That's all!`
	got, err := ParseKeyEvents(reply)
	if err != nil {
		t.Fatal(err)
	}
	want := []KeyEvent{
		{Text: "User adopted a puppy called Bruno", Time: "2025-03-02 18:04", Tags: []string{"dog", "adoption"}},
		{Text: "user has a dog named Bruno", Time: "2025-03-02 18:04", Fact: true, Subject: "user", Predicate: "has a dog named", Object: "Bruno"},
		{Text: "User moved from Berlin to Lisbon", Time: "2025-03-02 18:06", Tags: []string{"moving", "lisbon"}},
		{Text: "user lives in Lisbon", Time: "2025-03-02 18:06", Tags: []string{"lisbon"}, Fact: true, Subject: "user", Predicate: "lives in", Object: "Lisbon"},
		{Text: "User likes short walks", Time: "2025-03-02 18:06"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}

	cases := []struct {
		reply string
		n     int // events kept
		bad   []string
	}{
		{"NONE", 0, nil},
		{"", 0, []string{"no key events and no NONE"}},
		{"Nothing worth remembering here.", 0, []string{"no key events"}},
		{"El usuario adoptó un perro;2025-03-02;perro", 1, nil},
		{"User said a;b;c;2025-03-02;dog", 0, []string{"too many fields"}},
		{"FACT;user;lives in;2025-03-02", 0, []string{"a fact needs"}},
		{"FACT;user;;Lisbon;2025-03-02", 0, []string{"empty subject"}},
		{";2025-03-02;dog", 0, []string{"empty thought"}},
		{"User likes tea;yesterday;food", 0, []string{"is not a timestamp"}},
		{"User likes tea;;food", 1, []string{"no timestamp"}},
		{"User likes tea;2025-03-02;food, green tea, drinks", 1, []string{`"green tea" is not one lowercase word`}},
		{"MERGE m1,m2 => User likes tea; and coffee\nUser likes tea;2025-03-02;food", 1, nil},
		{"Keep calm;2025-03-02;mood", 1, nil},
		{"User likes tea, User likes coffee", 0, []string{"no key events"}},
	}
	for _, c := range cases {
		got, err := ParseKeyEvents(c.reply)
		if len(got) != c.n {
			t.Errorf("%q: %d events %+v, want %d", c.reply, len(got), got, c.n)
		}
		checkErr(t, c.reply, err, c.bad)
	}
}

func TestParseReview(t *testing.T) {
	reply := `Looking at these memories:
MERGE m1, m3 => Tom works night shifts as a nurse
SUPERSEDE m2 -> m4
KEEP
keep m5,m6
Done.`
	got, err := ParseReview(reply)
	if err != nil {
		t.Fatal(err)
	}
	want := []ReviewOp{
		{Op: "merge", IDs: []string{"m1", "m3"}, Text: "Tom works night shifts as a nurse"},
		{Op: "supersede", Old: "m2", New: "m4"},
		{Op: "keep"},
		{Op: "keep", IDs: []string{"m5", "m6"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}

	cases := []struct {
		reply string
		n     int
		bad   []string
	}{
		{"KEEP", 1, nil},
		{"SUPERSEDE m1 → m2", 1, nil},
		{"", 0, []string{"no MERGE, SUPERSEDE or KEEP"}},
		{"These all look fine to me.", 0, []string{"no MERGE"}},
		{"MERGE m1 => only one", 0, []string{"two or more ids"}},
		{"MERGE m1,m2", 0, []string{"want MERGE"}},
		{"MERGE m1,m2 =>   ", 0, []string{"want MERGE"}},
		{"SUPERSEDE m1 => m1", 0, []string{"two different ids"}},
		{"SUPERSEDE the old one => the new one", 0, []string{"two different ids"}},
		{"SUPERSEDE m1", 0, []string{"want SUPERSEDE"}},
		{"MERGE m1,m2 => a\nSUPERSEDE m2 => m3", 1, []string{"id m2 is used by more than one operation"}},
		{"KEEP everything as is", 0, []string{"want KEEP"}},
		{"FUSIONNER m1,m2 => x", 0, []string{"no MERGE"}},
	}
	for _, c := range cases {
		got, err := ParseReview(c.reply)
		if len(got) != c.n {
			t.Errorf("%q: %d ops %+v, want %d", c.reply, len(got), got, c.n)
		}
		checkErr(t, c.reply, err, c.bad)
	}
}

func TestParseExpansion(t *testing.T) {
	got, err := ParseExpansion("Here are my proposals:\nfood/cuisine: ethiopian\nFood: Fermenting, baking2\n")
	if err != nil {
		t.Fatal(err)
	}
	want := []Proposal{
		{Path: []string{"food", "cuisine"}, Tag: "ethiopian"},
		{Path: []string{"food"}, Tag: "fermenting"},
		{Path: []string{"food"}, Tag: "baking2"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
	cases := []struct {
		reply string
		n     int
		bad   []string
	}{
		{"OK", 0, nil},
		{"ok.", 0, nil},
		{"", 0, []string{"no proposals and no OK"}},
		{"The ontology covers this well.", 0, []string{"no proposals"}},
		{"food/cuisine/ethiopian: injera", 0, []string{"want category: tag"}},
		{"food/cuisine: street food", 0, []string{`"street food" is not one lowercase word`}},
		{"Food_Stuff: x", 0, []string{"want category"}},
		{`{"food": {"cuisine": ["ethiopian"]}}`, 0, []string{"want category"}},
	}
	for _, c := range cases {
		got, err := ParseExpansion(c.reply)
		if len(got) != c.n {
			t.Errorf("%q: %d proposals %+v, want %d", c.reply, len(got), got, c.n)
		}
		checkErr(t, c.reply, err, c.bad)
	}
}

func TestParseTimeFilter(t *testing.T) {
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		berlin = time.FixedZone("CET", 3600)
	}
	day := func(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, berlin) }
	cases := []struct {
		reply    string
		from, to time.Time
		found    bool
		bad      bool
	}{
		{"2025-06-08;2025-06-08", day(2025, 6, 8), day(2025, 6, 9), true, false},
		{"Sure:\n2025-06-01;2025-06-30\n", day(2025, 6, 1), day(2025, 7, 1), true, false},
		{"2025-06-08T14:00;2025-06-08T15:30", day(2025, 6, 8).Add(14 * time.Hour), day(2025, 6, 8).Add(15*time.Hour + 31*time.Minute), true, false},
		{"NONE", time.Time{}, time.Time{}, false, false},
		{"2025-06-09;2025-06-08", time.Time{}, time.Time{}, false, true},
		{"yesterday;today", time.Time{}, time.Time{}, false, true},
		{"", time.Time{}, time.Time{}, false, true},
		{"Letzte Woche", time.Time{}, time.Time{}, false, true},
	}
	for _, c := range cases {
		from, to, found, err := ParseTimeFilter(c.reply, berlin)
		if !from.Equal(c.from) || !to.Equal(c.to) || found != c.found || (err != nil) != c.bad {
			t.Errorf("%q: got %v %v %v %v", c.reply, from, to, found, err)
		}
		if err != nil && !isMalformed(err) {
			t.Errorf("%q: error %v is not a *ParseError", c.reply, err)
		}
	}
	// A day across a DST change is a calendar day, and nil means UTC.
	from, to, _, _ := ParseTimeFilter("2025-03-30;2025-03-30", berlin)
	if to.Sub(from) != 23*time.Hour && berlin.String() == "Europe/Berlin" {
		t.Errorf("DST day lasts %v", to.Sub(from))
	}
	if from, _, _, _ := ParseTimeFilter("2025-03-30;2025-03-30", nil); from.Location() != time.UTC {
		t.Errorf("nil location gave %v", from.Location())
	}
}

func TestParsePostThinking(t *testing.T) {
	reply := `EVENTS
User adopted a puppy called Bruno;2025-03-02 18:04;dog,adoption
FACT;user;lives in;Lisbon;2025-03-02 18:06
REVIEW
SUPERSEDE m1 => n2
MERGE m3,m4 => User's dog Bruno is a beagle; he is two`
	evs, ops, err := ParsePostThinking(reply)
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 2 || !evs[1].Fact || len(ops) != 2 || ops[0].New != "n2" || ops[1].Text != "User's dog Bruno is a beagle; he is two" {
		t.Errorf("events %+v, ops %+v", evs, ops)
	}
	// Without a review section there are no operations and no review error.
	evs, ops, err = ParsePostThinking("EVENTS\nNONE")
	if err != nil || len(evs) != 0 || len(ops) != 0 {
		t.Errorf("events only: %v %v %v", evs, ops, err)
	}
	_, _, err = ParsePostThinking("I could not do this.")
	if !isMalformed(err) {
		t.Errorf("chatter: %v", err)
	}
}

// FuzzParseKeyEvents: never panics; every event kept has text, valid tags
// and a consistent fact triple. The other parsers are run on the same input
// for panics and for results within their bounds.
func FuzzParseKeyEvents(f *testing.F) {
	f.Add("User likes tea;2025-03-02;food")
	f.Add("FACT;user;lives in;Lisbon;2025-03-02;lisbon")
	f.Fuzz(func(t *testing.T, reply string) {
		evs, err := ParseKeyEvents(reply)
		if err != nil && !isMalformed(err) {
			t.Fatalf("error %v is not a *ParseError", err)
		}
		for _, ev := range evs {
			if ev.Text == "" || len(ev.Tags) > 3 {
				t.Fatalf("event %+v", ev)
			}
			for _, tag := range ev.Tags {
				if !tagRE.MatchString(tag) {
					t.Fatalf("bad tag %q in %+v", tag, ev)
				}
			}
			if ev.Fact && (ev.Subject == "" || ev.Predicate == "" || ev.Object == "") {
				t.Fatalf("fact %+v", ev)
			}
			if strings.Contains(ev.Time, ";") || strings.Contains(ev.Text, "\n") {
				t.Fatalf("event %+v", ev)
			}
		}

		if tags, _ := ParseTags(reply, 3); len(tags) != 3 {
			t.Fatalf("ParseTags gave %d items", len(tags))
		}
		nums, _ := ParseRelevant(reply, 5)
		for _, n := range nums {
			if n < 1 || n > 5 {
				t.Fatalf("ParseRelevant gave %d", n)
			}
		}
		ops, _ := ParseReview(reply)
		for _, op := range ops {
			if (op.Op == "merge" && (len(op.IDs) < 2 || op.Text == "")) || (op.Op == "supersede" && (op.Old == "" || op.Old == op.New)) {
				t.Fatalf("op %+v", op)
			}
		}
		props, _ := ParseExpansion(reply)
		for _, p := range props {
			if len(p.Path) < 1 || len(p.Path) > 2 || !tagRE.MatchString(p.Tag) {
				t.Fatalf("proposal %+v", p)
			}
		}
		_, _, _ = ParseController(reply)
		if from, to, found, _ := ParseTimeFilter(reply, nil); found && !to.After(from) {
			t.Fatalf("window %v %v", from, to)
		}
		_, _, _ = ParsePostThinking(reply)
	})
}
