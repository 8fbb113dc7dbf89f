package cli

import (
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/mneme-mcp/mneme/config"
	"github.com/mneme-mcp/mneme/embed"
	"github.com/mneme-mcp/mneme/memory"
)

// globals are the flags every subcommand accepts. Each one overrides the
// configuration file and the environment (precedence: defaults < file < env
// < flags).
type globals struct {
	json     bool
	store    string
	db       string
	now      string
	timezone string
	config   string
	logLevel string
}

// register adds the global flags to fs.
func (g *globals) register(fs *flag.FlagSet) {
	fs.BoolVar(&g.json, "json", false, "print machine-readable JSON")
	fs.StringVar(&g.store, "store", "", "store `name`: picks <data dir>/NAME.db (env MNEME_STORE)")
	fs.StringVar(&g.db, "db", "", "database file `path`, overrides --store (env MNEME_DB)")
	fs.StringVar(&g.now, "now", "", "pin the clock to an RFC 3339 `time`, a testing aid (env MNEME_NOW)")
	fs.StringVar(&g.timezone, "timezone", "", "IANA time `zone` for reading and showing times (env MNEME_TIMEZONE)")
	fs.StringVar(&g.config, "config", "", "configuration file `path` (env MNEME_CONFIG)")
	fs.StringVar(&g.logLevel, "log-level", "", "debug, info, warn or error (env MNEME_LOG_LEVEL)")
}

// env is the configuration of one run and what was built from it.
type env struct {
	cfg    config.Config
	now    func() time.Time
	loc    *time.Location
	logger *slog.Logger
	close  func() // closes the log file, if any
}

// loadConfig layers the configuration: defaults, the file, MNEME_* variables
// (config.Load does these three), then the global flags that were given and
// the command's own (override, may be nil); it then validates the result.
// Every error is a usage error (exit 2).
func (a *app) loadConfig(override func(*config.Config)) (config.Config, error) {
	getenv := a.getenv
	if a.g.config != "" {
		// --config names the file exactly as MNEME_CONFIG would.
		getenv = func(k string) string {
			if k == "MNEME_CONFIG" {
				return a.g.config
			}
			return a.getenv(k)
		}
	}
	cfg, err := config.Load(getenv)
	if err != nil {
		return cfg, usageError{err}
	}
	set := map[string]bool{}
	if a.fs != nil {
		a.fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	}
	if set["store"] {
		cfg.Store = a.g.store
		cfg.DB = "" // a store named on the command line beats a db path from file or env
	}
	if set["db"] {
		cfg.DB = a.g.db
	}
	if set["now"] {
		cfg.Now = a.g.now
	}
	if set["timezone"] {
		cfg.Timezone = a.g.timezone
	}
	if set["log-level"] {
		cfg.LogLevel = a.g.logLevel
	}
	if override != nil {
		override(&cfg)
	}
	if err := cfg.Validate(); err != nil {
		return cfg, usageError{err}
	}
	return cfg, nil
}

// setup loads the configuration and builds the clock, time zone and logger.
// The caller must call env.close.
func (a *app) setup() (*env, error) { return a.setupWith(nil) }

// setupWith is setup with the command's own flags applied to the
// configuration by override (after the global flags, before validation).
func (a *app) setupWith(override func(*config.Config)) (*env, error) {
	cfg, err := a.loadConfig(override)
	if err != nil {
		return nil, err
	}
	now, err := cfg.Clock()
	if err != nil {
		return nil, usageError{err}
	}
	loc, err := cfg.Location()
	if err != nil {
		return nil, usageError{err}
	}
	logger, closeLog, err := newLogger(cfg, a.stderr)
	if err != nil {
		return nil, err
	}
	return &env{cfg: cfg, now: now, loc: loc, logger: logger, close: closeLog}, nil
}

// newLogger returns a text slog logger writing to cfg.LogFile (appended) or
// to stderr. Nothing ever logs to stdout: in serve mode it carries JSON-RPC.
func newLogger(cfg config.Config, stderr io.Writer) (*slog.Logger, func(), error) {
	var level slog.Level
	if err := level.UnmarshalText([]byte(cfg.LogLevel)); err != nil {
		return nil, nil, usagef("log level %q: want debug, info, warn or error", cfg.LogLevel)
	}
	w, closeLog := stderr, func() {}
	if cfg.LogFile != "" {
		if err := os.MkdirAll(filepath.Dir(cfg.LogFile), 0o700); err != nil {
			return nil, nil, fmt.Errorf("log file: %w", err)
		}
		f, err := os.OpenFile(cfg.LogFile, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
		if err != nil {
			return nil, nil, fmt.Errorf("log file: %w", err)
		}
		w, closeLog = f, func() { f.Close() }
	}
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: level})), closeLog, nil
}

// ranking returns the store's ranking parameters: memory.DefaultRanking()
// (measured with `mneme bench`), with only the [recall] keys the user set
// overriding it.
func ranking(r config.Recall) memory.Ranking {
	rk := memory.DefaultRanking()
	if r.K1 != nil {
		rk.K1 = *r.K1
	}
	if r.B != nil {
		rk.B = *r.B
	}
	if r.VectorWeight != nil {
		rk.VectorWeight = *r.VectorWeight
	}
	if r.DecayUnit != nil {
		rk.DecayUnit = r.DecayUnit.Duration
	}
	return rk
}

// openStore opens the store at path (memory.Open creates it and its
// directory if needed) with the configured embedder. Opening a store made
// with another embedding model fails with memory.ErrModelMismatch unless
// allowMismatch (reembed) is set.
func (a *app) openStore(e *env, path string, allowMismatch bool) (*memory.Store, error) {
	opts, err := storeOptions(e, path, allowMismatch)
	if err != nil {
		return nil, err
	}
	st, err := memory.Open(a.ctx, opts)
	if err != nil {
		return nil, storeError("open store "+path, err)
	}
	return st, nil
}

// storeOptions turns the configuration into memory.Options for the store at
// path. The store's default scope is the scope the user fixed (--scope,
// MNEME_SCOPE, scope in the file) or, when none is, memory's ("personal"):
// the CLI has no client roots, so that is where its commands read and
// write.
func storeOptions(e *env, path string, allowMismatch bool) (memory.Options, error) {
	em, err := embed.New(e.cfg.Embedder.Provider, e.cfg.Embedder.Model, e.cfg.Embedder.BaseURL, e.cfg.Embedder.APIKey, e.cfg.Embedder.Dim)
	if err != nil {
		return memory.Options{}, usageError{err}
	}
	return memory.Options{
		Path:               path,
		ModelID:            em.ModelID,
		Embed:              em.Func,
		Now:                e.now,
		Location:           e.loc,
		DayFirst:           e.cfg.DayFirst(),
		Logger:             e.logger,
		DefaultScope:       e.cfg.Scope,
		Ranking:            ranking(e.cfg.Recall),
		AllowModelMismatch: allowMismatch,
	}, nil
}

// withStore runs fn with the configured store open, closing it afterwards.
// A store made with another embedding model is refused (ErrModelMismatch).
func (a *app) withStore(fn func(e *env, st *memory.Store) error) error {
	return a.withConfiguredStore(false, fn)
}

// withAnyModelStore is withStore for commands that work whatever model made
// the store's vectors (reembed, export).
func (a *app) withAnyModelStore(fn func(e *env, st *memory.Store) error) error {
	return a.withConfiguredStore(true, fn)
}

// withConfiguredStore sets up, opens the configured store, runs fn and
// closes the store, reporting a close error when fn succeeded.
func (a *app) withConfiguredStore(allowMismatch bool, fn func(e *env, st *memory.Store) error) error {
	e, err := a.setup()
	if err != nil {
		return err
	}
	defer e.close()
	st, err := a.openStore(e, e.cfg.DBPath(), allowMismatch)
	if err != nil {
		return err
	}
	err = fn(e, st)
	if cerr := st.Close(); cerr != nil && err == nil {
		err = fmt.Errorf("close store: %w", cerr)
	}
	return err
}
