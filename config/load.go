package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/BurntSushi/toml"
)

// Load returns [Default], overlaid with the TOML file, overlaid with MNEME_*
// environment variables read through getenv (nil means an empty
// environment). It does not validate: apply flags, then call
// [Config.Validate].
//
// The file is getenv("MNEME_CONFIG") when set, and must then exist; otherwise
// it is ConfigDir/config.toml, which may be missing. A malformed file, a
// value of the wrong type or an unknown key is an error naming the file (and
// the line where known). A bad environment value is an error naming the
// variable. When the provider ends up openai, an empty API key falls back to
// OPENAI_API_KEY (an empty base URL stays empty: the embed package fills in
// https://api.openai.com/v1).
func Load(getenv func(string) string) (Config, error) {
	getenv = orEmpty(getenv)
	c := Default(getenv)
	path, explicit := getenv("MNEME_CONFIG"), true
	if path == "" {
		path, explicit = filepath.Join(c.ConfigDir, configFileName), false
	}
	if err := c.loadFile(path, explicit); err != nil {
		return Config{}, err
	}
	if err := c.loadEnv(getenv); err != nil {
		return Config{}, err
	}
	if c.Embedder.Provider == "openai" && c.Embedder.APIKey == "" {
		c.Embedder.APIKey = getenv("OPENAI_API_KEY")
	}
	return c, nil
}

// loadFile overlays the TOML file at path; a missing file is an error only
// when the path was given explicitly.
func (c *Config) loadFile(path string, explicit bool) error {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) && !explicit {
		return nil
	}
	if err != nil {
		return fmt.Errorf("config: read %s (MNEME_CONFIG): %w", path, err)
	}
	md, err := toml.Decode(string(data), c)
	// Checked before err: the decoder visits a table's keys in map order, so
	// two spellings of one key make both the result and the first error
	// depend on chance.
	if a, b, ok := sameKey(md.Keys()); ok {
		return fmt.Errorf("config: %s: %s and %s are the same key (key names ignore case): keep one",
			path, a, b)
	}
	if err != nil {
		return fmt.Errorf("config: %s: %w", path, err)
	}
	if undecoded := md.Undecoded(); len(undecoded) > 0 {
		keys := make([]string, len(undecoded))
		for i, k := range undecoded {
			keys[i] = k.String()
		}
		return fmt.Errorf("config: %s: unknown key(s) %s: check the spelling against the documented keys",
			path, strings.Join(keys, ", "))
	}
	return nil
}

// loadEnv overlays the MNEME_* variables that are set (non-empty).
func (c *Config) loadEnv(getenv func(string) string) error {
	strs := []struct {
		name string
		dst  *string
	}{
		{"MNEME_STORE", &c.Store},
		{"MNEME_DB", &c.DB},
		{"MNEME_DATA_DIR", &c.DataDir},
		{"MNEME_SCOPE", &c.Scope},
		{"MNEME_TIMEZONE", &c.Timezone},
		{"MNEME_DATE_ORDER", &c.DateOrder},
		{"MNEME_NOW", &c.Now},
		{"MNEME_LOG_LEVEL", &c.LogLevel},
		{"MNEME_LOG_FILE", &c.LogFile},
		{"MNEME_EMBEDDER", &c.Embedder.Provider},
		{"MNEME_EMBED_MODEL", &c.Embedder.Model},
		{"MNEME_EMBED_URL", &c.Embedder.BaseURL},
		{"MNEME_EMBED_API_KEY", &c.Embedder.APIKey},
		{"MNEME_TRANSPORT", &c.Server.Transport},
		{"MNEME_ADDR", &c.Server.Addr},
		{"MNEME_TOKEN", &c.Server.Token},
	}
	for _, s := range strs {
		if v := getenv(s.name); v != "" {
			*s.dst = v
		}
	}
	if v := getenv("MNEME_DECAY_UNIT"); v != "" {
		var d Duration
		if err := d.UnmarshalText([]byte(v)); err != nil {
			return fmt.Errorf("config: MNEME_DECAY_UNIT: %w", err)
		}
		c.Recall.DecayUnit = &d
	}
	return nil
}

// sameKey finds two keys in the file that differ in spelling but that the
// TOML decoder matches to the same setting: it matches a key to a field
// ignoring case (strings.EqualFold), so "store" and "STORE" would both set
// Store, in an order that changes from run to run. It returns the first two
// such spellings in file order.
func sameKey(keys []toml.Key) (a, b string, ok bool) {
	seen := make(map[string]string, len(keys))
	for _, k := range keys {
		parts := make([]string, len(k))
		for i, p := range k {
			parts[i] = foldCase(p)
		}
		folded := strings.Join(parts, "\x00")
		spelled := k.String()
		if first, dup := seen[folded]; dup && first != spelled {
			return first, spelled, true
		}
		seen[folded] = spelled
	}
	return "", "", false
}

// foldCase maps s to one representative of the strings strings.EqualFold
// holds equal to it: each rune becomes the smallest rune of its simple case
// folding orbit (so "K", "k" and the Kelvin sign all become "K").
func foldCase(s string) string {
	var sb strings.Builder
	for _, r := range s {
		low := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			if f < low {
				low = f
			}
		}
		sb.WriteRune(low)
	}
	return sb.String()
}
