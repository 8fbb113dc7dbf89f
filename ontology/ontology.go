// Package ontology holds mneme's tag tree: CAIM's three levels of category,
// subcategory and attribute, where every tag is one lowercase word that is
// unique across the whole tree. It embeds a default tree for a personal
// assistant, parses and validates tree files, merges a user's file over the
// default (the user's file only ever adds), tags text deterministically, and
// keeps the user's file hot-reloaded through a Manager.
//
// An *Ontology is immutable once built and safe for concurrent reads. The
// package imports nothing of this module except embed (for stemming).
package ontology

import (
	_ "embed"
	"errors"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// Levels of the tree. A tag's level is the length of its Path.
const (
	LevelCategory    = 1
	LevelSubcategory = 2
	LevelAttribute   = 3
)

// MaxTags is the number of tags Tag returns when asked for max <= 0, and
// CAIM's limit of tags per memory.
const MaxTags = 3

// maxTagLen keeps tags short enough for prompts; longer words are rejected.
const maxTagLen = 40

// maxSynonymLen bounds a synonym (which may be a short phrase).
const maxSynonymLen = 60

// Sentinel errors carried by *Error (check with errors.Is).
var (
	// ErrInvalid: the data is not a valid tree (bad JSON, bad tag, too deep).
	ErrInvalid = errors.New("invalid ontology")
	// ErrDuplicate: a tag is already present somewhere in the tree.
	ErrDuplicate = errors.New("duplicate tag")
	// ErrUnknownPath: Add was given a path that is not in the tree.
	ErrUnknownPath = errors.New("unknown ontology path")
)

// Error is a validation error naming where in the tree it happened. Path is
// the offending place ("food/cuisine/Italian"), Err one of ErrInvalid,
// ErrDuplicate or ErrUnknownPath.
type Error struct {
	Path []string
	Err  error
	Msg  string
}

// Error returns "path: message" (or just the message at the top level).
func (e *Error) Error() string {
	if len(e.Path) == 0 {
		return e.Msg
	}
	return strings.Join(e.Path, "/") + ": " + e.Msg
}

// Unwrap returns the sentinel.
func (e *Error) Unwrap() error { return e.Err }

var tagRE = regexp.MustCompile(`^[a-z][a-z0-9]*$`)

// ValidTag reports whether s is a well-formed tag: one lowercase word of
// ASCII letters and digits starting with a letter, at most 40 bytes.
func ValidTag(s string) bool {
	return len(s) <= maxTagLen && tagRE.MatchString(s)
}

// checkTag returns an *Error naming path when tag is not a valid tag.
func checkTag(path []string, tag string) error {
	switch {
	case tag == "":
		return &Error{Path: path, Err: ErrInvalid, Msg: "empty tag name"}
	case len(tag) > maxTagLen:
		return &Error{Path: path, Err: ErrInvalid, Msg: "tag longer than 40 bytes"}
	case !tagRE.MatchString(tag):
		return &Error{Path: path, Err: ErrInvalid,
			Msg: strings.TrimSpace(quote(tag) + " is not one lowercase word (letters a-z and digits, starting with a letter)")}
	}
	return nil
}

func quote(s string) string {
	if len(s) > 60 {
		s = s[:60] + "..."
	}
	return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"`
}

// Entry describes one tag of the tree.
type Entry struct {
	Tag      string   // the tag itself
	Path     []string // from the category down to Tag, e.g. ["food","cuisine","italian"]
	Synonyms []string // words or short phrases that also mean Tag (attributes only)
}

// node is one tag of the tree.
type node struct {
	tag      string
	level    int
	parent   string   // "" for a category
	children []string // sorted
	synonyms []string // in file order, deduplicated

	// Set by buildIndex; kept by builder copies (never modified in place,
	// only replaced) and cleared when the synonyms change.
	stem     string     // the tag's own term
	synTerms [][]string // the terms of each synonym
}

// Ontology is a validated tag tree. It is immutable once built; all methods
// are safe for concurrent use.
type Ontology struct {
	nodes  map[string]*node
	roots  []string // sorted categories
	list   []string // every tag, sorted
	render string
	index  matchIndex
}

//go:embed default.json
var defaultJSON []byte

var defaultOntology = sync.OnceValue(func() *Ontology {
	o, err := Parse(defaultJSON)
	if err != nil {
		panic("ontology: embedded default.json is invalid: " + err.Error()) // caught by the tests
	}
	return o
})

// Default returns the embedded default ontology (parsed once, shared: it is
// immutable). Default is safe for concurrent use.
func Default() *Ontology { return defaultOntology() }

// DefaultJSON returns a copy of the embedded default file, for people who
// want to see or start from it.
func DefaultJSON() []byte { return slices.Clone(defaultJSON) }

// Len returns the number of tags.
func (o *Ontology) Len() int { return len(o.list) }

// Has reports whether tag is in the tree (exact match: tags are lowercase).
func (o *Ontology) Has(tag string) bool {
	_, ok := o.nodes[tag]
	return ok
}

// Path returns the path from the category down to tag, e.g.
// ["food","cuisine","italian"], or nil when tag is not in the tree.
func (o *Ontology) Path(tag string) []string {
	n, ok := o.nodes[tag]
	if !ok {
		return nil
	}
	path := make([]string, n.level)
	for i := n.level - 1; i >= 0; i-- {
		path[i] = n.tag
		n = o.nodes[n.parent]
	}
	return path
}

// List returns every tag, sorted.
func (o *Ontology) List() []string { return slices.Clone(o.list) }

// Entry returns the entry of tag and whether it exists.
func (o *Ontology) Entry(tag string) (Entry, bool) {
	n, ok := o.nodes[tag]
	if !ok {
		return Entry{}, false
	}
	return Entry{Tag: tag, Path: o.Path(tag), Synonyms: slices.Clone(n.synonyms)}, true
}

// Tree returns the tree as category -> subcategory -> attributes (a fresh
// copy; synonyms are left out). Empty levels are empty, not nil.
func (o *Ontology) Tree() map[string]map[string][]string {
	tree := make(map[string]map[string][]string, len(o.roots))
	for _, c := range o.roots {
		subs := make(map[string][]string, len(o.nodes[c].children))
		for _, s := range o.nodes[c].children {
			subs[s] = append([]string{}, o.nodes[s].children...)
		}
		tree[c] = subs
	}
	return tree
}

// Render returns the tree as compact indented text for prompts and for
// people: one line per category, then one indented line per subcategory
// with its attributes after a colon. Everything is sorted; synonyms are left
// out.
//
//	food
//	  cuisine: chinese, french, italian
func (o *Ontology) Render() string { return o.render }

func (o *Ontology) buildRender() string {
	var b strings.Builder
	for _, c := range o.roots {
		b.WriteString(c)
		b.WriteByte('\n')
		for _, s := range o.nodes[c].children {
			b.WriteString("  ")
			b.WriteString(s)
			if attrs := o.nodes[s].children; len(attrs) > 0 {
				b.WriteString(": ")
				b.WriteString(strings.Join(attrs, ", "))
			}
			b.WriteByte('\n')
		}
	}
	return b.String()
}
