package cli

import (
	"flag"
	"io"
	"slices"
	"testing"
)

func TestReorder(t *testing.T) {
	tests := []struct {
		name string
		args []string
		tags []string
		json bool
		pos  []string
	}{
		{"flags after text", []string{"likes tea", "--tag", "food"}, []string{"food"}, false, []string{"likes tea"}},
		{"flags before text", []string{"--tag", "food", "likes tea"}, []string{"food"}, false, []string{"likes tea"}},
		{"repeated flag", []string{"--tag", "a", "x", "--tag", "b"}, []string{"a", "b"}, false, []string{"x"}},
		{"comma list", []string{"x", "--tag", "a,b"}, []string{"a", "b"}, false, []string{"x"}},
		{"equals form", []string{"x", "--tag=a", "-tag=b"}, []string{"a", "b"}, false, []string{"x"}},
		{"bool takes no value", []string{"--json", "x", "y"}, nil, true, []string{"x", "y"}},
		{"bool after text", []string{"x", "--json"}, nil, true, []string{"x"}},
		{"double dash ends flags", []string{"x", "--", "--tag", "y"}, nil, false, []string{"x", "--tag", "y"}},
		{"flag before double dash", []string{"--tag", "a", "--", "-x"}, []string{"a"}, false, []string{"-x"}},
		{"lone dash is positional", []string{"-", "--json"}, nil, true, []string{"-"}},
		{"value that looks like a flag", []string{"--tag", "--json", "x"}, []string{"--json"}, false, []string{"x"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := flag.NewFlagSet("t", flag.ContinueOnError)
			var tags stringList
			fs.Var(&tags, "tag", "")
			js := fs.Bool("json", false, "")
			if err := fs.Parse(reorder(fs, tt.args)); err != nil {
				t.Fatalf("parse %q: %v", tt.args, err)
			}
			if !slices.Equal(tags, tt.tags) {
				t.Errorf("tags = %q, want %q", tags, tt.tags)
			}
			if *js != tt.json {
				t.Errorf("json = %v, want %v", *js, tt.json)
			}
			if got := fs.Args(); !slices.Equal(got, tt.pos) {
				t.Errorf("positional = %q, want %q", got, tt.pos)
			}
		})
	}
}

func TestReorderUnknownFlagIsReported(t *testing.T) {
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Bool("json", false, "")
	if err := fs.Parse(reorder(fs, []string{"text", "--nope"})); err == nil {
		t.Fatal("unknown flag after text parsed without error")
	}
}

func TestReorderMissingValue(t *testing.T) {
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.String("time", "", "")
	if err := fs.Parse(reorder(fs, []string{"text", "--time"})); err == nil {
		t.Fatal("flag without its value parsed without error")
	}
}
