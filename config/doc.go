// Package config holds mneme's settings as one plain [Config] struct.
//
// Settings are layered: [Default], then the TOML file, then MNEME_*
// environment variables ([Load] does these three); command-line flags are
// applied afterwards by the cli package, which then calls [Config.Validate].
// Nothing here reads the process environment directly: every function takes a
// getenv func, so tests pass a fake one. The only exception is the fallback
// for XDG base directories, which comes from github.com/adrg/xdg when
// XDG_DATA_HOME or XDG_CONFIG_HOME is not given.
//
// # File
//
// The file is $MNEME_CONFIG when set (it must then exist), else
// <ConfigDir>/config.toml, where ConfigDir is $XDG_CONFIG_HOME/mneme; that
// default file may be missing. A malformed file, a value of the wrong type
// and an unknown key are all errors naming the file (and the line, where the
// TOML decoder knows it), so typos do not pass silently.
//
// # Keys
//
//	key                       env var              default                                 meaning
//	store                     MNEME_STORE          "default"                               store name, [a-z0-9_-]+; picks <data_dir>/<store>.db
//	db                        MNEME_DB             ""                                      explicit database path; empty = <data_dir>/<store>.db
//	data_dir                  MNEME_DATA_DIR       $XDG_DATA_HOME/mneme                    directory holding the databases
//	-                         MNEME_CONFIG         <config dir>/config.toml                path of this file (must exist when set); the config dir is $XDG_CONFIG_HOME/mneme and also holds ontology.json
//	scope                     MNEME_SCOPE          "" (automatic)                          fix one scope for every call; unset = the client's project (from its roots), else "personal"
//	timezone                  MNEME_TIMEZONE       "" (system local)                       IANA zone name used to read and show times, e.g. Europe/Berlin
//	date_order                MNEME_DATE_ORDER     "mdy"                                   how an ambiguous numeric date reads: mdy (5/4/2023 is May 4) or dmy (5 April); 25/4 and dotted 4.5.2023 are day first either way
//	-                         MNEME_NOW            "" (real clock)                         RFC 3339 instant to pin the clock to (testing aid)
//	log_level                 MNEME_LOG_LEVEL      "info"                                  debug, info, warn or error
//	log_file                  MNEME_LOG_FILE       "" (stderr)                             file to write logs to
//	[embedder] provider       MNEME_EMBEDDER       "builtin"                               builtin (offline), ollama, or openai (any OpenAI-compatible API)
//	[embedder] model          MNEME_EMBED_MODEL    ""                                      embedding model; required for ollama and openai
//	[embedder] base_url       MNEME_EMBED_URL      "" (the provider's usual endpoint)      provider endpoint
//	[embedder] api_key        MNEME_EMBED_API_KEY  "" (openai: $OPENAI_API_KEY)            API key sent to the provider
//	[embedder] dim            -                    512 (embed.DefaultDim)                  dimensions of the builtin embedder
//	[recall] limit            -                    5 (memory.DefaultLimit)                 memories returned by a CLI recall
//	[recall] budget           -                    6000 (tools.DefaultBudget)              character budget of a recall reply
//	[recall] decay_unit       MNEME_DECAY_UNIT     measured default (now "3650d")          time unit of the forgetting curve: "30d", "2w", "720h", "1w3d"
//	[recall] k1               -                    measured default (now 1.0)              BM25 term-frequency saturation, >= 0
//	[recall] b                -                    measured default (now 0.2)              BM25 document-length normalisation, in [0,1]
//	[recall] vector_weight    -                    measured default (now 0.1)              weight of vector similarity against BM25 in relevance, in [0,1]
//	[recall] min_probability  -                    0                                       leave out memories whose recall probability is below this, in [0,1]
//	[server] transport        MNEME_TRANSPORT      "stdio"                                 stdio, http (streamable HTTP) or sse
//	[server] addr             MNEME_ADDR           "127.0.0.1:8765"                        listen address (host:port) for http and sse
//	[server] token            MNEME_TOKEN          ""                                      bearer token required by http and sse
//	[server] allowed_origins  -                    []                                      extra Origin header values accepted by http and sse
//	[server] max_body_bytes   -                    4194304 (4 MiB)                         largest accepted request body
//	[tokens] "<token>"        -                    {}                                      bearer token -> name of the store it opens (http)
//
// Durations accept Go syntax ("720h", "90m") plus d (24h) and w (7d) units,
// which may be combined ("1w3d", "1.5d").
//
// # Defaults that belong to a library
//
// A setting whose default is a library's is left unset by [Default] and
// [Load], so the library's value applies and is stated in one place: the
// ranking parameters (decay_unit, k1, b, vector_weight) are nil unless set
// and default to memory.DefaultRanking(), measured with `mneme bench`;
// limit, budget, dim and max_body_bytes are 0 unless set, and 0 means the
// default; scope is "" unless set, and "" means automatic scopes.
//
// # Concurrency
//
// A Config is a value; its methods do not modify it and are safe to call
// concurrently. The func returned by [Config.Clock] is safe for concurrent use.
package config
