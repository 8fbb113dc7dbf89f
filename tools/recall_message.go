package tools

import (
	"context"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mneme-mcp/mneme/memory"
	"github.com/mneme-mcp/mneme/prompts"
)

// DefaultMessageMinProbability is the recall probability below which
// recall in message mode drops a hit when no model judges relevance (Hou
// et al.'s recall trigger; min_probability overrides it).
//
// Measured on LoCoMo (1,982 questions, built-in embedder, the store's
// default ranking with its ten-year decay unit; MNEME_MEASURE=1 go test -run
// TestMeasureMessageThreshold ./tools), top 5 hits, asked at the question's
// time (months after the conversation) / an hour after the newest evidence:
//
//	threshold  recall@5         non-evidence hits dropped
//	0 (none)   0.695 / 0.701     0.0% /  0.0%
//	0.30       0.689 / 0.698     2.8% /  2.2%
//	0.40       0.681 / 0.691     9.3% /  8.1%
//	0.44       0.675 / 0.684    13.2% / 11.7%
//	0.46       0.672 / 0.682    15.7% / 13.9%
//	0.50       0.662 / 0.677    21.6% / 19.0%
//	0.86       0.373 / 0.396    84.9% / 83.7%
//
// (Re-measured after the ranking moved from a one-year to a ten-year decay
// unit; the choice stayed 0.44.)
// 0.44 is the highest threshold that loses at most 2 points of recall@5 in
// both settings. It drops only a tenth of the hits outside the evidence:
// our probability is p_n(t) with r normalised per query (the best
// candidate's relevance is near 1 whatever the question), so it orders the
// hits of one question well but says little about whether any of them is
// relevant. Hou et al.'s 0.86 sits on their scale, where r is a cosine of
// sentence embeddings and t counts hours since a conversation's last
// recall; on ours (t in ten-year units, r normalised per query) it would lose
// most of recall@5. A judging model (the relevance filter through sampling)
// is what can say "nothing relevant" reliably.
const DefaultMessageMinProbability = 0.44

// RecallDecisions says what recall decided in message mode (CAIM's memory
// controller and memory retrieval).
type RecallDecisions struct {
	MemoryNeeded bool     `json:"memory_needed" jsonschema:"whether the message needs remembered information"`
	Source       string   `json:"source" jsonschema:"where the information is: long-term (mneme), conversation (the current conversation, nothing recalled) or both"`
	Tags         []string `json:"tags" jsonschema:"ontology tags used to favour memories"`
	Window       string   `json:"window,omitempty" jsonschema:"the time expression found in the message, if any"`
	Filter       string   `json:"filter" jsonschema:"how irrelevant memories were left out: relevance-filter (the model judged) or threshold (recall probability)"`
	Threshold    float64  `json:"threshold,omitempty" jsonschema:"the recall probability threshold applied"`
	FilteredOut  int      `json:"filtered_out" jsonschema:"how many found memories were left out as not relevant"`
	Sampling     bool     `json:"sampling" jsonschema:"true when the client's model made the decisions"`
	Fallbacks    []string `json:"fallbacks,omitempty" jsonschema:"steps where the model's answer was not usable, and what was done instead"`
}

// Sampling request ids of message mode.
const (
	idController = "memory-controller"
	idQueryTags  = "select-tags"
	idRelevance  = "relevance-filter"
	// relevancePool is how many hits the relevance filter chooses from,
	// at least the limit.
	relevancePool = 10
)

// recallMessage answers recall with message: CAIM's chain of memory
// controller (is memory needed, and where), tag selection, time (timeexpr
// on the message, by the store) and retrieval, then the relevance filter.
// With sampling the client's model decides the first two and judges
// relevance (controller and tags in one round, relevance in a second);
// without it, tags come from the ontology's tagger and hits below the
// recall probability threshold are dropped.
func (d Deps) recallMessage(ctx context.Context, req mcp.CallToolRequest, in RecallInput, cs callScope) (RecallOutput, string, *mcp.CallToolResult, error) {
	msg := strings.TrimSpace(in.Message)
	if strings.TrimSpace(in.Query) != "" {
		return RecallOutput{}, "", nil, invalidf("give either query (your search words) or message (the user's message as written), not both")
	}
	probe := in
	probe.Message, probe.Query = "", msg
	q, err := d.query(probe, d.searchScopes(cs))
	if err != nil {
		return RecallOutput{}, "", nil, err
	}
	reinforce := q.Reinforce
	q.Reinforce, q.MinProbability = false, 0
	dec := &RecallDecisions{MemoryNeeded: true, Source: prompts.SourceLongTerm, Tags: q.Tags}
	threshold := DefaultMessageMinProbability
	if in.MinProbability > 0 {
		threshold = in.MinProbability
	}
	s := d.newSampler(ctx, req)
	if cs.pending && !s.available() { // else the roots ride with the first round
		return RecallOutput{}, "", d.askRoots(req), nil
	}
	s.carry(&cs)
	dec.Sampling = s.available()
	o := d.tree()
	if dec.Sampling {
		ctrl, err := prompts.Render(prompts.MemoryController, prompts.ControllerData{Message: msg})
		if err != nil {
			return RecallOutput{}, "", nil, err
		}
		reqs := []sampleRequest{ask(idController, "", ctrl, 60)}
		if len(in.Tags) == 0 {
			tp, err := prompts.Render(prompts.SelectTags, prompts.SelectTagsData{Ontology: o.Render(), Items: []string{msg}})
			if err != nil {
				return RecallOutput{}, "", nil, err
			}
			reqs = append(reqs, ask(idQueryTags, "", tp, 60))
		}
		answers, pending := s.ask(reqs)
		if pending != nil {
			return RecallOutput{}, "", pending, nil
		}
		d.controllerDecision(answers[idController], dec)
		if len(in.Tags) == 0 {
			d.queryTags(answers[idQueryTags], msg, dec)
			q.Tags = dec.Tags
		}
		if !dec.MemoryNeeded || dec.Source == prompts.SourceConversation {
			return d.noRecall(dec)
		}
		q.Limit = max(q.Limit, relevancePool)
	}
	if dec.Tags == nil {
		dec.Tags = []string{}
	}
	res, err := d.Store.Recall(ctx, q)
	if err != nil {
		return RecallOutput{}, "", nil, err
	}
	if res.Window != nil {
		dec.Window = res.Window.Expr
	}
	hits := res.Hits
	judged := false
	if dec.Sampling && len(hits) > 0 {
		items := make([]prompts.Item, len(hits))
		for i, h := range hits {
			items[i] = prompts.Item{Time: d.day(h.Memory.Time), Text: h.Memory.Content}
		}
		rp, err := prompts.Render(prompts.RelevanceFilter, prompts.RelevanceData{Question: msg, Memories: items})
		if err != nil {
			return RecallOutput{}, "", nil, err
		}
		answers, pending := s.ask([]sampleRequest{ask(idRelevance, "", rp, 100)})
		if pending != nil {
			return RecallOutput{}, "", pending, nil
		}
		if kept, ok := d.relevant(answers[idRelevance], len(hits), dec); ok {
			judged = true
			picked := make([]memory.Hit, 0, len(kept))
			for _, k := range kept {
				picked = append(picked, hits[k-1])
			}
			dec.Filter, dec.FilteredOut = "relevance-filter", len(hits)-len(picked)
			hits = picked[:min(len(picked), limitOf(in))]
		}
	}
	if !judged {
		kept := hits[:0:0]
		for _, h := range hits {
			if h.Score.Probability >= threshold {
				kept = append(kept, h)
			}
		}
		dec.Filter, dec.Threshold, dec.FilteredOut = "threshold", threshold, len(hits)-len(kept)
		hits = kept[:min(len(kept), limitOf(in))]
	}
	out, text := d.show(hits, res.Window, q.Offset, res.More && len(hits) == limitOf(in))
	out.Decisions = dec
	if reinforce {
		if err := d.reinforceShown(ctx, out); err != nil {
			return RecallOutput{}, "", nil, err
		}
	}
	return out, decisionLine(dec) + text, nil, nil
}

// limitOf is the number of memories asked for.
func limitOf(in RecallInput) int {
	if in.Limit > 0 {
		return in.Limit
	}
	return memory.DefaultLimit
}

// controllerDecision reads the memory controller's answer into dec; an
// unusable answer searches long-term memory anyway.
func (d Deps) controllerDecision(a answer, dec *RecallDecisions) {
	if !a.ok() {
		dec.Fallbacks = append(dec.Fallbacks, "memory-controller: "+a.why()+", searched long-term memory anyway")
		return
	}
	needed, source, err := prompts.ParseController(a.Text)
	switch {
	case err != nil && !needed && source == "":
		// Q1 missing or contradictory: not a decision to trust.
		if strings.Contains(err.Error(), "no answer to Q1") {
			dec.Fallbacks = append(dec.Fallbacks, "memory-controller: reply unparseable, searched long-term memory anyway")
			return
		}
		dec.MemoryNeeded = false
	case !needed:
		dec.MemoryNeeded = false
	case source == "":
		dec.Fallbacks = append(dec.Fallbacks, "memory-controller: no source given, searched long-term memory")
	default:
		dec.Source = source
	}
	if !dec.MemoryNeeded {
		dec.Source = ""
	}
}

// queryTags reads the selected tags, keeping those of the ontology; with
// none usable the tagger's are kept.
func (d Deps) queryTags(a answer, msg string, dec *RecallDecisions) {
	o := d.tree()
	var tags []string
	if a.ok() {
		lists, _ := prompts.ParseTags(a.Text, 1)
		if len(lists) == 1 {
			for _, t := range lists[0] {
				if o.Has(t) {
					tags = appendNew(tags, t)
				}
			}
			if lists[0] != nil && len(lists[0]) == 0 {
				dec.Tags = []string{} // NONE: no topic to favour
				return
			}
		}
	}
	if len(tags) == 0 {
		why := "reply unparseable"
		if !a.ok() {
			why = a.why()
		}
		dec.Fallbacks = append(dec.Fallbacks, "select-tags: "+why+", used the deterministic tagger")
		tags = o.Tag(msg, 0)
	}
	dec.Tags = tags
}

// relevant reads the relevance filter's answer: the 1-based numbers of the
// hits to keep, best first. ok is false when the answer is unusable.
func (d Deps) relevant(a answer, n int, dec *RecallDecisions) ([]int, bool) {
	if !a.ok() {
		dec.Fallbacks = append(dec.Fallbacks, "relevance-filter: "+a.why()+", used the recall probability threshold")
		return nil, false
	}
	kept, err := prompts.ParseRelevant(a.Text, n)
	if err != nil && len(kept) == 0 {
		dec.Fallbacks = append(dec.Fallbacks, "relevance-filter: reply unparseable, used the recall probability threshold")
		return nil, false
	}
	return kept, true
}

// noRecall is the answer when the controller decided against long-term
// memory.
func (d Deps) noRecall(dec *RecallDecisions) (RecallOutput, string, *mcp.CallToolResult, error) {
	if dec.Tags == nil {
		dec.Tags = []string{}
	}
	out := RecallOutput{Memories: []RecalledMemory{}, Decisions: dec}
	return out, strings.TrimRight(decisionLine(dec), "\n"), nil, nil
}

// decisionLine says in one line what message mode decided.
func decisionLine(dec *RecallDecisions) string {
	var b strings.Builder
	switch {
	case !dec.MemoryNeeded:
		b.WriteString("memory not needed for this message: answer from the message itself")
	case dec.Source == prompts.SourceConversation:
		b.WriteString("the answer is in the current conversation: nothing recalled")
	default:
		fmt.Fprintf(&b, "searched %s memory", dec.Source)
		if len(dec.Tags) > 0 {
			fmt.Fprintf(&b, " favouring %s", strings.Join(dec.Tags, ", "))
		}
		if dec.Filter == "threshold" {
			fmt.Fprintf(&b, "; left out %d below recall probability %.2f", dec.FilteredOut, dec.Threshold)
		} else if dec.Filter != "" {
			fmt.Fprintf(&b, "; left out %d judged not relevant", dec.FilteredOut)
		}
	}
	for _, f := range dec.Fallbacks {
		fmt.Fprintf(&b, "\nfallback: %s", f)
	}
	b.WriteByte('\n')
	return b.String()
}
