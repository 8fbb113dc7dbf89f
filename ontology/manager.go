package ontology

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fsnotify/fsnotify"
)

// File names inside the config directory.
const (
	FileName = "ontology.json" // the user's extensions of the default
	lockName = "ontology.lock" // cross-process lock for Add
)

// debounce is how long Watch waits after the last event on the file before
// reloading (editors write in several steps).
const debounce = 150 * time.Millisecond

// Manager owns the user's ontology file (<configDir>/ontology.json), which
// extends the embedded default, and keeps the current ontology up to date:
// Watch reloads it when the file changes, Add extends it. An invalid file
// never replaces a good ontology: the last good one stays and LastError
// says what is wrong. All methods are safe for concurrent use.
type Manager struct {
	dir, file, lock string
	logger          *slog.Logger
	base            *Ontology

	cur atomic.Pointer[Ontology]

	mu       sync.Mutex // serialises loads and Add
	lastData []byte     // the user file's bytes behind cur; nil when there was none
	loaded   bool

	stateMu sync.Mutex
	lastErr error
	subs    []chan struct{}

	onWatch func() // tests: called once the directory is watched
}

// NewManager creates configDir (0700) if needed, so that Watch can watch it
// before the user's file exists, and loads the default merged with
// <configDir>/ontology.json. A missing file means no extensions; an invalid
// one is logged and reported by LastError while the default is used. The
// error is only for a directory that cannot be created. A nil logger
// discards.
func NewManager(configDir string, logger *slog.Logger) (*Manager, error) {
	if configDir == "" {
		return nil, errors.New("ontology manager: empty config directory")
	}
	if err := os.MkdirAll(configDir, 0o700); err != nil {
		return nil, fmt.Errorf("ontology manager: %w", err)
	}
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	m := &Manager{
		dir:    configDir,
		file:   filepath.Join(configDir, FileName),
		lock:   filepath.Join(configDir, lockName),
		logger: logger,
		base:   Default(),
	}
	m.cur.Store(m.base)
	m.reload()
	return m, nil
}

// File returns the path of the user's ontology file.
func (m *Manager) File() string { return m.file }

// Current returns the current ontology (immutable; cheap to call).
func (m *Manager) Current() *Ontology { return m.cur.Load() }

// LastError returns why the last load failed (the file is invalid or
// unreadable) or nil when the last load succeeded. After a failure the
// previous good ontology stays current.
func (m *Manager) LastError() error {
	m.stateMu.Lock()
	defer m.stateMu.Unlock()
	return m.lastErr
}

// Subscribe returns a channel that receives a value after each load that
// changed the current ontology (a reload or an Add) and after each failed
// load (LastError then says why).
// Notifications coalesce: the channel holds at most one pending value, and
// a slow reader never blocks the Manager. Channels are never closed.
func (m *Manager) Subscribe() <-chan struct{} {
	ch := make(chan struct{}, 1)
	m.stateMu.Lock()
	m.subs = append(m.subs, ch)
	m.stateMu.Unlock()
	return ch
}

func (m *Manager) setErr(err error) {
	m.stateMu.Lock()
	m.lastErr = err
	m.stateMu.Unlock()
}

func (m *Manager) notify() {
	m.stateMu.Lock()
	defer m.stateMu.Unlock()
	for _, ch := range m.subs {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}

// parseUser parses the user's file; empty (or blank) means no extensions.
func parseUser(data []byte) (*Ontology, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return newBuilder().finish(), nil
	}
	return Parse(data)
}

// reload reads the user's file and, when it changed and is valid, makes
// default+file current.
func (m *Manager) reload() {
	m.mu.Lock()
	defer m.mu.Unlock()
	data, err := os.ReadFile(m.file)
	if errors.Is(err, fs.ErrNotExist) {
		data, err = nil, nil
	}
	if err != nil {
		m.fail(fmt.Errorf("load ontology %s: %w", m.file, err))
		return
	}
	if m.loaded && m.LastError() == nil && bytes.Equal(data, m.lastData) {
		return // unchanged (for instance our own Add, seen by the watcher)
	}
	user, err := parseUser(data)
	if err == nil {
		merged := m.base
		if user.Len() > 0 {
			merged, err = m.base.Merge(user)
		}
		if err == nil {
			m.publish(merged, data)
			m.logger.Info("ontology loaded", "file", m.file, "tags", merged.Len())
			return
		}
	}
	m.fail(fmt.Errorf("load ontology %s: %w", m.file, err))
}

func (m *Manager) fail(err error) {
	m.loaded = true
	m.setErr(err)
	m.logger.Warn("ontology file not loaded; keeping the last good ontology", "err", err)
	m.notify()
}

// publish makes o current; m.mu is held.
func (m *Manager) publish(o *Ontology, data []byte) {
	m.cur.Store(o)
	m.lastData = data
	m.loaded = true
	m.setErr(nil)
	m.notify()
}

// Watch reloads the ontology whenever <configDir>/ontology.json is written,
// created, renamed over or removed (removal means back to the default). It
// watches the directory, because editors save by writing a new file and
// renaming it over the old one, and waits for a short quiet period
// (150ms) before reloading. It reloads once at start, to catch changes made
// since NewManager. Watch blocks until ctx is done and then returns nil; it
// returns an error only when the watch cannot be set up.
func (m *Manager) Watch(ctx context.Context) error {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return fmt.Errorf("watch ontology: %w", err)
	}
	defer w.Close()
	if err := w.Add(m.dir); err != nil {
		return fmt.Errorf("watch ontology: %w", err)
	}
	if m.onWatch != nil {
		m.onWatch()
	}
	m.reload()
	timer := time.NewTimer(debounce)
	timer.Stop()
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case ev, ok := <-w.Events:
			if !ok {
				return nil
			}
			if filepath.Base(ev.Name) != FileName || ev.Op == fsnotify.Chmod {
				continue
			}
			timer.Reset(debounce)
		case err, ok := <-w.Errors:
			if !ok {
				return nil
			}
			m.logger.Warn("ontology watch", "err", err)
			timer.Reset(debounce) // events may have been lost (overflow): look again
		case <-timer.C:
			m.reload()
		}
	}
}

// Add adds tags under path and saves them in the user's file. path names an
// existing category (the tags become subcategories) or an existing
// category/subcategory (the tags become attributes). Every tag must be one
// lowercase word and absent from the whole tree. The file is changed under
// an in-process mutex and a cross-process lock (<configDir>/ontology.lock),
// re-read inside the lock so that concurrent writers (other goroutines or
// other mneme processes) never lose each other's tags, and replaced
// atomically (temp file, fsync, rename). Add returns the new current
// ontology. Errors wrap ErrInvalid, ErrDuplicate or ErrUnknownPath for bad
// arguments (an *Error names the place), or are I/O errors.
func (m *Manager) Add(path []string, tags []string) (*Ontology, error) {
	if err := checkAdd(path, tags); err != nil {
		return nil, fmt.Errorf("add to ontology: %w", err)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	unlock, err := lockFile(m.lock)
	if err != nil {
		return nil, fmt.Errorf("add to ontology: lock %s: %w", m.lock, err)
	}
	defer unlock()

	data, err := os.ReadFile(m.file)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("add to ontology: %w", err)
	}
	user, err := parseUser(data)
	if err != nil {
		return nil, fmt.Errorf("add to ontology: %s is invalid, fix it first: %w", m.file, err)
	}
	merged, err := m.base.Merge(user)
	if err != nil {
		return nil, fmt.Errorf("add to ontology: %s conflicts with the default, fix it first: %w", m.file, err)
	}
	if err := checkPlace(merged, path, tags); err != nil {
		return nil, fmt.Errorf("add to ontology: %w", err)
	}

	b := user.builder()
	for i := range path { // the path may exist only in the default so far
		if err := b.addMerge(path[:i+1], nil); err != nil {
			return nil, fmt.Errorf("add to ontology: %w", err)
		}
	}
	for _, t := range tags {
		if err := b.addStrict(append(slices.Clip(path), t), nil); err != nil {
			return nil, fmt.Errorf("add to ontology: %w", err)
		}
	}
	user = b.finish()
	out, err := user.MarshalJSON()
	if err != nil {
		return nil, fmt.Errorf("add to ontology: %w", err)
	}
	out = append(out, '\n')
	if merged, err = m.base.Merge(user); err != nil {
		return nil, fmt.Errorf("add to ontology: %w", err)
	}
	if err := writeAtomic(m.file, out); err != nil {
		return nil, fmt.Errorf("add to ontology: %w", err)
	}
	m.publish(merged, out)
	m.logger.Info("ontology extended", "path", strings.Join(path, "/"), "tags", tags)
	return merged, nil
}

// checkAdd validates Add's arguments on their own.
func checkAdd(path, tags []string) error {
	if len(path) < 1 || len(path) > 2 {
		return &Error{Path: path, Err: ErrInvalid,
			Msg: "path must name a category or a category/subcategory (new tags go one level below it)"}
	}
	for i, p := range path {
		if err := checkTag(path[:i+1], p); err != nil {
			return err
		}
	}
	if len(tags) == 0 {
		return &Error{Path: path, Err: ErrInvalid, Msg: "no tags to add"}
	}
	for i, t := range tags {
		where := append(slices.Clip(path), t)
		if err := checkTag(where, t); err != nil {
			return err
		}
		if slices.Contains(tags[:i], t) {
			return &Error{Path: where, Err: ErrDuplicate, Msg: fmt.Sprintf("tag %q is listed twice", t)}
		}
	}
	return nil
}

// checkPlace checks that path exists in o at the right levels and that no
// tag is in o yet.
func checkPlace(o *Ontology, path, tags []string) error {
	for i, p := range path {
		got := o.Path(p)
		if !slices.Equal(got, path[:i+1]) {
			msg := fmt.Sprintf("%q is not a %s", p, [...]string{"category", "subcategory"}[i])
			if got != nil {
				msg += " here (it is at " + strings.Join(got, "/") + ")"
			}
			return &Error{Path: path[:i+1], Err: ErrUnknownPath, Msg: msg}
		}
	}
	for _, t := range tags {
		if where := o.Path(t); where != nil {
			return &Error{Path: append(slices.Clip(path), t), Err: ErrDuplicate,
				Msg: fmt.Sprintf("tag %q is already at %s", t, strings.Join(where, "/"))}
		}
	}
	return nil
}

// writeAtomic replaces file with data: a temp file in the same directory,
// fsync, rename, then a best-effort fsync of the directory.
func writeAtomic(file string, data []byte) error {
	dir := filepath.Dir(file)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(file)+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // fails harmlessly after the rename
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), file); err != nil {
		return err
	}
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync() // not supported everywhere (Windows); the rename is what matters
		d.Close()
	}
	return nil
}
