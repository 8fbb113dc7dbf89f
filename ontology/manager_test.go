package ontology

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// reloadWithin is how soon a change of the file must show in Current.
const reloadWithin = time.Second

func newManager(t *testing.T, dir string) *Manager {
	t.Helper()
	m, err := NewManager(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// watch runs m.Watch until the test ends and returns once the directory is
// watched.
func watch(t *testing.T, m *Manager) {
	t.Helper()
	ready := make(chan struct{})
	m.onWatch = func() { close(ready) }
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- m.Watch(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Watch: %v", err)
		}
	})
	select {
	case <-ready:
	case err := <-done:
		t.Fatalf("Watch returned early: %v", err)
	case <-time.After(5 * time.Second):
		t.Fatal("Watch did not start")
	}
}

// waitFor waits on sub until cond holds, failing after reloadWithin.
func waitFor(t *testing.T, sub <-chan struct{}, what string, cond func() bool) {
	t.Helper()
	deadline := time.After(reloadWithin)
	for !cond() {
		select {
		case <-sub:
		case <-deadline:
			t.Fatalf("not within %v: %s", reloadWithin, what)
		}
	}
}

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestNewManager(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "b")
	m := newManager(t, dir)
	if runtime.GOOS != "windows" {
		if fi, err := os.Stat(dir); err != nil || fi.Mode().Perm() != 0o700 {
			t.Errorf("config dir: %v, %v", fi.Mode(), err)
		}
	}
	if m.Current() != Default() || m.LastError() != nil {
		t.Errorf("without a file: %v tags, err %v", m.Current().Len(), m.LastError())
	}
	if m.File() != filepath.Join(dir, "ontology.json") {
		t.Errorf("File = %s", m.File())
	}
	if _, err := NewManager("", nil); err == nil {
		t.Error("empty dir accepted")
	}

	// A user file is merged at start.
	dir2 := t.TempDir()
	writeFile(t, filepath.Join(dir2, FileName), `{"food": {"cuisine": ["ethiopian"]}}`)
	if m := newManager(t, dir2); !m.Current().Has("ethiopian") || !m.Current().Has("dog") {
		t.Error("user file not merged at start")
	}
	// An invalid one leaves the default and says why.
	dir3 := t.TempDir()
	writeFile(t, filepath.Join(dir3, FileName), `{"food": {"cuisine": ["Ethiopian"]}}`)
	m3 := newManager(t, dir3)
	if m3.Current().Len() != Default().Len() || m3.LastError() == nil ||
		!strings.Contains(m3.LastError().Error(), "food/cuisine/Ethiopian") {
		t.Errorf("invalid file at start: %d tags, err %v", m3.Current().Len(), m3.LastError())
	}
	// A blank file is no extensions.
	dir4 := t.TempDir()
	writeFile(t, filepath.Join(dir4, FileName), " \n")
	if m4 := newManager(t, dir4); m4.LastError() != nil {
		t.Errorf("blank file: %v", m4.LastError())
	}
}

func TestHotReload(t *testing.T) {
	dir := t.TempDir()
	m := newManager(t, dir)
	sub := m.Subscribe()
	watch(t, m)
	file := filepath.Join(dir, FileName)
	has := func(tag string) func() bool { return func() bool { return m.Current().Has(tag) } }

	// The file is created after the watch started.
	writeFile(t, file, `{"food": {"cuisine": ["ethiopian"]}}`)
	waitFor(t, sub, "created file picked up", has("ethiopian"))

	// Written in place.
	writeFile(t, file, `{"food": {"cuisine": ["ethiopian", "peruvian"]}}`)
	waitFor(t, sub, "in-place write picked up", has("peruvian"))

	// Saved the way editors do: a new file renamed over the old one.
	tmp := filepath.Join(dir, "ontology.json.swp")
	writeFile(t, tmp, `{"food": {"cuisine": ["ethiopian", "peruvian", "georgian"]}}`)
	if err := os.Rename(tmp, file); err != nil {
		t.Fatal(err)
	}
	waitFor(t, sub, "renamed file picked up", has("georgian"))

	// Invalid: the last good ontology stays and LastError says why.
	writeFile(t, file, `{"food": {"cuisine": ["ethiopian", "Peru vian"]}}`)
	waitFor(t, sub, "invalid file reported", func() bool { return m.LastError() != nil })
	if !m.Current().Has("georgian") {
		t.Error("last good ontology lost")
	}
	if err := m.LastError(); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "food/cuisine/Peru vian") {
		t.Errorf("LastError = %v", err)
	}

	// Fixed: the error clears.
	writeFile(t, file, `{"food": {"cuisine": ["ethiopian", "peruvian", "georgian", "uzbek"]}}`)
	waitFor(t, sub, "fixed file picked up", func() bool { return m.LastError() == nil && m.Current().Has("uzbek") })

	// Other files in the directory are ignored; removal means the default.
	writeFile(t, filepath.Join(dir, "notes.json"), `{`)
	if err := os.Remove(file); err != nil {
		t.Fatal(err)
	}
	waitFor(t, sub, "removed file back to the default", func() bool { return !m.Current().Has("uzbek") })
	if m.LastError() != nil || m.Current().Len() != Default().Len() {
		t.Errorf("after removal: %d tags, err %v", m.Current().Len(), m.LastError())
	}
}

func TestAdd(t *testing.T) {
	dir := t.TempDir()
	m := newManager(t, dir)
	sub := m.Subscribe()

	o, err := m.Add([]string{"food", "cuisine"}, []string{"ethiopian", "peruvian"})
	if err != nil {
		t.Fatal(err)
	}
	if o != m.Current() || !slices.Equal(o.Path("peruvian"), []string{"food", "cuisine", "peruvian"}) {
		t.Errorf("Add result: %v", o.Path("peruvian"))
	}
	select {
	case <-sub:
	default:
		t.Error("Add did not notify")
	}
	if _, err := m.Add([]string{"hobbies"}, []string{"origami"}); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Add([]string{"hobbies", "origami"}, []string{"cranes"}); err != nil {
		t.Fatal(err)
	}
	if got := m.Current().Path("cranes"); !slices.Equal(got, []string{"hobbies", "origami", "cranes"}) {
		t.Errorf("Path(cranes) = %v", got)
	}

	// The file holds only the user's additions, in the documented shape.
	data, err := os.ReadFile(filepath.Join(dir, FileName))
	if err != nil {
		t.Fatal(err)
	}
	user, err := Parse(data)
	if err != nil {
		t.Fatalf("written file does not parse: %v\n%s", err, data)
	}
	want := []string{"cranes", "cuisine", "ethiopian", "food", "hobbies", "origami", "peruvian"}
	if !slices.Equal(user.List(), want) {
		t.Errorf("file holds %v, want %v", user.List(), want)
	}
	if runtime.GOOS != "windows" {
		if fi, _ := os.Stat(filepath.Join(dir, FileName)); fi.Mode().Perm() != 0o600 {
			t.Errorf("file mode %v", fi.Mode())
		}
	}
	if tmps, _ := filepath.Glob(filepath.Join(dir, "*.tmp")); len(tmps) > 0 {
		t.Errorf("temp files left: %v", tmps)
	}
	// Another manager on the directory sees them.
	if !newManager(t, dir).Current().Has("cranes") {
		t.Error("a new manager does not see added tags")
	}

	bad := []struct {
		name       string
		path, tags []string
		sentinel   error
		want       string
	}{
		{"no path", nil, []string{"x"}, ErrInvalid, "path must name"},
		{"too deep", []string{"food", "cuisine", "italian"}, []string{"x"}, ErrInvalid, "path must name"},
		{"no tags", []string{"food"}, nil, ErrInvalid, "no tags"},
		{"two words", []string{"food"}, []string{"street food"}, ErrInvalid, "food/street food"},
		{"uppercase", []string{"food"}, []string{"Street"}, ErrInvalid, "lowercase"},
		{"listed twice", []string{"food"}, []string{"street", "street"}, ErrDuplicate, "twice"},
		{"exists", []string{"food", "cuisine"}, []string{"dog"}, ErrDuplicate, "already at pets/companions/dog"},
		{"exists as user tag", []string{"food", "cuisine"}, []string{"ethiopian"}, ErrDuplicate, "already at food/cuisine/ethiopian"},
		{"unknown category", []string{"nosuch"}, []string{"x"}, ErrUnknownPath, "nosuch"},
		{"wrong level", []string{"cuisine"}, []string{"x"}, ErrUnknownPath, "food/cuisine"},
		{"wrong parent", []string{"pets", "cuisine"}, []string{"x"}, ErrUnknownPath, "pets/cuisine"},
	}
	for _, c := range bad {
		if _, err := m.Add(c.path, c.tags); !errors.Is(err, c.sentinel) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Add = %v, want %v containing %q", c.name, err, c.sentinel, c.want)
		}
	}

	// A broken file is not overwritten.
	writeFile(t, filepath.Join(dir, FileName), `{"food": [`)
	if _, err := m.Add([]string{"food"}, []string{"street"}); err == nil || !strings.Contains(err.Error(), "fix it first") {
		t.Errorf("Add over a broken file: %v", err)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, FileName)); string(data) != `{"food": [` {
		t.Errorf("broken file overwritten: %s", data)
	}
}

// Concurrent Adds from goroutines and from two Managers (as two processes
// would be) on one directory never lose a tag.
func TestAddConcurrent(t *testing.T) {
	dir := t.TempDir()
	managers := []*Manager{newManager(t, dir), newManager(t, dir)}
	const goroutines, perGoroutine = 8, 4
	var wg sync.WaitGroup
	var want []string
	errs := make(chan error, len(managers)*goroutines*perGoroutine)
	for mi, m := range managers {
		for g := range goroutines {
			var tags []string
			for i := range perGoroutine {
				tags = append(tags, fmt.Sprintf("m%dg%dt%d", mi, g, i))
			}
			want = append(want, tags...)
			wg.Go(func() {
				for i, tag := range tags {
					path := []string{"hobbies", "games"}
					if i%2 == 1 {
						path = []string{"hobbies"} // a subcategory this time
					}
					if _, err := m.Add(path, []string{tag}); err != nil {
						errs <- err
					}
				}
			})
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	got := newManager(t, dir).Current()
	for _, tag := range want {
		if !got.Has(tag) {
			t.Errorf("tag %s lost", tag)
		}
	}
	if got.Len() != Default().Len()+len(want) {
		t.Errorf("%d tags, want %d", got.Len(), Default().Len()+len(want))
	}
}
