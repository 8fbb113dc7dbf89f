package timeexpr

import (
	"testing"
	"time"
)

// BenchmarkFindAll measures FindAll on a typical stored chat sentence of about 200 characters,
// without a time expression (most memories) and with one ("last Friday"). The search index runs
// FindAll over every memory's text when it loads.
func BenchmarkFindAll(b *testing.B) {
	now := time.Date(2023, 11, 21, 14, 0, 0, 0, time.UTC)
	for _, c := range []struct{ name, text string }{
		{"plain", "I finally got the sourdough starter going again, and the loaf came out with a much better crust. " +
			"My sister thinks I should try rye flour next, but I am not sure the kitchen is warm enough for it."},
		{"lastFriday", "I finally got the sourdough starter going again last Friday, and the loaf came out with a much " +
			"better crust. My sister thinks I should try rye flour next, but I am not sure the kitchen is warm."},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				FindAll(c.text, now, time.UTC)
			}
		})
	}
}
