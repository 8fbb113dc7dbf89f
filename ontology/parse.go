package ontology

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/mneme-mcp/mneme/embed"
)

// Parse parses and validates an ontology file. The shape is
//
//	{"category": {"subcategory": ["attribute", ...]}}
//
// where a subcategory may instead map each attribute to its synonyms:
//
//	{"category": {"subcategory": {"attribute": ["synonym", ...]}}}
//
// Both shapes may be mixed in one file; null stands for an empty level.
// Every tag must be one lowercase word ([a-z][a-z0-9]*, at most 40 bytes)
// and appear once in the whole file; the tree is at most three levels deep.
// Synonyms are words or short phrases, lowercased on reading. Errors wrap
// an *Error naming the offending path and one of ErrInvalid or ErrDuplicate.
// Parse is safe for concurrent use.
func Parse(data []byte) (*Ontology, error) {
	b := newBuilder()
	if err := decode(data, b.addStrict); err != nil {
		return nil, fmt.Errorf("parse ontology: %w", err)
	}
	return b.finish(), nil
}

// Merge returns a new ontology holding o's tags plus user's. A tag of user
// that o already has must sit at the same path (it is then a no-op, its
// synonyms are added); anywhere else it is an ErrDuplicate naming both
// paths. Merge never removes anything. o and user are left unchanged.
func (o *Ontology) Merge(user *Ontology) (*Ontology, error) {
	b := o.builder()
	if user != nil {
		for _, c := range user.roots {
			if err := user.walk(c, b.addMerge); err != nil {
				return nil, fmt.Errorf("merge ontology: %w", err)
			}
		}
	}
	return b.finish(), nil
}

// walk calls add for tag and its descendants, parents first.
func (o *Ontology) walk(tag string, add func(path []string, synonyms []string) error) error {
	n := o.nodes[tag]
	if err := add(o.Path(tag), n.synonyms); err != nil {
		return err
	}
	for _, c := range n.children {
		if err := o.walk(c, add); err != nil {
			return err
		}
	}
	return nil
}

// builder accumulates nodes; finish sorts and indexes them.
type builder struct {
	nodes map[string]*node
}

func newBuilder() *builder { return &builder{nodes: map[string]*node{}} }

// builder returns a builder holding a deep copy of o's nodes.
func (o *Ontology) builder() *builder {
	b := &builder{nodes: make(map[string]*node, len(o.nodes))}
	for k, n := range o.nodes {
		c := *n
		c.children = slices.Clone(n.children)
		c.synonyms = slices.Clone(n.synonyms)
		// c.stem and c.synTerms are shared: finish replaces, never edits, them.
		b.nodes[k] = &c
	}
	return b
}

// addStrict adds the last element of path under the one before it; any tag
// already present is an error.
func (b *builder) addStrict(path []string, synonyms []string) error {
	return b.add(path, synonyms, false)
}

// addMerge is addStrict except that a tag already present at the same path
// is accepted (its synonyms are merged).
func (b *builder) addMerge(path []string, synonyms []string) error {
	return b.add(path, synonyms, true)
}

func (b *builder) add(path []string, synonyms []string, samePathOK bool) error {
	tag := path[len(path)-1]
	if err := checkTag(path, tag); err != nil {
		return err
	}
	if len(path) > LevelAttribute {
		return &Error{Path: path, Err: ErrInvalid, Msg: "too deep: at most three levels (category, subcategory, attribute)"}
	}
	parent := ""
	if len(path) > 1 {
		parent = path[len(path)-2]
	}
	if n, ok := b.nodes[tag]; ok {
		where := b.path(tag)
		if !samePathOK || n.level != len(path) || n.parent != parent {
			if slices.Equal(where, path) {
				return &Error{Path: path, Err: ErrDuplicate, Msg: fmt.Sprintf("duplicate tag %q", tag)}
			}
			return &Error{Path: path, Err: ErrDuplicate,
				Msg: fmt.Sprintf("duplicate tag %q, already at %s", tag, strings.Join(where, "/"))}
		}
		for _, s := range synonyms {
			if !slices.Contains(n.synonyms, s) && s != tag {
				n.synonyms = append(n.synonyms, s)
				n.stem, n.synTerms = "", nil // recomputed by finish
			}
		}
		return nil
	}
	if parent != "" {
		p, ok := b.nodes[parent]
		if !ok || p.level != len(path)-1 {
			return &Error{Path: path, Err: ErrUnknownPath, Msg: fmt.Sprintf("parent %q is not in the tree", parent)}
		}
		p.children = append(p.children, tag)
	}
	n := &node{tag: tag, level: len(path), parent: parent}
	for _, s := range synonyms {
		if s != tag && !slices.Contains(n.synonyms, s) {
			n.synonyms = append(n.synonyms, s)
		}
	}
	b.nodes[tag] = n
	return nil
}

func (b *builder) path(tag string) []string {
	var p []string
	for n, ok := b.nodes[tag]; ok; n, ok = b.nodes[n.parent] {
		p = append(p, n.tag)
	}
	slices.Reverse(p)
	return p
}

func (b *builder) finish() *Ontology {
	o := &Ontology{nodes: b.nodes, list: make([]string, 0, len(b.nodes))}
	for tag, n := range b.nodes {
		slices.Sort(n.children)
		o.list = append(o.list, tag)
		if n.level == LevelCategory {
			o.roots = append(o.roots, tag)
		}
	}
	slices.Sort(o.list)
	slices.Sort(o.roots)
	o.render = o.buildRender()
	o.index = buildIndex(o)
	b.nodes = nil // the ontology owns them now
	return o
}

// decode streams data (so key order and duplicate keys are seen) and calls
// add for every tag, parents first.
func decode(data []byte, add func(path, synonyms []string) error) error {
	if len(bytes.TrimSpace(data)) == 0 {
		return &Error{Err: ErrInvalid, Msg: "empty file (want a JSON object, {} for none)"}
	}
	d := &decoder{dec: json.NewDecoder(bytes.NewReader(data)), add: add}
	if err := d.object(nil, d.category); err != nil {
		return err
	}
	if _, err := d.dec.Token(); !errors.Is(err, io.EOF) {
		return &Error{Err: ErrInvalid, Msg: fmt.Sprintf("unexpected data after the top-level object (offset %d)", d.dec.InputOffset())}
	}
	return nil
}

type decoder struct {
	dec *json.Decoder
	add func(path, synonyms []string) error
}

func (d *decoder) syntax(path []string, err error) error {
	return &Error{Path: path, Err: ErrInvalid, Msg: fmt.Sprintf("bad JSON near offset %d: %v", d.dec.InputOffset(), err)}
}

// object reads `{key: value, ...}` at path and calls member for each key
// (positioned before its value).
func (d *decoder) object(path []string, member func(path []string) error) error {
	tok, err := d.dec.Token()
	if err != nil {
		return d.syntax(path, err)
	}
	if delim, ok := tok.(json.Delim); !ok || delim != '{' {
		return &Error{Path: path, Err: ErrInvalid, Msg: "want a JSON object"}
	}
	return d.members(path, member)
}

// members reads the members of an object whose '{' has been read, calling
// member for each key (positioned before its value), and the closing '}'.
func (d *decoder) members(path []string, member func(path []string) error) error {
	for d.dec.More() {
		tok, err := d.dec.Token()
		if err != nil {
			return d.syntax(path, err)
		}
		key, _ := tok.(string)
		if err := member(append(slices.Clip(path), key)); err != nil {
			return err
		}
	}
	if _, err := d.dec.Token(); err != nil { // the closing '}'
		return d.syntax(path, err)
	}
	return nil
}

// next reads the first token of the next value: null, '{' or '['; other
// tokens are returned as is.
func (d *decoder) next(path []string) (json.Token, error) {
	tok, err := d.dec.Token()
	if err != nil {
		return nil, d.syntax(path, err)
	}
	return tok, nil
}

func (d *decoder) category(path []string) error {
	if err := d.add(path, nil); err != nil {
		return err
	}
	return d.children(path, d.subcategory, "an object of subcategories")
}

// children reads null or an object whose members are handled by member.
func (d *decoder) children(path []string, member func([]string) error, want string) error {
	tok, err := d.next(path)
	if err != nil {
		return err
	}
	switch tok {
	case nil:
		return nil
	case json.Delim('{'):
	default:
		return &Error{Path: path, Err: ErrInvalid, Msg: "want " + want + " or null"}
	}
	return d.members(path, member)
}

func (d *decoder) subcategory(path []string) error {
	if err := d.add(path, nil); err != nil {
		return err
	}
	tok, err := d.next(path)
	if err != nil {
		return err
	}
	switch tok {
	case nil:
		return nil
	case json.Delim('['): // ["attr", ...]
		return d.strings(path, func(s string) error {
			return d.add(append(slices.Clip(path), s), nil)
		})
	case json.Delim('{'): // {"attr": ["synonym", ...]}
		for d.dec.More() {
			tok, err := d.dec.Token()
			if err != nil {
				return d.syntax(path, err)
			}
			key, _ := tok.(string)
			if err := d.attribute(append(slices.Clip(path), key)); err != nil {
				return err
			}
		}
		if _, err := d.dec.Token(); err != nil {
			return d.syntax(path, err)
		}
		return nil
	default:
		return &Error{Path: path, Err: ErrInvalid, Msg: "want a list of attributes, an object of attributes to synonyms, or null"}
	}
}

func (d *decoder) attribute(path []string) error {
	tag := path[len(path)-1]
	if err := checkTag(path, tag); err != nil {
		return err
	}
	tok, err := d.next(path)
	if err != nil {
		return err
	}
	var synonyms []string
	switch tok {
	case nil:
	case json.Delim('['):
		err := d.strings(path, func(s string) error {
			syn, err := normalizeSynonym(path, s)
			if err != nil {
				return err
			}
			synonyms = append(synonyms, syn)
			return nil
		})
		if err != nil {
			return err
		}
	case json.Delim('{'):
		return &Error{Path: path, Err: ErrInvalid,
			Msg: "too deep: at most three levels (category, subcategory, attribute); an attribute maps only to a list of synonyms"}
	default:
		return &Error{Path: path, Err: ErrInvalid, Msg: "want a list of synonyms or null"}
	}
	return d.add(path, synonyms)
}

// strings reads the rest of a JSON array of strings (after its '[').
func (d *decoder) strings(path []string, each func(string) error) error {
	for d.dec.More() {
		tok, err := d.dec.Token()
		if err != nil {
			return d.syntax(path, err)
		}
		s, ok := tok.(string)
		if !ok {
			if _, isDelim := tok.(json.Delim); isDelim && (tok == json.Delim('{') || tok == json.Delim('[')) {
				return &Error{Path: path, Err: ErrInvalid, Msg: "too deep: a list may hold only strings"}
			}
			return &Error{Path: path, Err: ErrInvalid, Msg: fmt.Sprintf("want a string in the list, got %v", tok)}
		}
		if err := each(s); err != nil {
			return err
		}
	}
	if _, err := d.dec.Token(); err != nil { // the closing ']'
		return d.syntax(path, err)
	}
	return nil
}

// normalizeSynonym lowercases a synonym and collapses its spaces; it must
// hold at least one word and be at most 60 bytes.
func normalizeSynonym(path []string, s string) (string, error) {
	norm := strings.Join(strings.Fields(strings.ToLower(s)), " ")
	switch {
	case len(embed.Words(norm)) == 0:
		return "", &Error{Path: path, Err: ErrInvalid, Msg: fmt.Sprintf("synonym %s has no word in it", quote(s))}
	case len(norm) > maxSynonymLen:
		return "", &Error{Path: path, Err: ErrInvalid, Msg: fmt.Sprintf("synonym %s is longer than 60 bytes", quote(s))}
	}
	return norm, nil
}

// MarshalJSON writes the tree in the file shape Parse reads: a subcategory
// is a list of attributes, or an object of attributes to synonyms when any
// of its attributes has synonyms. Keys are sorted.
func (o *Ontology) MarshalJSON() ([]byte, error) {
	tree := make(map[string]map[string]any, len(o.roots))
	for _, c := range o.roots {
		subs := make(map[string]any, len(o.nodes[c].children))
		for _, s := range o.nodes[c].children {
			attrs := o.nodes[s].children
			withSynonyms := slices.ContainsFunc(attrs, func(a string) bool { return len(o.nodes[a].synonyms) > 0 })
			if withSynonyms {
				m := make(map[string][]string, len(attrs))
				for _, a := range attrs {
					m[a] = append([]string{}, o.nodes[a].synonyms...)
				}
				subs[s] = m
			} else {
				subs[s] = append([]string{}, attrs...)
			}
		}
		tree[c] = subs
	}
	return json.MarshalIndent(tree, "", "  ")
}
