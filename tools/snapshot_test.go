package tools

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden tool schema snapshots in testdata")

// TestToolSnapshots compares every tool's schema (the JSON clients see in
// tools/list) with its golden file testdata/<name>.snap. A missing snapshot
// fails; run `go test ./tools -update` to write or refresh them after an
// intended change, and review the diff. Anchor: github-mcp-server
// internal/toolsnaps.
func TestToolSnapshots(t *testing.T) {
	for _, st := range All(Deps{}) {
		t.Run(st.Tool.Name, func(t *testing.T) {
			got, err := snapshotJSON(st.Tool)
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", st.Tool.Name+".snap")
			if *update {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if errors.Is(err, fs.ErrNotExist) {
				t.Fatalf("no snapshot %s: run `go test ./tools -update` and review it", path)
			}
			if err != nil {
				t.Fatal(err)
			}
			var g, w any
			if err := json.Unmarshal(got, &g); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(want, &w); err != nil {
				t.Fatalf("snapshot %s is not JSON: %v", path, err)
			}
			if diffs := jsonDiff("", w, g, nil); len(diffs) > 0 {
				t.Errorf("schema of %s differs from %s; if intended, run `go test ./tools -update` and review:\n%s", st.Tool.Name, path, strings.Join(diffs, "\n"))
			}
		})
	}
}

// snapshotJSON is the tool's JSON with keys sorted at every level, indented.
func snapshotJSON(v any) ([]byte, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var tree any
	if err := json.Unmarshal(raw, &tree); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(tree); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// jsonDiff lists the paths where two decoded JSON trees differ, as
// "path: want X, got Y".
func jsonDiff(path string, want, got any, out []string) []string {
	wm, wok := want.(map[string]any)
	gm, gok := got.(map[string]any)
	if wok && gok {
		keys := make([]string, 0, len(wm)+len(gm))
		for k := range wm {
			keys = append(keys, k)
		}
		for k := range gm {
			if _, ok := wm[k]; !ok {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		for _, k := range keys {
			out = jsonDiff(path+"/"+k, wm[k], gm[k], out)
		}
		return out
	}
	if !reflect.DeepEqual(want, got) {
		w, _ := json.Marshal(want)
		g, _ := json.Marshal(got)
		out = append(out, fmt.Sprintf("%s: want %s, got %s", path, w, g))
	}
	return out
}

// TestNoStaleSnapshots fails for a snapshot whose tool is gone, so removed
// tools do not leave schemas behind.
func TestNoStaleSnapshots(t *testing.T) {
	names := map[string]bool{}
	for _, st := range All(Deps{}) {
		names[st.Tool.Name] = true
	}
	files, err := filepath.Glob(filepath.Join("testdata", "*.snap"))
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range files {
		if name := strings.TrimSuffix(filepath.Base(file), ".snap"); !names[name] {
			t.Errorf("%s has no tool %q: delete it", file, name)
		}
	}
}
