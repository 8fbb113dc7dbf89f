package tools

// Project scopes: where a call that names no scope reads and writes.
//
// Resolution order for one tool call (resolveScope):
//
//  1. the call's scope argument;
//  2. Deps.FixedScope, a scope the user fixed (--scope, MNEME_SCOPE): the
//     client's roots are then never asked;
//  3. the project scope derived from the client's first file:// workspace
//     root (ProjectScope), when the client declared the roots capability;
//  4. Deps.DefaultScope, else the store's default (memory.DefaultScope,
//     "personal").
//
// Writes (remember, consolidate) go to the resolved scope, and forget's
// filter defaults to it. Recall searches the project scope and the personal
// scope together; a scope named by the call or fixed by the user is
// searched alone. Roots never fail a call: any failure falls back to the
// personal scope and is logged at debug level.
//
// How the roots are asked depends on the protocol generation:
//
//   - Before 2026-07-28 (sessions): roots/list is sent once per session
//     (bounded by rootsTimeout) and the answer is cached per session id
//     for DefaultRootsTTL; notifications/roots/list_changed and the end of
//     the session drop it.
//   - On 2026-07-28 (no sessions, no server-initiated requests): the tool
//     returns an input request for the roots (in the same round as its
//     first sampling questions when it samples) and proceeds on the retry
//     that carries the answer; the answer travels in the request state
//     through later rounds. It is cached for DefaultRootsTTL under the
//     transport session id (stdio, in-process) plus the client's name and
//     version from the request's _meta. A request without a session id
//     (streamable HTTP on 2026-07-28) is not cached: name and version
//     alone cannot tell two windows of the same client in different
//     workspaces apart, so such clients are asked on every call that needs
//     a scope (one extra round trip, answered by the client locally).

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/url"
	"path"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mneme-mcp/mneme/memory"
)

const (
	// DefaultRootsTTL is how long a project scope derived from a client's
	// roots is reused before the roots are asked again, so that a changed
	// workspace is picked up.
	DefaultRootsTTL = 5 * time.Minute

	// ProjectPrefix starts every project scope.
	ProjectPrefix = "project:"

	rootsTimeout    = 5 * time.Second // one roots/list request before 2026-07-28
	maxRootsEntries = 1024            // bound of the roots cache
	maxProjectName  = 40              // runes of the folder name kept in a scope
	idRoots         = "mneme-roots"   // input request id of the roots question
)

// ProjectScope returns the scope of the project in directory p, an
// absolute path with forward slashes (filepath.ToSlash; a leading "/"
// before a Windows drive letter, as in file URIs, is dropped):
// "project:" + the directory's name, lowercased, each rune outside
// [a-z0-9._-] replaced by '-', cut to 40 runes, then '-' and the first 6
// hex digits of the SHA-256 of the cleaned path, so that two checkouts
// with the same folder name stay apart. For example /home/u/src/mneme
// gives project:mneme-<6 hex digits>. It returns "" for an empty path.
// It is pure and safe to call concurrently.
func ProjectScope(p string) string {
	if strings.TrimSpace(p) == "" {
		return ""
	}
	if len(p) >= 3 && p[0] == '/' && p[2] == ':' && isLetter(p[1]) {
		p = p[1:] // /C:/x -> C:/x
	}
	if len(p) >= 2 && p[1] == ':' && isLetter(p[0]) {
		p = strings.ToLower(p[:1]) + p[1:] // clients disagree on the drive letter's case
	}
	p = path.Clean(p)
	var b strings.Builder
	n := 0
	for _, r := range strings.ToLower(path.Base(p)) {
		if n == maxProjectName {
			break
		}
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-') {
			r = '-'
		}
		b.WriteRune(r)
		n++
	}
	name := strings.Trim(b.String(), "-.")
	if name == "" {
		name = "root"
	}
	sum := sha256.Sum256([]byte(p))
	return ProjectPrefix + name + "-" + hex.EncodeToString(sum[:3])
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// rootsProject returns the project scope of the first file:// root, or ""
// when there is none.
func rootsProject(roots []mcp.Root) string {
	for _, r := range roots {
		u, err := url.Parse(strings.TrimSpace(r.URI))
		if err != nil || !strings.EqualFold(u.Scheme, "file") || u.Path == "" {
			continue
		}
		p := u.Path
		if u.Host != "" && u.Host != "localhost" {
			p = "//" + u.Host + p // UNC share
		}
		return ProjectScope(p)
	}
	return ""
}

// validProject reports whether s could have come from ProjectScope ("" for
// none): a request state is client-held, so what it carries is checked.
func validProject(s string) bool {
	if s == "" {
		return true
	}
	name, ok := strings.CutPrefix(s, ProjectPrefix)
	if !ok || name == "" || len(name) > maxProjectName+7 {
		return false
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-') {
			return false
		}
	}
	return true
}

// callScope is where one tool call writes and what its recall searches.
type callScope struct {
	scope    string  // writes go here; "" = the store's default scope
	explicit bool    // named by the call or fixed by the user: searched alone
	project  bool    // derived from the client's roots
	pending  bool    // 2026-07-28: the roots must be asked first; scope is the fallback meanwhile
	answered *string // the roots' answer read on this call (project or ""), carried to later rounds
}

// personalScope is the scope searched besides a project: Deps.DefaultScope,
// else memory.DefaultScope.
func (d Deps) personalScope() string {
	if d.DefaultScope != "" {
		return d.DefaultScope
	}
	return memory.DefaultScope
}

// searchScopes returns the scopes a recall searches: the project and the
// personal scope, or the one named or fixed alone, or the default scope
// (nil = the store's default).
func (d Deps) searchScopes(cs callScope) []string {
	switch {
	case cs.project:
		if p := d.personalScope(); p != cs.scope {
			return []string{cs.scope, p}
		}
		return []string{cs.scope}
	case cs.scope != "":
		return []string{cs.scope}
	}
	return nil
}

// resolveScope resolves the scope of one tool call (see the top of this
// file). When the result is pending the handler must return askRoots (or
// let its sampler carry the roots question, see sampler.carry) before it
// writes anything.
func (d Deps) resolveScope(ctx context.Context, req mcp.CallToolRequest, named string) callScope {
	if named = strings.TrimSpace(named); named != "" {
		return callScope{scope: named, explicit: true}
	}
	if fixed := strings.TrimSpace(d.FixedScope); fixed != "" {
		return callScope{scope: fixed, explicit: true}
	}
	fallback := callScope{scope: d.DefaultScope}
	with := func(project string, answered *string) callScope {
		if project == "" {
			fallback.answered = answered
			return fallback
		}
		return callScope{scope: project, project: true, answered: answered}
	}
	now := d.now()
	if info := server.RequestProtocolInfoFromContext(ctx); info != nil && info.Modern {
		if info.ClientCapabilities == nil || info.ClientCapabilities.Roots == nil {
			return fallback
		}
		key, cacheable := modernRootsKey(ctx, info)
		if _, ok := req.Params.InputResponses[idRoots]; ok {
			p := d.projectOf(server.RootsResponse(req.Params.InputResponses, idRoots), nil)
			if cacheable {
				d.roots.put(key, p, now)
			}
			return with(p, &p)
		}
		if st, ok := decodeState(req.Params.RequestState); ok && st.Key == callKey(req) && st.Project != nil && validProject(*st.Project) {
			p := *st.Project
			return with(p, &p)
		}
		if cacheable {
			if p, ok := d.roots.get(key, now); ok {
				return with(p, nil)
			}
		}
		fallback.pending = true
		return fallback
	}
	session := server.ClientSessionFromContext(ctx)
	srv := server.ServerFromContext(ctx)
	ci, ok := session.(server.SessionWithClientInfo)
	if !ok || srv == nil || ci.GetClientCapabilities().Roots == nil {
		return fallback
	}
	ask := func(ctx context.Context) (string, bool) {
		rctx, cancel := context.WithTimeout(ctx, rootsTimeout)
		defer cancel()
		res, err := srv.RequestRoots(rctx, mcp.ListRootsRequest{Request: mcp.Request{Method: string(mcp.MethodListRoots)}})
		// A call cancelled by its client says nothing about the roots: not cached.
		return d.projectOf(res, err), ctx.Err() == nil
	}
	if id := session.SessionID(); id != "" {
		return with(d.roots.fetch(ctx, rootsKey{session: id}, d.now, ask), nil)
	}
	p, _ := ask(ctx)
	return with(p, nil)
}

// projectOf turns a roots answer into a project scope, logging at debug
// level why there is none.
func (d Deps) projectOf(res *mcp.ListRootsResult, err error) string {
	switch {
	case err != nil:
		d.Logger.Debug("roots: asking the client failed, using the personal scope", "err", err)
	case res == nil:
		d.Logger.Debug("roots: the client's answer was unreadable, using the personal scope")
	default:
		if p := rootsProject(res.Roots); p != "" {
			return p
		}
		d.Logger.Debug("roots: no file:// root, using the personal scope", "roots", len(res.Roots))
	}
	return ""
}

// now is d.Now, or time.Now on a Deps without defaults.
func (d Deps) now() time.Time {
	if d.Now == nil {
		return time.Now()
	}
	return d.Now()
}

// askRoots is the input request (2026-07-28) asking the client for its
// roots alone; the retry carrying the answer resolves the scope.
//
// mcp-go v1.2.1 writes a roots input request without "params"
// ({"method":"roots/list"}, mcp/mrtr.go), which the official Go SDK's
// client (go-sdk v1.8.0) cannot decode, and offers no way to change that
// here: mneme serve adds "params":{} on the wire (cli/rootsfix.go). Anyone
// serving NewServer over a transport of their own needs the same fix.
func (d Deps) askRoots(req mcp.CallToolRequest) *mcp.CallToolResult {
	return server.NewInputRequestBuilder(encodeState(samplingState{Key: callKey(req)})).Roots(idRoots).ToolResult()
}

// modernRootsKey is the cache key of a 2026-07-28 request: the transport
// session id (stdio, in-process) and the client's name and version. ok is
// false without a session id (see the top of this file).
func modernRootsKey(ctx context.Context, info *server.RequestProtocolInfo) (rootsKey, bool) {
	session := server.ClientSessionFromContext(ctx)
	if session == nil || session.SessionID() == "" {
		return rootsKey{}, false
	}
	key := rootsKey{session: session.SessionID()}
	if info.ClientInfo != nil {
		key.client = info.ClientInfo.Name + "\x00" + info.ClientInfo.Version
	}
	return key, true
}

// rootsKey identifies a client whose project scope is cached.
type rootsKey struct{ session, client string }

// rootsEntry is one cached project scope; done is closed once project and
// at are set (a first request for a key is in flight until then).
type rootsEntry struct {
	done    chan struct{}
	project string
	at      time.Time
}

// rootsCache holds the project scope of each client for DefaultRootsTTL.
// It is safe for concurrent use; a nil *rootsCache caches nothing.
type rootsCache struct {
	mu sync.Mutex
	m  map[rootsKey]*rootsEntry
}

func newRootsCache() *rootsCache { return &rootsCache{m: map[rootsKey]*rootsEntry{}} }

// fresh reports whether e is complete and younger than the TTL. The caller
// holds c.mu.
func fresh(e *rootsEntry, now time.Time) bool {
	select {
	case <-e.done:
		return now.Sub(e.at) < DefaultRootsTTL
	default:
		return false
	}
}

// get returns the cached project of key when it is fresh.
func (c *rootsCache) get(key rootsKey, now time.Time) (string, bool) {
	if c == nil {
		return "", false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e := c.m[key]; e != nil && fresh(e, now) {
		return e.project, true
	}
	return "", false
}

// put caches project for key.
func (c *rootsCache) put(key rootsKey, project string, now time.Time) {
	if c == nil {
		return
	}
	e := &rootsEntry{done: make(chan struct{}), project: project, at: now}
	close(e.done)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.store(key, e, now)
}

// store sets key's entry, making room first. The caller holds c.mu.
func (c *rootsCache) store(key rootsKey, e *rootsEntry, now time.Time) {
	if _, ok := c.m[key]; !ok && len(c.m) >= maxRootsEntries {
		for k, old := range c.m {
			if !fresh(old, now) {
				select {
				case <-old.done:
					delete(c.m, k)
				default: // in flight: its asker still needs it
				}
			}
		}
		for k := range c.m {
			if len(c.m) < maxRootsEntries {
				break
			}
			delete(c.m, k)
		}
	}
	c.m[key] = e
}

// fetch returns the cached project of key, or asks once for it: concurrent
// callers for the same key wait for the one asking (or their own context).
// An answer ask reports as not cacheable is returned but not kept.
func (c *rootsCache) fetch(ctx context.Context, key rootsKey, now func() time.Time, ask func(context.Context) (string, bool)) string {
	if c == nil {
		p, _ := ask(ctx)
		return p
	}
	c.mu.Lock()
	if e := c.m[key]; e != nil {
		select {
		case <-e.done:
			if fresh(e, now()) {
				c.mu.Unlock()
				return e.project
			}
		default:
			c.mu.Unlock()
			select {
			case <-e.done:
				return e.project
			case <-ctx.Done():
				return ""
			}
		}
	}
	e := &rootsEntry{done: make(chan struct{})}
	c.store(key, e, now())
	c.mu.Unlock()

	p, keep := ask(ctx)
	c.mu.Lock()
	e.project, e.at = p, now()
	close(e.done)
	if !keep && c.m[key] == e {
		delete(c.m, key)
	}
	c.mu.Unlock()
	return p
}

// forgetSession drops what is cached for the session id, or everything when
// id is "" (a roots change from a sender that cannot be told apart).
func (c *rootsCache) forgetSession(id string) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for k := range c.m {
		if id == "" || k.session == id {
			delete(c.m, k)
		}
	}
}
