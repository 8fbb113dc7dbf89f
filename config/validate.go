package config

import (
	"errors"
	"fmt"
	"maps"
	"net"
	"slices"
	"strings"
)

// Validate reports every problem a person must fix, joined with errors.Join,
// each naming the setting (file key and environment variable) and what is
// accepted. It returns nil for a usable Config. The log level is compared
// case-insensitively (as log/slog parses it); other names are lower case.
func (c Config) Validate() error {
	var errs []error
	bad := func(format string, args ...any) {
		errs = append(errs, fmt.Errorf("config: "+format, args...))
	}

	if !validStoreName(c.Store) {
		bad("store %q (MNEME_STORE, store): use only lower-case letters, digits, '_' and '-'", c.Store)
	}
	if c.DataDir == "" && c.DB == "" {
		bad("data_dir (MNEME_DATA_DIR) is empty and no db path is set: set one of them")
	}
	if c.Scope != "" && strings.TrimSpace(c.Scope) == "" {
		bad("scope %q (MNEME_SCOPE, scope) is blank: name a scope such as personal, or leave it unset for automatic project scopes", c.Scope)
	}
	if _, err := c.Location(); err != nil {
		errs = append(errs, err)
	}
	if c.Now != "" {
		if _, err := parseNow(c.Now); err != nil {
			errs = append(errs, err)
		}
	}
	switch strings.ToLower(c.DateOrder) {
	case "", "mdy", "dmy":
	default:
		bad("date_order %q (MNEME_DATE_ORDER): use mdy (5/4/2023 is May 4) or dmy (5/4/2023 is 5 April)", c.DateOrder)
	}
	switch strings.ToLower(c.LogLevel) {
	case "debug", "info", "warn", "error":
	default:
		bad("log_level %q (MNEME_LOG_LEVEL): use debug, info, warn or error", c.LogLevel)
	}

	e := c.Embedder
	switch e.Provider {
	case "builtin":
		if e.Dim < 0 {
			bad("[embedder] dim %d: the builtin embedder needs a positive number of dimensions such as 512 (0 or unset = 512)", e.Dim)
		}
	case "ollama", "openai":
		if e.Model == "" {
			bad("[embedder] model (MNEME_EMBED_MODEL) is empty: provider %s needs an embedding model name", e.Provider)
		}
	default:
		bad("[embedder] provider %q (MNEME_EMBEDDER): use builtin, ollama or openai", e.Provider)
	}

	r := c.Recall
	if r.Limit < 0 {
		bad("[recall] limit %d: must be greater than 0 (0 or unset = the default, 5)", r.Limit)
	}
	if r.Budget < 0 {
		bad("[recall] budget %d: must be greater than 0 characters (0 or unset = the default, 6000)", r.Budget)
	}
	if r.DecayUnit != nil && r.DecayUnit.Duration <= 0 {
		bad("[recall] decay_unit %s (MNEME_DECAY_UNIT): must be a positive duration such as 365d, or unset for the measured default", r.DecayUnit.Duration)
	}
	if r.K1 != nil && !(*r.K1 >= 0) {
		bad("[recall] k1 %v: must be 0 or more (1.0 is usual), or unset for the measured default", *r.K1)
	}
	if r.B != nil && !(*r.B >= 0 && *r.B <= 1) {
		bad("[recall] b %v: must be between 0 and 1, or unset for the measured default", *r.B)
	}
	if r.VectorWeight != nil && !(*r.VectorWeight >= 0 && *r.VectorWeight <= 1) {
		bad("[recall] vector_weight %v: must be between 0 and 1, or unset for the measured default", *r.VectorWeight)
	}
	if !(r.MinProbability >= 0 && r.MinProbability <= 1) {
		bad("[recall] min_probability %v: must be between 0 and 1", r.MinProbability)
	}

	s := c.Server
	switch s.Transport {
	case "stdio":
	case "http", "sse":
		if _, _, err := net.SplitHostPort(s.Addr); err != nil {
			bad("[server] addr %q (MNEME_ADDR): use host:port such as 127.0.0.1:8765", s.Addr)
		}
	default:
		bad("[server] transport %q (MNEME_TRANSPORT): use stdio, http or sse", s.Transport)
	}
	if s.MaxBodyBytes < 0 {
		bad("[server] max_body_bytes %d: must be greater than 0 (0 or unset = 4 MiB)", s.MaxBodyBytes)
	}
	// Sorted for stable messages; tokens are secrets and never printed.
	for _, token := range slices.Sorted(maps.Keys(c.Tokens)) {
		if token == "" {
			bad("[tokens]: a token is empty: use a long random string")
		}
		if store := c.Tokens[token]; !validStoreName(store) {
			bad("[tokens] store %q: use only lower-case letters, digits, '_' and '-'", store)
		}
	}
	return errors.Join(errs...)
}

// validStoreName reports whether name matches [a-z0-9_-]+.
func validStoreName(name string) bool {
	if name == "" {
		return false
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return false
		}
	}
	return true
}
