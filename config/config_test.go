package config

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/BurntSushi/toml"
)

// env is a fake environment for getenv.
type env map[string]string

func (e env) get(k string) string { return e[k] }

// setup makes temp XDG dirs and returns an env pointing at them and the mneme
// config dir; content, when non-empty, is written to config.toml.
func setup(t *testing.T, content string) (env, string) {
	t.Helper()
	root := t.TempDir()
	e := env{
		"XDG_DATA_HOME":   filepath.Join(root, "data"),
		"XDG_CONFIG_HOME": filepath.Join(root, "config"),
	}
	dir := filepath.Join(root, "config", "mneme")
	if content != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "config.toml"), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return e, dir
}

func TestDefault(t *testing.T) {
	e := env{"XDG_DATA_HOME": "/x/data", "XDG_CONFIG_HOME": "/x/config"}
	c := Default(e.get)
	want := Config{
		Store:     "default",
		DataDir:   filepath.Join("/x/data", "mneme"),
		ConfigDir: filepath.Join("/x/config", "mneme"),
		LogLevel:  "info",
		Embedder:  Embedder{Provider: "builtin"},
		Server:    Server{Transport: "stdio", Addr: "127.0.0.1:8765"},
	}
	if !reflect.DeepEqual(c, want) {
		t.Errorf("Default =\n%+v\nwant\n%+v", c, want)
	}
	if err := c.Validate(); err != nil {
		t.Errorf("Default does not validate: %v", err)
	}
	// Unset or relative XDG variables fall back to adrg/xdg.
	for _, get := range []func(string) string{nil, env{"XDG_DATA_HOME": "rel"}.get} {
		c := Default(get)
		if !filepath.IsAbs(c.DataDir) || filepath.Base(c.DataDir) != "mneme" || filepath.Base(c.ConfigDir) != "mneme" {
			t.Errorf("fallback dirs: DataDir %q ConfigDir %q", c.DataDir, c.ConfigDir)
		}
	}
}

func TestLoad(t *testing.T) {
	const full = `
store = "work"
data_dir = "/srv/mneme"
scope = "team"
timezone = "Europe/Berlin"
date_order = "dmy"
log_level = "debug"
log_file = "/var/log/mneme.log"

[embedder]
provider = "ollama"
model = "nomic-embed-text"
base_url = "http://localhost:11434"
dim = 256

[recall]
limit = 8
budget = 4000
decay_unit = "2w"
k1 = 1.2
b = 0.75
vector_weight = 0.5
min_probability = 0.01

[server]
transport = "http"
addr = ":9000"
token = "file-token"
allowed_origins = ["https://a.example", "https://b.example"]
max_body_bytes = 1024

[tokens]
"tok-1" = "work"
"tok-2" = "home"
`
	tests := []struct {
		name  string
		file  string
		env   env
		check func(t *testing.T, c Config)
	}{
		{
			name: "no file no env gives defaults",
			check: func(t *testing.T, c Config) {
				// Library defaults stay unset: the cli applies
				// memory.DefaultRanking() and friends.
				r := c.Recall
				if c.Store != "default" || c.Scope != "" || r.DecayUnit != nil || r.K1 != nil || r.B != nil ||
					r.VectorWeight != nil || r.Limit != 0 || r.Budget != 0 || c.Embedder.Dim != 0 || c.Server.MaxBodyBytes != 0 {
					t.Errorf("got %+v", c)
				}
			},
		},
		{
			name: "file sets every key",
			file: full,
			check: func(t *testing.T, c Config) {
				want := Config{
					Store: "work", DataDir: "/srv/mneme", ConfigDir: c.ConfigDir, Scope: "team",
					Timezone: "Europe/Berlin", DateOrder: "dmy", LogLevel: "debug", LogFile: "/var/log/mneme.log",
					Embedder: Embedder{Provider: "ollama", Model: "nomic-embed-text", BaseURL: "http://localhost:11434", Dim: 256},
					Recall: Recall{Limit: 8, Budget: 4000, DecayUnit: &Duration{14 * 24 * time.Hour},
						K1: ptr(1.2), B: ptr(0.75), VectorWeight: ptr(0.5), MinProbability: 0.01},
					Server: Server{Transport: "http", Addr: ":9000", Token: "file-token",
						AllowedOrigins: []string{"https://a.example", "https://b.example"}, MaxBodyBytes: 1024},
					Tokens: map[string]string{"tok-1": "work", "tok-2": "home"},
				}
				if !reflect.DeepEqual(c, want) {
					t.Errorf("got\n%+v\nwant\n%+v", c, want)
				}
				if err := c.Validate(); err != nil {
					t.Errorf("Validate: %v", err)
				}
			},
		},
		{
			name: "env overrides file",
			file: full,
			env: env{
				"MNEME_STORE": "env-store", "MNEME_DB": "/tmp/x.db", "MNEME_DATA_DIR": "/env/data",
				"MNEME_SCOPE": "env-scope", "MNEME_TIMEZONE": "Asia/Tokyo", "MNEME_NOW": "2024-03-01T09:00:00Z", "MNEME_DATE_ORDER": "mdy",
				"MNEME_LOG_LEVEL": "warn", "MNEME_LOG_FILE": "/env/log",
				"MNEME_EMBEDDER": "openai", "MNEME_EMBED_MODEL": "text-embedding-3-small",
				"MNEME_EMBED_URL": "https://proxy.example/v1", "MNEME_EMBED_API_KEY": "sk-env",
				"MNEME_DECAY_UNIT": "30d", "MNEME_TRANSPORT": "sse", "MNEME_ADDR": "0.0.0.0:1",
				"MNEME_TOKEN": "env-token", "OPENAI_API_KEY": "sk-fallback",
			},
			check: func(t *testing.T, c Config) {
				got := []string{c.Store, c.DB, c.DataDir, c.Scope, c.Timezone, c.DateOrder, c.Now, c.LogLevel, c.LogFile,
					c.Embedder.Provider, c.Embedder.Model, c.Embedder.BaseURL, c.Embedder.APIKey,
					c.Recall.DecayUnit.String(), c.Server.Transport, c.Server.Addr, c.Server.Token}
				want := []string{"env-store", "/tmp/x.db", "/env/data", "env-scope", "Asia/Tokyo", "mdy", "2024-03-01T09:00:00Z",
					"warn", "/env/log", "openai", "text-embedding-3-small", "https://proxy.example/v1", "sk-env",
					"30d", "sse", "0.0.0.0:1", "env-token"}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("got  %q\nwant %q", got, want)
				}
				// Untouched by env: file values remain.
				if c.Recall.Limit != 8 || c.Server.MaxBodyBytes != 1024 || c.Tokens["tok-1"] != "work" {
					t.Errorf("file values lost: %+v", c)
				}
			},
		},
		{
			name: "openai falls back to OPENAI_API_KEY and leaves the url to the embedder",
			file: "[embedder]\nprovider = \"openai\"\nmodel = \"m\"\n",
			env:  env{"OPENAI_API_KEY": "sk-fallback"},
			check: func(t *testing.T, c Config) {
				if c.Embedder.BaseURL != "" || c.Embedder.APIKey != "sk-fallback" {
					t.Errorf("got %+v", c.Embedder)
				}
			},
		},
		{
			name: "OPENAI_API_KEY is not used for other providers",
			env:  env{"OPENAI_API_KEY": "sk-fallback", "MNEME_EMBEDDER": "ollama"},
			check: func(t *testing.T, c Config) {
				if c.Embedder.APIKey != "" || c.Embedder.BaseURL != "" {
					t.Errorf("got %+v", c.Embedder)
				}
			},
		},
		{
			name: "file duration in hours",
			file: "[recall]\ndecay_unit = \"720h\"\n",
			check: func(t *testing.T, c Config) {
				if c.Recall.DecayUnit == nil || c.Recall.DecayUnit.Duration != 720*time.Hour {
					t.Errorf("got %v", c.Recall.DecayUnit)
				}
			},
		},
		{
			name: "DBPath follows store and data dir from env",
			env:  env{"MNEME_STORE": "notes", "MNEME_DATA_DIR": "/d"},
			check: func(t *testing.T, c Config) {
				if got := c.DBPath(); got != filepath.Join("/d", "notes.db") {
					t.Errorf("DBPath = %q", got)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, _ := setup(t, tt.file)
			for k, v := range tt.env {
				e[k] = v
			}
			c, err := Load(e.get)
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			tt.check(t, c)
		})
	}
}

func TestLoadExplicitFile(t *testing.T) {
	e, _ := setup(t, "store = \"from-default-path\"\n")
	other := filepath.Join(t.TempDir(), "other.toml")
	if err := os.WriteFile(other, []byte("store = \"from-mneme-config\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	e["MNEME_CONFIG"] = other
	c, err := Load(e.get)
	if err != nil {
		t.Fatal(err)
	}
	if c.Store != "from-mneme-config" {
		t.Errorf("Store = %q, want the MNEME_CONFIG file's", c.Store)
	}

	// An explicitly named file must exist.
	e["MNEME_CONFIG"] = filepath.Join(t.TempDir(), "missing.toml")
	if _, err := Load(e.get); err == nil || !strings.Contains(err.Error(), "missing.toml") {
		t.Errorf("Load with missing MNEME_CONFIG: err = %v, want one naming the file", err)
	}
}

func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name string
		file string
		env  env
		want []string // substrings of the error
	}{
		{
			name: "malformed file names file and line",
			file: "store = \"a\"\n\nscope = = \"b\"\n[recall]\nlimit = 3\n",
			want: []string{"config.toml", "line 3"},
		},
		{
			name: "wrong type names file and line",
			file: "store = \"a\"\n[recall]\nlimit = \"many\"\n",
			want: []string{"config.toml", "line 3", "limit"},
		},
		{
			name: "bad duration in file names the line",
			file: "[recall]\n\ndecay_unit = \"soon\"\n",
			want: []string{"config.toml", "line 3", "soon"},
		},
		{
			name: "unknown keys are named",
			file: "stor = \"a\"\n[recall]\nlimt = 3\n[server]\naddr = \":1\"\n",
			want: []string{"config.toml", "unknown key", "stor", "recall.limt"},
		},
		{
			name: "now is not a file key",
			file: "now = \"2024-01-01T00:00:00Z\"\n",
			want: []string{"unknown key", "now"},
		},
		{
			name: "bad env duration names the variable",
			env:  env{"MNEME_DECAY_UNIT": "abc"},
			want: []string{"MNEME_DECAY_UNIT", "abc"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, _ := setup(t, tt.file)
			for k, v := range tt.env {
				e[k] = v
			}
			_, err := Load(e.get)
			if err == nil {
				t.Fatal("Load succeeded, want an error")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
	// The syntax error keeps its type for callers that want the position.
	e, _ := setup(t, "x = = 1\n")
	_, err := Load(e.get)
	var pe toml.ParseError
	if !errors.As(err, &pe) || pe.Position.Line != 1 {
		t.Errorf("error %v: want a toml.ParseError at line 1", err)
	}
}

// TestLoadSameKeyTwice: the decoder matches key names to settings ignoring
// case, so a file with two spellings of one key would set it from whichever
// it visited last, differently from run to run. Load refuses such a file,
// every time with the same error, and still takes a single key in another
// case.
func TestLoadSameKeyTwice(t *testing.T) {
	tests := []struct {
		name, file string
		want       []string
	}{
		{"top-level key", "store = \"a\"\nSTORE = \"b\"\n", []string{"store", "STORE"}},
		{"key in a table", "[recall]\nlimit = 3\nLimit = 4\n", []string{"recall.limit", "recall.Limit"}},
		{"table in two cases", "[embedder]\nprovider = \"builtin\"\n[EMBEDDER]\nprovider = \"ollama\"\n",
			[]string{"embedder", "EMBEDDER"}},
		{"dotted and table", "Embedder.provider = \"ollama\"\n[embedder]\nprovider = \"builtin\"\n",
			[]string{"Embedder.provider", "embedder.provider"}},
		// strings.EqualFold also holds the long s and the Kelvin sign equal
		// to s and k.
		{"long s", "store = \"a\"\n\"\u017ftore\" = \"b\"\n", []string{"store", "\u017ftore"}},
		{"Kelvin sign", "[embedder]\napi_key = \"a\"\n\"api_\u212aey\" = \"b\"\n", []string{"embedder.api_key", "embedder.\"api_\u212aey\""}},
		// Checked before the values: a wrong type on one spelling does not
		// decide which error is reported.
		{"wrong type on one", "store = \"a\"\nSTORE = 1\n", []string{"store", "STORE", "same key"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, _ := setup(t, tt.file)
			var first string
			for i := 0; i < 20; i++ {
				_, err := Load(e.get)
				if err == nil {
					t.Fatal("Load succeeded, want an error")
				}
				if i == 0 {
					first = err.Error()
					for _, w := range append([]string{"config.toml", "same key"}, tt.want...) {
						if !strings.Contains(first, w) {
							t.Errorf("error %q does not mention %q", first, w)
						}
					}
				} else if err.Error() != first {
					t.Fatalf("run %d: error %q, run 0: %q", i, err, first)
				}
			}
		})
	}

	e, _ := setup(t, "Store = \"a\"\n[Recall]\nLIMIT = 7\n")
	c, err := Load(e.get)
	if err != nil {
		t.Fatalf("one spelling per key: %v", err)
	}
	if c.Store != "a" || c.Recall.Limit != 7 {
		t.Errorf("store %q, recall.limit %d; want a, 7", c.Store, c.Recall.Limit)
	}
}

func TestDuration(t *testing.T) {
	const day = 24 * time.Hour
	tests := []struct {
		in      string
		want    time.Duration
		wantErr bool
	}{
		{in: "720h", want: 720 * time.Hour},
		{in: "30d", want: 30 * day},
		{in: "2w", want: 14 * day},
		{in: "1w3d12h", want: 10*day + 12*time.Hour},
		{in: "1.5d", want: 36 * time.Hour},
		{in: "90m", want: 90 * time.Minute},
		{in: " 7d ", want: 7 * day},
		{in: "-1d", want: -day},
		{in: "", wantErr: true},
		{in: "abc", wantErr: true},
		{in: "30", wantErr: true},
		{in: "d", wantErr: true},
		{in: "3x", wantErr: true},
		{in: "1.2.3d", wantErr: true},
		{in: "99999999999w", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			var d Duration
			err := d.UnmarshalText([]byte(tt.in))
			if (err != nil) != tt.wantErr {
				t.Fatalf("UnmarshalText(%q) err = %v, wantErr %v", tt.in, err, tt.wantErr)
			}
			if !tt.wantErr && d.Duration != tt.want {
				t.Errorf("UnmarshalText(%q) = %v, want %v", tt.in, d.Duration, tt.want)
			}
		})
	}
	// Round trip through text.
	for _, v := range []time.Duration{720 * time.Hour, 14 * day, 90 * time.Minute, 36 * time.Hour, 0, -day} {
		text, err := Duration{v}.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		var back Duration
		if err := back.UnmarshalText(text); err != nil || back.Duration != v {
			t.Errorf("round trip %v -> %q -> %v (%v)", v, text, back.Duration, err)
		}
	}
	if got := (Duration{720 * time.Hour}).String(); got != "30d" {
		t.Errorf("String(720h) = %q, want 30d", got)
	}
}

func TestDBPath(t *testing.T) {
	tests := []struct {
		c    Config
		want string
	}{
		{Config{Store: "default", DataDir: "/data/mneme"}, filepath.Join("/data/mneme", "default.db")},
		{Config{Store: "work", DataDir: "/d"}, filepath.Join("/d", "work.db")},
		{Config{Store: "work", DataDir: "/d", DB: "/elsewhere/x.sqlite"}, "/elsewhere/x.sqlite"},
	}
	for _, tt := range tests {
		if got := tt.c.DBPath(); got != tt.want {
			t.Errorf("%+v.DBPath() = %q, want %q", tt.c, got, tt.want)
		}
	}
}

func TestClock(t *testing.T) {
	c := Default(nil)
	now, err := c.Clock()
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(now()); d < 0 || d > time.Minute {
		t.Errorf("real clock is off by %v", d)
	}

	c.Now = "2024-03-01T09:00:00+01:00"
	now, err = c.Clock()
	if err != nil {
		t.Fatal(err)
	}
	want := time.Date(2024, 3, 1, 8, 0, 0, 0, time.UTC)
	for range 3 {
		if got := now(); !got.Equal(want) {
			t.Errorf("pinned clock = %v, want %v", got, want)
		}
	}

	c.Now = "yesterday"
	if _, err := c.Clock(); err == nil || !strings.Contains(err.Error(), "MNEME_NOW") {
		t.Errorf("Clock with bad Now: err = %v, want one naming MNEME_NOW", err)
	}
}

func TestLocation(t *testing.T) {
	c := Default(nil)
	if loc, err := c.Location(); err != nil || loc != time.Local {
		t.Errorf("empty timezone: %v, %v; want time.Local", loc, err)
	}
	c.Timezone = "America/New_York"
	if loc, err := c.Location(); err != nil || loc.String() != "America/New_York" {
		t.Errorf("America/New_York: %v, %v", loc, err)
	}
	c.Timezone = "Mars/Olympus"
	if _, err := c.Location(); err == nil || !strings.Contains(err.Error(), "Mars/Olympus") {
		t.Errorf("bad timezone: err = %v", err)
	}
}

func TestValidate(t *testing.T) {
	base := Default(env{"XDG_DATA_HOME": "/d", "XDG_CONFIG_HOME": "/c"}.get)
	tests := []struct {
		name   string
		change func(c *Config)
		want   []string // substrings; nil means valid
	}{
		{"defaults", func(c *Config) {}, nil},
		{"store with capitals", func(c *Config) { c.Store = "My Store" }, []string{`store "My Store"`, "MNEME_STORE", "lower-case"}},
		{"store empty", func(c *Config) { c.Store = "" }, []string{"store"}},
		{"store path traversal", func(c *Config) { c.Store = "../x" }, []string{`store "../x"`}},
		{"store ok chars", func(c *Config) { c.Store = "a-b_c9" }, nil},
		{"timezone", func(c *Config) { c.Timezone = "Nowhere/Land" }, []string{"Nowhere/Land", "MNEME_TIMEZONE"}},
		{"date order", func(c *Config) { c.DateOrder = "ymd" }, []string{"date_order", "ymd", "MNEME_DATE_ORDER", "mdy", "dmy"}},
		{"date order any case", func(c *Config) { c.DateOrder = "DMY" }, nil},
		{"now", func(c *Config) { c.Now = "2024-03-01" }, []string{"MNEME_NOW", "RFC 3339"}},
		{"now ok", func(c *Config) { c.Now = "2024-03-01T09:00:00.5Z" }, nil},
		{"log level", func(c *Config) { c.LogLevel = "verbose" }, []string{"log_level", "verbose", "debug, info, warn or error"}},
		{"log level any case", func(c *Config) { c.LogLevel = "WARN" }, nil},
		{"provider", func(c *Config) { c.Embedder.Provider = "cohere" }, []string{"provider", "cohere", "builtin, ollama or openai"}},
		{"ollama needs model", func(c *Config) { c.Embedder.Provider = "ollama" }, []string{"model", "MNEME_EMBED_MODEL", "ollama"}},
		{"openai needs model", func(c *Config) { c.Embedder.Provider = "openai" }, []string{"model", "openai"}},
		{"openai with model", func(c *Config) { c.Embedder.Provider = "openai"; c.Embedder.Model = "m" }, nil},
		{"builtin dim", func(c *Config) { c.Embedder.Dim = -1 }, []string{"dim"}},
		{"builtin dim unset", func(c *Config) { c.Embedder.Dim = 0 }, nil},
		{"transport", func(c *Config) { c.Server.Transport = "websocket" }, []string{"transport", "websocket", "stdio, http or sse"}},
		{"http addr", func(c *Config) { c.Server.Transport = "http"; c.Server.Addr = "8765" }, []string{"addr", "host:port"}},
		{"http ok", func(c *Config) { c.Server.Transport = "http" }, nil},
		{"limit", func(c *Config) { c.Recall.Limit = -1 }, []string{"limit -1"}},
		{"limit unset", func(c *Config) { c.Recall.Limit = 0 }, nil},
		{"budget", func(c *Config) { c.Recall.Budget = -1 }, []string{"budget -1"}},
		{"max body", func(c *Config) { c.Server.MaxBodyBytes = -1 }, []string{"max_body_bytes"}},
		{"decay unit", func(c *Config) { c.Recall.DecayUnit = &Duration{} }, []string{"decay_unit", "MNEME_DECAY_UNIT"}},
		{"decay unit set", func(c *Config) { c.Recall.DecayUnit = &Duration{time.Hour} }, nil},
		{"k1", func(c *Config) { c.Recall.K1 = ptr(-0.1) }, []string{"k1"}},
		{"k1 zero", func(c *Config) { c.Recall.K1 = ptr(0.0) }, nil},
		{"b", func(c *Config) { c.Recall.B = ptr(1.5) }, []string{"[recall] b 1.5"}},
		{"b zero", func(c *Config) { c.Recall.B = ptr(0.0) }, nil},
		{"vector weight", func(c *Config) { c.Recall.VectorWeight = ptr(-1.0) }, []string{"vector_weight"}},
		{"vector weight zero", func(c *Config) { c.Recall.VectorWeight = ptr(0.0) }, nil},
		{"min probability", func(c *Config) { c.Recall.MinProbability = 2 }, []string{"min_probability"}},
		{"scope blank", func(c *Config) { c.Scope = " " }, []string{"scope"}},
		{"scope unset is automatic", func(c *Config) { c.Scope = "" }, nil},
		{"scope fixed", func(c *Config) { c.Scope = "work" }, nil},
		{"token store", func(c *Config) { c.Tokens = map[string]string{"secret-token": "Bad"} }, []string{`[tokens] store "Bad"`}},
		{"several at once", func(c *Config) { c.Store = "X"; c.Recall.Limit = -1; c.Server.Transport = "tcp" },
			[]string{"store", "limit", "transport"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := base
			tt.change(&c)
			err := c.Validate()
			if tt.want == nil {
				if err != nil {
					t.Fatalf("Validate: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatal("Validate succeeded, want an error")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
			if strings.Contains(err.Error(), "secret-token") {
				t.Errorf("error %q leaks a token", err)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

// TestRankingSetOnlyWhenGiven checks that a ranking key is set exactly when
// the file or the environment gives it, zero values included (b = 0 is a
// real choice, not "unset").
func TestRankingSetOnlyWhenGiven(t *testing.T) {
	e, _ := setup(t, "[recall]\nb = 0.0\nvector_weight = 0\n")
	c, err := Load(e.get)
	if err != nil {
		t.Fatal(err)
	}
	r := c.Recall
	if r.B == nil || *r.B != 0 || r.VectorWeight == nil || *r.VectorWeight != 0 {
		t.Errorf("explicit zeros lost: b %v vector_weight %v", r.B, r.VectorWeight)
	}
	if r.K1 != nil || r.DecayUnit != nil {
		t.Errorf("keys not given are set: k1 %v decay_unit %v", r.K1, r.DecayUnit)
	}
	if err := c.Validate(); err != nil {
		t.Error(err)
	}
}
