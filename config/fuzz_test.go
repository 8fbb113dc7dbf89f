package config

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

// FuzzConfigFile feeds arbitrary bytes to Load as config.toml, found both
// in the config directory and through MNEME_CONFIG. Load must return a
// config or an error, never panic; an error names the file; both ways of
// finding the file agree; a loaded config can be validated and asked for
// its zone, clock and database path; and writing it back as TOML and
// loading that gives the same config.
//
// Run it with: go test -run='^$' -fuzz=FuzzConfigFile -fuzztime=30s ./config
func FuzzConfigFile(f *testing.F) {
	// One directory for every input: a fuzzing process runs its inputs one
	// after the other, and each writes the file anew.
	root := f.TempDir()
	dir := filepath.Join(root, "config", "mneme")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		f.Fatal(err)
	}
	path := filepath.Join(dir, "config.toml")
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		vars := map[string]string{
			"XDG_DATA_HOME":   filepath.Join(root, "data"),
			"XDG_CONFIG_HOME": filepath.Join(root, "config"),
		}
		getenv := func(k string) string { return vars[k] }

		c, err := Load(getenv)
		vars["MNEME_CONFIG"] = path
		c2, err2 := Load(getenv)
		if (err == nil) != (err2 == nil) {
			t.Fatalf("found in the config dir: %v; through MNEME_CONFIG: %v", err, err2)
		}
		if err != nil {
			for _, e := range []error{err, err2} {
				if !strings.Contains(e.Error(), path) {
					t.Fatalf("error does not name the file %s: %v", path, e)
				}
			}
			return
		}
		text := configText(t, c)
		if got := configText(t, c2); got != text {
			t.Fatalf("through MNEME_CONFIG:\n%s\nin the config dir:\n%s", got, text)
		}

		_ = c.Validate()
		_, _ = c.Location()
		_, _ = c.Clock()
		_ = c.DBPath()

		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		again, err := Load(getenv)
		if err != nil {
			t.Fatalf("load the config written back: %v\n%s", err, text)
		}
		if got := configText(t, again); got != text {
			t.Fatalf("written back and loaded:\n%s\nloaded first:\n%s", got, text)
		}
	})
}

// configText is c as a TOML file plus the settings that have no key, a
// form to compare configs by: it follows pointers and prints NaN the same
// every time.
func configText(t *testing.T, c Config) string {
	t.Helper()
	var buf bytes.Buffer
	if err := toml.NewEncoder(&buf).Encode(c); err != nil {
		t.Fatalf("encode the loaded config %+v: %v", c, err)
	}
	return fmt.Sprintf("# config dir %q, now %q\n%s", c.ConfigDir, c.Now, buf.Bytes())
}
