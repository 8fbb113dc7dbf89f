package prompts

import (
	"bytes"
	"embed"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"text/template"
)

// Name names a prompt template (the file <name>.tmpl).
type Name string

// The prompts, after the CAIM and Think-in-Memory papers.
const (
	MemoryController  Name = "memory-controller"  // CAIM 3.3.1: is memory needed, and which
	SelectTags        Name = "select-tags"        // CAIM 3.3.2: tags from the ontology, for one text or a batch
	TimeFilter        Name = "time-filter"        // CAIM 3.3.2: the period a message refers to
	RelevanceFilter   Name = "relevance-filter"   // CAIM 3.3.2: which retrieved memories matter
	KeyEvents         Name = "key-events"         // CAIM 3.3.3 Memory Extension + TiM triples
	ReviewMemories    Name = "review-memories"    // CAIM 3.3.3 Memory Review + TiM merge/forget
	OntologyExpansion Name = "ontology-expansion" // CAIM 3.2: new single-word tags
	PostThinking      Name = "post-thinking"      // extension and review in one, run by hand
)

// Sources of information the memory controller can choose.
const (
	SourceLongTerm     = "long-term"
	SourceConversation = "conversation"
	SourceBoth         = "both"
)

// Arg describes one argument of a prompt exposed to clients (e.g. as an
// MCP prompt). Names are the lowercase field names of the prompt's data
// struct; list fields take one entry per line.
type Arg struct {
	Name, Description string
	Required          bool
}

// Item is one memory shown to a model. Ref is the short handle a reply uses
// to name it (review prompts; keep it short, like "m3": models copy long ids
// badly); relevance prompts number items instead. Time is the memory's date
// as people read it ("2025-01-07"); empty shows "undated".
type Item struct {
	Ref  string
	Time string
	Text string
}

// ControllerData fills memory-controller.
type ControllerData struct {
	Message      string // the user's latest message
	Conversation string // the current conversation so far (optional)
}

// SelectTagsData fills select-tags. One item asks for "the text", several
// for a numbered batch; newlines inside an item are shown as spaces.
type SelectTagsData struct {
	Ontology string   // ontology.Ontology.Render()
	Items    []string // the texts to tag
}

// TimeFilterData fills time-filter.
type TimeFilterData struct {
	Message string
	Now     string // the current time, e.g. "2025-06-10T09:30 (Tuesday)"
}

// RelevanceData fills relevance-filter; memories are numbered from 1.
type RelevanceData struct {
	Question string
	Memories []Item
}

// KeyEventsData fills key-events.
type KeyEventsData struct {
	Transcript string // turns prefixed with their time, e.g. "[2025-03-02 18:04] user: ..."
	Now        string // the time used for turns without one (optional)
	Ontology   string // tags must come from it (optional: free single words otherwise)
}

// ReviewData fills review-memories.
type ReviewData struct {
	Tag      string // the tag the memories share
	Memories []Item // each with a short Ref
}

// ExpansionData fills ontology-expansion.
type ExpansionData struct {
	Ontology string
	Text     string
}

// PostThinkingData fills post-thinking.
type PostThinkingData struct {
	Transcript string
	Now        string // optional
	Ontology   string // optional
	Memories   []Item // existing memories to review (optional; without them step 2 is left out)
}

type spec struct {
	data        any // a zero value of the data struct
	description string
	args        []Arg
}

var specs = map[Name]spec{
	MemoryController: {ControllerData{},
		"Decide whether a message needs the user's long-term memory, the current conversation, both, or neither (CAIM's memory controller). Reply: lines Q1..Q3 with A or B.",
		[]Arg{{"message", "the user's latest message", true}, {"conversation", "the current conversation so far", false}}},
	SelectTags: {SelectTagsData{},
		"Choose up to three tags from the ontology for a text or a numbered batch of texts. Reply: one line per text, N: tag, tag, tag.",
		[]Arg{{"items", "the texts to tag, one per line", true}, {"ontology", "the ontology as mneme renders it (filled in by the server when empty)", false}}},
	TimeFilter: {TimeFilterData{},
		"Work out the period of time a message refers to. Reply: start;end or NONE.",
		[]Arg{{"message", "the user's message", true}, {"now", "the current time (filled in by the server when empty)", false}}},
	RelevanceFilter: {RelevanceData{},
		"Keep only the retrieved memories that help answer a question. Reply: the numbers of the helpful memories, or NONE.",
		[]Arg{{"question", "the user's question", true}, {"memories", "the retrieved memories, one per line", true}}},
	KeyEvents: {KeyEventsData{},
		"Extract what is worth remembering from a timestamped transcript as inductive thoughts with tags, and lasting attributes as fact triples. Reply: thought;timestamp;tags and FACT;subject;predicate;object;timestamp lines.",
		[]Arg{{"transcript", "the conversation, each turn prefixed with its time", true}, {"now", "the time for turns without one", false}, {"ontology", "the ontology to take tags from (filled in by the server when empty)", false}}},
	ReviewMemories: {ReviewData{},
		"Review memories sharing a tag: merge duplicates and let newer memories supersede contradicted older ones. Reply: MERGE ids => text, SUPERSEDE old => new, or KEEP lines.",
		[]Arg{{"tag", "the tag the memories share", true}, {"memories", "the memories, one per line as id | date | text", true}}},
	OntologyExpansion: {ExpansionData{},
		"Propose new single-word tags under existing ontology paths when a text's topics have no fitting tag. Reply: path: tag lines, or OK.",
		[]Arg{{"text", "the text to describe", true}, {"ontology", "the ontology as mneme renders it (filled in by the server when empty)", false}}},
	PostThinking: {PostThinkingData{},
		"After a conversation, extract what to remember and tidy up existing memories in one go; for a person to run by hand with any model.",
		[]Arg{{"transcript", "the conversation, each turn prefixed with its time", true}, {"memories", "existing memories to review, one per line as id | date | text", false}, {"now", "the time for turns without one", false}, {"ontology", "the ontology to take tags from (filled in by the server when empty)", false}}},
}

// Names returns every prompt name, in the order of the memory pipeline.
func Names() []Name {
	return []Name{MemoryController, SelectTags, TimeFilter, RelevanceFilter, KeyEvents, ReviewMemories, OntologyExpansion, PostThinking}
}

// Describe returns a prompt's description and the arguments a client
// supplies (for exposing it as an MCP prompt); empty for an unknown name.
func Describe(name Name) (description string, args []Arg) {
	s, ok := specs[name]
	if !ok {
		return "", nil
	}
	return s.description, slices.Clone(s.args)
}

//go:embed *.tmpl
var templateFiles embed.FS

var funcs = template.FuncMap{
	"inc":     func(i int) int { return i + 1 },
	"oneline": func(s string) string { return strings.Join(strings.Fields(s), " ") },
}

var parsed = sync.OnceValues(func() (*template.Template, error) {
	return template.New("").Funcs(funcs).Option("missingkey=error").ParseFS(templateFiles, "*.tmpl")
})

// Render fills the template name with data, which must be the prompt's data
// struct (or a pointer to it), or a map holding every key the template
// uses. Render is safe for concurrent use.
func Render(name Name, data any) (string, error) {
	s, ok := specs[name]
	if !ok {
		return "", fmt.Errorf("render prompt %q: unknown prompt", name)
	}
	if err := checkData(s.data, data); err != nil {
		return "", fmt.Errorf("render prompt %s: %w", name, err)
	}
	t, err := parsed()
	if err != nil {
		return "", fmt.Errorf("render prompt %s: %w", name, err)
	}
	var b bytes.Buffer
	if err := t.ExecuteTemplate(&b, string(name)+".tmpl", data); err != nil {
		return "", fmt.Errorf("render prompt %s: %w", name, err)
	}
	return b.String(), nil
}

func checkData(want, got any) error {
	wt := reflect.TypeOf(want)
	gt := reflect.TypeOf(got)
	switch {
	case gt == wt:
		return nil
	case gt != nil && gt.Kind() == reflect.Pointer && gt.Elem() == wt && !reflect.ValueOf(got).IsNil():
		return nil
	case gt != nil && gt.Kind() == reflect.Map && gt.Key().Kind() == reflect.String:
		return nil
	}
	return fmt.Errorf("want data of type %v, got %v", wt, gt)
}
