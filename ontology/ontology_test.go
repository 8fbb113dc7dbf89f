package ontology

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/mneme-mcp/mneme/embed"
)

func TestDefault(t *testing.T) {
	o := Default()
	if o != Default() {
		t.Error("Default is parsed more than once")
	}
	list := o.List()
	if len(list) < 200 {
		t.Fatalf("default has %d tags, want >= 200", len(list))
	}
	if !slices.IsSorted(list) {
		t.Error("List is not sorted")
	}
	if len(slices.Compact(slices.Clone(list))) != len(list) {
		t.Error("List has duplicates")
	}
	for _, tag := range list {
		if !ValidTag(tag) {
			t.Errorf("invalid tag %q", tag)
		}
		p := o.Path(tag)
		if len(p) < 1 || len(p) > 3 || p[len(p)-1] != tag {
			t.Errorf("Path(%q) = %v", tag, p)
		}
	}
	// The areas a personal assistant needs are there.
	for _, tag := range []string{"people", "identity", "relationships", "family", "food", "health", "fitness",
		"work", "career", "education", "hobbies", "sports", "music", "art", "books", "entertainment", "travel",
		"places", "home", "pets", "finance", "shopping", "technology", "plans", "events", "emotions",
		"preferences", "habits", "communication", "dog", "name", "italian"} {
		if !o.Has(tag) {
			t.Errorf("default lacks %q", tag)
		}
	}
	// Every tag is reachable through the tree and the rendering.
	n := 0
	for c, subs := range o.Tree() {
		n++
		for s, attrs := range subs {
			n += 1 + len(attrs)
			if !slices.Equal(o.Path(s), []string{c, s}) {
				t.Errorf("Path(%q) = %v", s, o.Path(s))
			}
		}
	}
	if n != len(list) {
		t.Errorf("Tree holds %d tags, List %d", n, len(list))
	}
	r := o.Render()
	if got := len(strings.FieldsFunc(r, func(r rune) bool { return r == ' ' || r == '\n' || r == ',' || r == ':' })); got != len(list) {
		t.Errorf("Render holds %d words, want %d", got, len(list))
	}
}

// Two tags with the same stem would always be matched together by Tag.
func TestDefaultStemsDistinct(t *testing.T) {
	seen := map[string]string{}
	for _, tag := range Default().List() {
		s := embed.Stem(tag)
		if other, ok := seen[s]; ok {
			t.Errorf("tags %q and %q share the stem %q", other, tag, s)
		}
		seen[s] = tag
	}
}

func TestPathAndEntry(t *testing.T) {
	o := Default()
	if got := o.Path("italian"); !slices.Equal(got, []string{"food", "cuisine", "italian"}) {
		t.Errorf("Path(italian) = %v", got)
	}
	if got := o.Path("food"); !slices.Equal(got, []string{"food"}) {
		t.Errorf("Path(food) = %v", got)
	}
	if o.Path("nosuchtag") != nil || o.Has("nosuchtag") || o.Has("Dog") {
		t.Error("unknown tags found")
	}
	e, ok := o.Entry("dog")
	if !ok || !slices.Contains(e.Synonyms, "puppy") {
		t.Errorf("Entry(dog) = %+v, %v", e, ok)
	}
	e.Synonyms[0] = "changed" // a copy
	if e2, _ := o.Entry("dog"); e2.Synonyms[0] == "changed" {
		t.Error("Entry shares its synonyms")
	}
}

func TestParseShapes(t *testing.T) {
	list := `{"food": {"cuisine": ["italian", "thai"], "empty": null, "none": []}, "bare": {}, "nil": null}`
	syn := `{"food": {"cuisine": {"italian": ["Pasta", "  pizza   place "], "thai": [], "x": null}}}`
	mixed := `{"food": {"cuisine": ["italian"], "dishes": {"pizza": ["margherita"]}}}`
	for name, src := range map[string]string{"list": list, "synonyms": syn, "mixed": mixed} {
		o, err := Parse([]byte(src))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !slices.Equal(o.Path("italian"), []string{"food", "cuisine", "italian"}) {
			t.Errorf("%s: Path(italian) = %v", name, o.Path("italian"))
		}
	}
	o, _ := Parse([]byte(syn))
	if e, _ := o.Entry("italian"); !slices.Equal(e.Synonyms, []string{"pasta", "pizza place"}) {
		t.Errorf("synonyms not normalised: %q", e.Synonyms)
	}
	o, _ = Parse([]byte(list))
	want := map[string]map[string][]string{
		"food": {"cuisine": {"italian", "thai"}, "empty": {}, "none": {}},
		"bare": {}, "nil": {},
	}
	gotJSON, _ := json.Marshal(o.Tree())
	wantJSON, _ := json.Marshal(want)
	if string(gotJSON) != string(wantJSON) {
		t.Errorf("Tree = %s, want %s", gotJSON, wantJSON)
	}
	if r := o.Render(); r != "bare\nfood\n  cuisine: italian, thai\n  empty\n  none\nnil\n" {
		t.Errorf("Render = %q", r)
	}
}

func TestParseErrors(t *testing.T) {
	cases := []struct {
		name, src string
		sentinel  error
		want      []string // substrings of the message
	}{
		{"two words", `{"food": {"cuisine": ["ice cream"]}}`, ErrInvalid, []string{"food/cuisine/ice cream", "one lowercase word"}},
		{"uppercase", `{"food": {"Cuisine": []}}`, ErrInvalid, []string{"food/Cuisine", "lowercase"}},
		{"uppercase category", `{"Food": {}}`, ErrInvalid, []string{"Food:"}},
		{"hyphen", `{"food": {"cuisine": {"gluten-free": []}}}`, ErrInvalid, []string{"food/cuisine/gluten-free"}},
		{"depth 4", `{"a": {"b": {"c": {"d": []}}}}`, ErrInvalid, []string{"a/b/c", "too deep"}},
		{"depth 4 in list", `{"a": {"b": [["c"]]}}`, ErrInvalid, []string{"a/b", "too deep"}},
		{"duplicate", `{"food": {"cuisine": ["thai"]}, "travel": {"asia": ["thai"]}}`, ErrDuplicate,
			[]string{"travel/asia/thai", "already at food/cuisine/thai"}},
		{"duplicate in list", `{"food": {"cuisine": ["thai", "thai"]}}`, ErrDuplicate, []string{"food/cuisine/thai"}},
		{"duplicate key", `{"food": {}, "food": {}}`, ErrDuplicate, []string{"food"}},
		{"same as parent", `{"music": {"music": []}}`, ErrDuplicate, []string{"music/music"}},
		{"empty name", `{"food": {"": []}}`, ErrInvalid, []string{"food/", "empty"}},
		{"empty file", ``, ErrInvalid, []string{"empty"}},
		{"not an object", `["food"]`, ErrInvalid, []string{"object"}},
		{"number", `{"food": {"cuisine": [1]}}`, ErrInvalid, []string{"food/cuisine", "string"}},
		{"bad json", `{"food": {"cuisine": ["thai"]`, ErrInvalid, []string{"bad JSON"}},
		{"trailing", `{} {}`, ErrInvalid, []string{"after the top-level"}},
		{"empty synonym", `{"food": {"cuisine": {"thai": [" "]}}}`, ErrInvalid, []string{"food/cuisine/thai", "synonym"}},
		{"too long", `{"food": {"` + strings.Repeat("a", 41) + `": []}}`, ErrInvalid, []string{"longer than 40"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o, err := Parse([]byte(c.src))
			if err == nil {
				t.Fatalf("no error; tags %v", o.List())
			}
			if !errors.Is(err, c.sentinel) {
				t.Errorf("error %v is not %v", err, c.sentinel)
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Errorf("error %v is not an *Error", err)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

func TestMerge(t *testing.T) {
	base := Default()
	n := base.Len()
	user, err := Parse([]byte(`{
		"food": {"cuisine": {"ethiopian": ["injera"], "italian": ["trattoria"]}, "fermenting": ["kimchi"]},
		"gardening2": {"roses": []}
	}`))
	if err != nil {
		t.Fatal(err)
	}
	m, err := base.Merge(user)
	if err != nil {
		t.Fatal(err)
	}
	for tag, path := range map[string]string{
		"ethiopian": "food/cuisine/ethiopian", "fermenting": "food/fermenting", "kimchi": "food/fermenting/kimchi",
		"gardening2": "gardening2", "roses": "gardening2/roses", "dog": "pets/companions/dog",
	} {
		if got := strings.Join(m.Path(tag), "/"); got != path {
			t.Errorf("Path(%s) = %s, want %s", tag, got, path)
		}
	}
	if m.Len() != n+5 {
		t.Errorf("merged has %d tags, want %d", m.Len(), n+5)
	}
	if e, _ := m.Entry("italian"); !slices.Contains(e.Synonyms, "trattoria") {
		t.Errorf("user synonyms not merged: %v", e.Synonyms)
	}
	if base.Len() != n || base.Has("ethiopian") {
		t.Error("Merge changed its receiver")
	}
	if e, _ := base.Entry("italian"); slices.Contains(e.Synonyms, "trattoria") {
		t.Error("Merge changed the receiver's synonyms")
	}
	if got := m.Tag("we tried ethiopian food", 1); !slices.Equal(got, []string{"ethiopian"}) {
		t.Errorf("merged Tag = %v", got)
	}
	// Merging again is a no-op; nil merges to a copy.
	if again, err := m.Merge(user); err != nil || again.Len() != m.Len() {
		t.Errorf("merge twice: %v, %d tags", err, again.Len())
	}
	if c, err := base.Merge(nil); err != nil || c.Len() != n {
		t.Errorf("Merge(nil) = %v, %v", c, err)
	}

	// A user tag that the default has elsewhere is an error naming both places.
	bad, _ := Parse([]byte(`{"animals2": {"mammals": ["dog"]}}`))
	_, err = base.Merge(bad)
	if !errors.Is(err, ErrDuplicate) || !strings.Contains(err.Error(), "animals2/mammals/dog") ||
		!strings.Contains(err.Error(), "pets/companions/dog") {
		t.Errorf("conflicting merge: %v", err)
	}
	// So is a default category reused at another level.
	bad, _ = Parse([]byte(`{"hobbies": {"food": []}}`))
	if _, err := base.Merge(bad); !errors.Is(err, ErrDuplicate) {
		t.Errorf("level conflict: %v", err)
	}
}

func TestMarshalRoundTrip(t *testing.T) {
	o := Default()
	data, err := o.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(back.List(), o.List()) || back.Render() != o.Render() {
		t.Error("round trip changed the tree")
	}
	for _, tag := range o.List() {
		a, _ := o.Entry(tag)
		b, _ := back.Entry(tag)
		if !slices.Equal(a.Synonyms, b.Synonyms) {
			t.Errorf("%s: synonyms %v, after round trip %v", tag, a.Synonyms, b.Synonyms)
		}
	}
}

func TestTag(t *testing.T) {
	o := Default()
	cases := []struct {
		text     string
		must     []string // all of these
		someOf   []string // at least one of these (when set)
		mustNot  []string
		maxCount int
	}{
		{text: "I adopted a puppy last week", must: []string{"dog"}, someOf: []string{"adoption", "pets", "companions"}},
		{text: "We had sushi in Tokyo", must: []string{"sushi", "tokyo"}},
		{text: "My mom is visiting from Berlin next month", must: []string{"mother", "berlin"}},
		{text: "I started running to lose weight", must: []string{"running", "weightloss"}, mustNot: []string{"weightlifting"}},
		{text: "Please keep answers concise and use markdown", must: []string{"verbosity", "formatting"}},
		{text: "I'm allergic to peanuts", must: []string{"allergy"}},
		{text: "I got promoted and my boss gave me a raise", must: []string{"promotion", "boss", "income"}},
		{text: "my favourite pizza place in New York", must: []string{"pizza", "newyork"}},
		{text: "the", maxCount: 0},
		{text: "", maxCount: 0},
	}
	for _, c := range cases {
		got := o.Tag(c.text, 3)
		if len(got) > 3 {
			t.Errorf("%q: %d tags", c.text, len(got))
		}
		for _, m := range c.must {
			if !slices.Contains(got, m) {
				t.Errorf("%q: tags %v lack %q", c.text, got, m)
			}
		}
		if len(c.someOf) > 0 && !slices.ContainsFunc(got, func(s string) bool { return slices.Contains(c.someOf, s) }) {
			t.Errorf("%q: tags %v have none of %v", c.text, got, c.someOf)
		}
		for _, m := range c.mustNot {
			if slices.Contains(got, m) {
				t.Errorf("%q: tags %v include %q", c.text, got, m)
			}
		}
		if c.must == nil && len(got) != c.maxCount {
			t.Errorf("%q: tags %v, want %d", c.text, got, c.maxCount)
		}
		for _, tag := range got {
			if !o.Has(tag) {
				t.Errorf("%q: tag %q not in the ontology", c.text, tag)
			}
		}
		// Deterministic.
		for range 3 {
			if again := o.Tag(c.text, 3); !slices.Equal(again, got) {
				t.Errorf("%q: %v then %v", c.text, got, again)
			}
		}
	}
	// Attributes come before their ancestors; the parents fill free places.
	if got := o.Tag("my dog", 3); !slices.Equal(got, []string{"dog", "companions", "pets"}) {
		t.Errorf("Tag(my dog) = %v", got)
	}
	if got := o.Tag("my dog", 1); !slices.Equal(got, []string{"dog"}) {
		t.Errorf("Tag(my dog, 1) = %v", got)
	}
	if got := o.Tag("my dog", 0); len(got) != MaxTags {
		t.Errorf("Tag(my dog, 0) = %v, want %d tags", got, MaxTags)
	}
}

func TestSearch(t *testing.T) {
	o := Default()
	first := func(q string) string {
		es := o.Search(q)
		if len(es) == 0 {
			return ""
		}
		return es[0].Tag
	}
	for q, want := range map[string]string{
		"dog": "dog", "puppies": "dog", "Dogs": "dog", "ice cream": "icecream", "running": "running",
		"jog": "running", "pets": "pets", "italian food": "italian", "calligr": "calligraphy", "photograph": "photography",
	} {
		if got := first(q); got != want {
			t.Errorf("Search(%q) first = %q, want %q (all: %v)", q, got, want, o.Search(q))
		}
	}
	if es := o.Search("pets"); len(es) < 5 {
		t.Errorf("Search(pets) = %v, want the tags under pets too", es)
	} else if !slices.Equal(es[0].Path, []string{"pets"}) {
		t.Errorf("Search(pets)[0] = %+v", es[0])
	}
	if es := o.Search("run"); slices.ContainsFunc(es, func(e Entry) bool { return e.Tag == "brunch" }) {
		t.Error("short substring matched brunch")
	}
	if o.Search("") != nil || o.Search("  !! ") != nil {
		t.Error("empty query found something")
	}
	if es := o.Search("zzzqqq"); len(es) != 0 {
		t.Errorf("nonsense found %v", es)
	}
}
