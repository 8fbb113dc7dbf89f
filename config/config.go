package config

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"
	_ "time/tzdata" // timezone must load on hosts without a zoneinfo database

	"github.com/adrg/xdg"
)

// Built-in values of the settings that belong to the configuration itself;
// see the package documentation for all keys. Settings whose default is a
// library's (ranking, limits, budgets, dimensions, the personal scope) are
// left unset here, so that the library's measured or documented default
// applies and is stated in one place only.
const (
	defaultStore     = "default"
	defaultLogLevel  = "info"
	defaultProvider  = "builtin"
	defaultTransport = "stdio"
	defaultAddr      = "127.0.0.1:8765"
	appDir           = "mneme"
	configFileName   = "config.toml"
)

// Config is every setting of mneme. It is a plain value: build it with
// [Default] or [Load], adjust it (the cli applies flags), then call
// [Config.Validate]. The toml tags are the file's keys.
type Config struct {
	Store     string            `toml:"store"`      // store name, default "default"
	DB        string            `toml:"db"`         // explicit database path; empty = DataDir/<Store>.db
	DataDir   string            `toml:"data_dir"`   // default $XDG_DATA_HOME/mneme
	ConfigDir string            `toml:"-"`          // default $XDG_CONFIG_HOME/mneme (holds config.toml and ontology.json)
	Scope     string            `toml:"scope"`      // a scope the user fixes for every call; "" = automatic (the client's project, else personal)
	Timezone  string            `toml:"timezone"`   // IANA name; "" = system local
	DateOrder string            `toml:"date_order"` // how "5/4/2023" reads: "mdy" (May 4, the default) or "dmy" (5 April)
	Now       string            `toml:"-"`          // RFC 3339 clock pin (testing aid), from MNEME_NOW; "" = real clock
	LogLevel  string            `toml:"log_level"`  // debug|info|warn|error, default "info"
	LogFile   string            `toml:"log_file"`   // "" = stderr
	Embedder  Embedder          `toml:"embedder"`
	Recall    Recall            `toml:"recall"`
	Server    Server            `toml:"server"`
	Tokens    map[string]string `toml:"tokens"` // [tokens] table: token -> store name (used by HTTP)
}

// Embedder selects and configures the embedding provider.
type Embedder struct {
	Provider string `toml:"provider"` // builtin|ollama|openai, default "builtin"
	Model    string `toml:"model"`    // required for ollama and openai
	BaseURL  string `toml:"base_url"` // provider endpoint; Load fills https://api.openai.com/v1 for openai
	APIKey   string `toml:"api_key"`  // sent to the provider; openai falls back to OPENAI_API_KEY
	Dim      int    `toml:"dim"`      // dimensions of the builtin embedder; 0 = embed.DefaultDim (512)
}

// Recall tunes ranking and the size of recall replies.
//
// The ranking parameters are nil unless the user set them (file or
// environment): their defaults are memory.DefaultRanking(), measured with
// `mneme bench` and tuned as the ranking evolves, and the cli overrides only
// what is set. Limit and Budget are 0 unless set, meaning the library's
// default (memory.DefaultLimit, tools.DefaultBudget). A Config is shared as a
// value: nothing writes through these pointers, replace them instead.
type Recall struct {
	Limit          int       `toml:"limit"`           // memories per recall; 0 = memory.DefaultLimit (5)
	Budget         int       `toml:"budget"`          // character budget of a recall reply; 0 = tools.DefaultBudget (6000)
	DecayUnit      *Duration `toml:"decay_unit"`      // time unit t of the forgetting curve; nil = memory.DefaultRanking's
	K1             *float64  `toml:"k1"`              // BM25 k1; nil = memory.DefaultRanking's
	B              *float64  `toml:"b"`               // BM25 b; nil = memory.DefaultRanking's
	VectorWeight   *float64  `toml:"vector_weight"`   // weight of cosine vs BM25 in relevance; nil = memory.DefaultRanking's
	MinProbability float64   `toml:"min_probability"` // recall probability floor, default 0
}

// Server configures the MCP transport.
type Server struct {
	Transport      string   `toml:"transport"`       // stdio|http|sse, default "stdio"
	Addr           string   `toml:"addr"`            // listen address, default "127.0.0.1:8765"
	Token          string   `toml:"token"`           // bearer token (MNEME_TOKEN)
	AllowedOrigins []string `toml:"allowed_origins"` // extra accepted Origin values
	MaxBodyBytes   int64    `toml:"max_body_bytes"`  // largest request body; 0 = the server's default, 4 MiB
}

// Default returns the built-in settings. The data and config directories are
// getenv("XDG_DATA_HOME")/mneme and getenv("XDG_CONFIG_HOME")/mneme when those
// are set to absolute paths (relative ones are ignored, as the XDG spec asks),
// else derived from github.com/adrg/xdg. A nil getenv means an empty
// environment.
func Default(getenv func(string) string) Config {
	getenv = orEmpty(getenv)
	return Config{
		Store:     defaultStore,
		DataDir:   filepath.Join(xdgDir(getenv("XDG_DATA_HOME"), xdg.DataHome), appDir),
		ConfigDir: filepath.Join(xdgDir(getenv("XDG_CONFIG_HOME"), xdg.ConfigHome), appDir),
		LogLevel:  defaultLogLevel,
		Embedder:  Embedder{Provider: defaultProvider},
		Server: Server{
			Transport: defaultTransport,
			Addr:      defaultAddr,
		},
	}
}

// xdgDir returns env when it is an absolute path, else fallback.
func xdgDir(env, fallback string) string {
	if env != "" && filepath.IsAbs(env) {
		return env
	}
	return fallback
}

// orEmpty turns a nil getenv into an empty environment.
func orEmpty(getenv func(string) string) func(string) string {
	if getenv == nil {
		return func(string) string { return "" }
	}
	return getenv
}

// DBPath returns the database file: DB if set, else DataDir/<Store>.db.
func (c Config) DBPath() string {
	if c.DB != "" {
		return c.DB
	}
	return filepath.Join(c.DataDir, c.Store+".db")
}

// DayFirst reports whether an ambiguous numeric date ("5/4/2023") is read
// day first (DateOrder "dmy").
func (c Config) DayFirst() bool { return strings.EqualFold(c.DateOrder, "dmy") }

// Location returns the time zone named by Timezone, or time.Local when it is
// empty.
func (c Config) Location() (*time.Location, error) {
	if c.Timezone == "" {
		return time.Local, nil
	}
	loc, err := time.LoadLocation(c.Timezone)
	if err != nil {
		return nil, fmt.Errorf("config: timezone %q (MNEME_TIMEZONE, timezone) is not an IANA zone name such as Europe/Berlin: %w", c.Timezone, err)
	}
	return loc, nil
}

// Clock returns the clock to inject into the store: time.Now, or, when Now is
// set, a func returning that RFC 3339 instant on every call (a pinned clock
// for tests and reproducible runs).
func (c Config) Clock() (func() time.Time, error) {
	if c.Now == "" {
		return time.Now, nil
	}
	at, err := parseNow(c.Now)
	if err != nil {
		return nil, err
	}
	return func() time.Time { return at }, nil
}

// parseNow parses the clock pin.
func parseNow(s string) (time.Time, error) {
	at, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("config: MNEME_NOW %q is not an RFC 3339 time such as 2024-03-01T09:00:00Z: %w", s, err)
	}
	return at, nil
}
