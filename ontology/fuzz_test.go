package ontology

import (
	"errors"
	"slices"
	"testing"
)

// FuzzParse: Parse never panics; what it accepts is a valid tree that
// survives a MarshalJSON round trip and merges with itself and the default
// without change or panic; what it rejects is an *Error.
func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"food": {"cuisine": ["italian", "thai"]}}`))
	f.Add([]byte(`{"food": {"cuisine": {"italian": ["pasta", "pizza place"]}}, "x": null}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		o, err := Parse(data)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v is not an *Error", err)
			}
			return
		}
		for _, tag := range o.List() {
			p := o.Path(tag)
			if !ValidTag(tag) || len(p) < 1 || len(p) > 3 || p[len(p)-1] != tag {
				t.Fatalf("accepted tag %q at %v", tag, p)
			}
		}
		out, err := o.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		back, err := Parse(out)
		if err != nil {
			t.Fatalf("round trip: %v\n%s", err, out)
		}
		if !slices.Equal(back.List(), o.List()) || back.Render() != o.Render() {
			t.Fatalf("round trip changed the tree:\n%s\n%s", o.Render(), back.Render())
		}
		if self, err := o.Merge(o); err != nil || self.Len() != o.Len() {
			t.Fatalf("merge with itself: %v", err)
		}
		if m, err := Default().Merge(o); err == nil && m.Len() < Default().Len() {
			t.Fatal("merge lost tags")
		}
		_ = o.Tag(string(data), 3)
		_ = o.Search(string(data))
	})
}
