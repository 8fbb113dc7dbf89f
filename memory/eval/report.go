package eval

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
)

// Report is the outcome of a Run. As JSON:
//
//	{"all": {"n": 1982, "recall@1": 0.3, ..., "hit@10": 0.7},
//	 "by_category": {"temporal": {...}, ...},
//	 "ingest_per_s": 850.1, "recall_ms_p50": 1.2, "recall_ms_p95": 3.4}
type Report struct {
	All         Metrics            `json:"all"`
	ByCategory  map[string]Metrics `json:"by_category"`
	IngestPerS  float64            `json:"ingest_per_s"`
	RecallMsP50 float64            `json:"recall_ms_p50"`
	RecallMsP95 float64            `json:"recall_ms_p95"`
}

// Metrics are the scores of a set of questions: N questions, and by cut-off
// k the mean recall@k and hit@k. As JSON the maps are flattened into keys
// "n", "recall@k" and "hit@k".
type Metrics struct {
	N      int
	Recall map[int]float64
	Hit    map[int]float64
}

// MarshalJSON writes {"n", "recall@k"..., "hit@k"...} with k ascending.
func (m Metrics) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, `{"n":%d`, m.N)
	for _, part := range []struct {
		name string
		vals map[int]float64
	}{{"recall", m.Recall}, {"hit", m.Hit}} {
		for _, k := range slices.Sorted(maps.Keys(part.vals)) {
			v, err := json.Marshal(part.vals[k])
			if err != nil {
				return nil, err
			}
			fmt.Fprintf(&b, `,"%s@%d":%s`, part.name, k, v)
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// UnmarshalJSON reads what MarshalJSON writes.
func (m *Metrics) UnmarshalJSON(data []byte) error {
	var raw map[string]float64
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	*m = Metrics{Recall: map[int]float64{}, Hit: map[int]float64{}}
	for key, v := range raw {
		name, k, ok := strings.Cut(key, "@")
		switch {
		case key == "n":
			m.N = int(v)
		case ok && (name == "recall" || name == "hit"):
			n, err := strconv.Atoi(k)
			if err != nil {
				return fmt.Errorf("eval: bad metric key %q", key)
			}
			if name == "recall" {
				m.Recall[n] = v
			} else {
				m.Hit[n] = v
			}
		default:
			return fmt.Errorf("eval: unknown metric key %q", key)
		}
	}
	return nil
}

// Table renders the report for people: one row for all questions and one
// per category, then speed.
func (r Report) Table() string {
	var b strings.Builder
	ks := slices.Sorted(maps.Keys(r.All.Recall))
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "\tn\t")
	for _, k := range ks {
		fmt.Fprintf(tw, "R@%d\t", k)
	}
	for _, k := range ks {
		fmt.Fprintf(tw, "hit@%d\t", k)
	}
	fmt.Fprintln(tw)
	row := func(name string, m Metrics) {
		fmt.Fprintf(tw, "%s\t%d\t", name, m.N)
		for _, k := range ks {
			fmt.Fprintf(tw, "%.3f\t", m.Recall[k])
		}
		for _, k := range ks {
			fmt.Fprintf(tw, "%.3f\t", m.Hit[k])
		}
		fmt.Fprintln(tw)
	}
	row("all", r.All)
	for _, c := range slices.Sorted(maps.Keys(r.ByCategory)) {
		row(c, r.ByCategory[c])
	}
	tw.Flush()
	fmt.Fprintf(&b, "ingest %.0f memories/s, recall p50 %.2f ms, p95 %.2f ms\n", r.IngestPerS, r.RecallMsP50, r.RecallMsP95)
	return b.String()
}
