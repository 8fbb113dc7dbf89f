package ontology

import (
	"cmp"
	"slices"
	"strings"

	"github.com/mneme-mcp/mneme/embed"
)

// matchIndex maps stemmed terms (embed.Terms) to the tags they evoke.
type matchIndex struct {
	single  map[string][]hit    // one-term keys: a tag's own stem or a one-word synonym
	phrases map[string][]phrase // multi-term synonyms, by their first term
}

// hit is one tag evoked by a term; exact means the term is the tag's own
// stem rather than a synonym's.
type hit struct {
	tag   string
	exact bool
}

type phrase struct {
	terms []string
	tag   string
}

func buildIndex(o *Ontology) matchIndex {
	idx := matchIndex{single: map[string][]hit{}, phrases: map[string][]phrase{}}
	addSingle := func(term, tag string, exact bool) {
		for i, h := range idx.single[term] {
			if h.tag == tag {
				idx.single[term][i].exact = h.exact || exact
				return
			}
		}
		idx.single[term] = append(idx.single[term], hit{tag: tag, exact: exact})
	}
	for _, tag := range o.list {
		n := o.nodes[tag]
		if n.stem == "" { // new, or its synonyms changed: (re)compute its terms
			n.stem = tag // a stopword tag is matched verbatim
			if terms := embed.Terms(tag); len(terms) > 0 {
				n.stem = terms[0]
			}
			n.synTerms = make([][]string, len(n.synonyms))
			for i, s := range n.synonyms {
				n.synTerms[i] = embed.Terms(s)
			}
		}
		addSingle(n.stem, tag, true)
		for _, st := range n.synTerms {
			switch len(st) {
			case 0:
			case 1:
				addSingle(st[0], tag, false)
			default:
				idx.phrases[st[0]] = append(idx.phrases[st[0]], phrase{terms: st, tag: tag})
			}
		}
	}
	return idx
}

// Tag returns up to max tags (MaxTags when max <= 0) that describe text,
// deterministically and without a model: the text's stemmed words
// (embed.Terms) are matched against each tag's stem and its synonyms
// (one-word or phrases). Matched tags come first, most specific level first
// (attribute, then subcategory, then category), then the ones matched more
// often or by their own name rather than a synonym, then by first position
// in text, then alphabetically. When fewer than max tags matched, the
// parents of the matched tags fill the remaining places. Tag returns nil
// when nothing matched.
func (o *Ontology) Tag(text string, max int) []string {
	if max <= 0 {
		max = MaxTags
	}
	terms := embed.Terms(text)
	type cand struct {
		tag          string
		level, score int
		pos          int
	}
	cands := map[string]*cand{}
	bump := func(tag string, score, pos int) {
		c, ok := cands[tag]
		if !ok {
			c = &cand{tag: tag, level: o.nodes[tag].level, pos: pos}
			cands[tag] = c
		}
		c.score += score
	}
	for i, t := range terms {
		for _, h := range o.index.single[t] {
			score := 1 // a synonym
			if h.exact {
				score = 2 // the tag's own name
			}
			bump(h.tag, score, i)
		}
		for _, p := range o.index.phrases[t] {
			if i+len(p.terms) <= len(terms) && slices.Equal(terms[i:i+len(p.terms)], p.terms) {
				bump(p.tag, 2, i)
			}
		}
	}
	if len(cands) == 0 {
		return nil
	}
	ranked := make([]*cand, 0, len(cands))
	for _, c := range cands {
		ranked = append(ranked, c)
	}
	slices.SortFunc(ranked, func(a, b *cand) int {
		return cmp.Or(
			cmp.Compare(b.level, a.level),
			cmp.Compare(b.score, a.score),
			cmp.Compare(a.pos, b.pos),
			strings.Compare(a.tag, b.tag),
		)
	})
	out := make([]string, 0, max)
	for _, c := range ranked {
		if len(out) == max {
			return out
		}
		out = append(out, c.tag)
	}
	// Fill with ancestors: first the parents of the chosen tags, then theirs.
	for gen := out; len(out) < max && len(gen) > 0; {
		var next []string
		for _, t := range gen {
			p := o.nodes[t].parent
			if p == "" {
				continue
			}
			next = append(next, p)
			if len(out) < max && !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
		gen = next
	}
	return out
}

// Search finds tags for a query of one or more words: a tag equal to a
// word, sharing its stem, having it as a synonym, starting with or
// containing it, or lying under a category or subcategory that matches.
// Entries that match more of the query's words come first, then stronger
// matches, then shallower tags, then alphabetically. Search returns nil for
// a query without words.
func (o *Ontology) Search(q string) []Entry {
	words := embed.Words(q)
	if len(words) == 0 {
		return nil
	}
	whole := strings.Join(words, " ")
	stems := make([]string, len(words))
	for i, w := range words {
		stems[i] = embed.Stem(w)
	}
	type scored struct {
		tag            string
		matched, score int
		level          int
	}
	var found []scored
	for _, tag := range o.list {
		n := o.nodes[tag]
		s := scored{tag: tag, level: n.level}
		if whole == tag || slices.Contains(n.synonyms, whole) {
			s.score += 100
		}
		for i, w := range words {
			best := o.wordScore(n, w, stems[i])
			if best > 0 {
				s.matched++
				s.score += best
			}
		}
		if s.score > 0 {
			found = append(found, s)
		}
	}
	slices.SortFunc(found, func(a, b scored) int {
		return cmp.Or(
			cmp.Compare(b.matched, a.matched),
			cmp.Compare(b.score, a.score),
			cmp.Compare(a.level, b.level),
			strings.Compare(a.tag, b.tag),
		)
	})
	out := make([]Entry, len(found))
	for i, f := range found {
		out[i] = Entry{Tag: f.tag, Path: o.Path(f.tag), Synonyms: slices.Clone(o.nodes[f.tag].synonyms)}
	}
	return out
}

// minSubstring is the shortest query word matched inside a tag or synonym
// (shorter ones match too much: "run" in "brunch").
const minSubstring = 4

// wordScore is how well one query word (and its stem) matches node n.
func (o *Ontology) wordScore(n *node, w, stem string) int {
	switch {
	case n.tag == w:
		return 100
	case n.stem == stem:
		return 80
	}
	best := 0
	for _, s := range n.synonyms {
		switch {
		case s == w:
			return 60
		case len(w) >= minSubstring && strings.Contains(s, w):
			best = max(best, 20)
		}
	}
	for _, st := range n.synTerms {
		if slices.Contains(st, stem) {
			best = max(best, 50)
		}
	}
	switch {
	case len(w) >= 3 && strings.HasPrefix(n.tag, w):
		best = max(best, 40)
	case len(w) >= minSubstring && strings.Contains(n.tag, w):
		best = max(best, 30)
	}
	if best > 0 {
		return best
	}
	for p := o.nodes[n.parent]; p != nil; p = o.nodes[p.parent] {
		if p.tag == w || p.stem == stem {
			return 10
		}
	}
	return 0
}
