package cli

// The HTTP transports of `mneme serve`: streamable HTTP at /mcp
// (--transport http) and the older SSE transport at /sse + /message
// (--transport sse), behind one middleware chain that makes them safe to run
// on a laptop or a server:
//
//	GET /healthz  200 "ok", no token needed (for supervisors and load balancers)
//	Host          DNS rebinding: on a loopback bind the Host must be a loopback
//	              name; elsewhere the bind host, the machine's own names and
//	              addresses (when bound to all interfaces) or a host named in
//	              AllowedOrigins                                          -> 403
//	Origin        absent, a loopback origin (any port) or in AllowedOrigins -> 403
//	CORS          allowed origins get CORS headers; their preflights are
//	              answered here, before auth (browsers send no token on them)
//	auth          Authorization: Bearer <token>, when any token is configured,
//	              compared in constant time against every token       -> 401
//	body limit    MaxBodyBytes (default 4 MiB), buffered here         -> 413
//	mcp-go        one MCP server (and transport) per store, chosen by the token;
//	              its responses pass through newRootsFixResponseWriter (rootsfix.go)
//
// Binding anywhere but loopback without a token is refused at start.

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/server"
)

const (
	httpDefaultMaxBody     = 4 << 20          // MaxBodyBytes when unset
	httpBodyReadTimeout    = 30 * time.Second // a request body must arrive within this
	httpReadHeaderTimeout  = 10 * time.Second
	httpIdleTimeout        = 2 * time.Minute
	httpShutdownGrace      = 5 * time.Second // in-flight requests get this long to finish
	httpSSEKeepAlive       = 30 * time.Second
	httpSessionIdleTTL     = time.Hour // per-session state of silent streamable clients is dropped after this
	httpShutdownSweepEvery = 10 * time.Millisecond
)

// httpOptions configures the HTTP transports. The cli fills it from
// config.Config ([server] and [tokens]) and the serve flags.
type httpOptions struct {
	Transport      string            // "http" (streamable HTTP at /mcp, the default when empty) or "sse" (/sse + /message)
	Addr           string            // host:port to listen on
	Token          string            // MNEME_TOKEN: bearer token for the default store ""
	Tokens         map[string]string // config [tokens]: bearer token -> store name; each store gets its own MCP server
	AllowedOrigins []string          // extra Origin values (scheme://host[:port]) accepted besides loopback origins; their hosts are also accepted as Host
	MaxBodyBytes   int64             // request body limit (<= 0: 4 MiB); larger bodies get 413
	Logger         *slog.Logger      // nil: discard
}

// httpServerFactory returns the MCP server for a store name ("" is the
// default store). The handler calls it lazily on a store's first request and
// caches the result; an error is not cached (the next request retries) and is
// answered with 500. Calls for one store are serialised, calls for different
// stores may run concurrently. ctx is the one given to newHTTPHandler or
// runHTTP, not a request's. Closing what the factory opened is the caller's
// job, after runHTTP returns.
type httpServerFactory func(ctx context.Context, store string) (*server.MCPServer, error)

// httpCheckBind refuses to serve on a non-loopback address when no token is
// configured: anyone who could reach the port could read and change the
// memories. The error says how to configure a token.
func httpCheckBind(o httpOptions) error {
	host, _, err := net.SplitHostPort(o.Addr)
	if err != nil {
		return fmt.Errorf("http address %q: use host:port such as 127.0.0.1:8765", o.Addr)
	}
	if httpIsLoopback(host) || o.Token != "" || len(o.Tokens) > 0 {
		return nil
	}
	where := host
	if where == "" {
		where = "all interfaces"
	}
	return fmt.Errorf("refusing to serve on %s (%s) without a token: anyone who can reach it could read and change the memories; "+
		"set MNEME_TOKEN to a long random string (for example `openssl rand -hex 32`), "+
		"or add a [tokens] table to config.toml mapping each token to a store (\"<token>\" = \"<store>\"), "+
		"or bind to 127.0.0.1", o.Addr, where)
}

// newHTTPHandler returns the handler serving o.Transport with the checks
// described at the top of this file. It refuses what httpCheckBind refuses,
// an unknown transport, empty or conflicting tokens and malformed allowed
// origins. The handler is safe for concurrent use.
func newHTTPHandler(ctx context.Context, o httpOptions, factory httpServerFactory) (http.Handler, error) {
	return newHTTPMux(ctx, o, factory)
}

// runHTTP listens on o.Addr and serves until ctx is done, then shuts down
// gracefully: no new connections, open streams are closed, in-flight
// requests get a few seconds to finish. It returns nil after a shutdown
// asked for through ctx.
func runHTTP(ctx context.Context, o httpOptions, factory httpServerFactory) error {
	if err := httpCheckBind(o); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", o.Addr)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	return runHTTPListener(ctx, ln, o, factory)
}

// runHTTPListener is runHTTP on a listener the caller opened (tests listen on
// 127.0.0.1:0). When o.Addr is empty the listener's address is used for the
// bind and Host policy. It closes ln.
func runHTTPListener(ctx context.Context, ln net.Listener, o httpOptions, factory httpServerFactory) error {
	if o.Addr == "" {
		o.Addr = ln.Addr().String()
	}
	h, err := newHTTPMux(ctx, o, factory)
	if err != nil {
		ln.Close()
		return err
	}
	// Requests do not inherit ctx's cancellation: a signal starts a graceful
	// shutdown, and only when the grace period runs out are they cancelled.
	baseCtx, cancelBase := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelBase()
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: httpReadHeaderTimeout,
		IdleTimeout:       httpIdleTimeout,
		ErrorLog:          slog.NewLogLogger(h.log.Handler(), slog.LevelWarn),
		BaseContext:       func(net.Listener) context.Context { return baseCtx },
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	h.log.Info("serving", "transport", h.transport, "url", "http://"+ln.Addr().String()+h.endpoint(),
		"auth", h.authRequired(), "tokens", len(h.tokens))

	select {
	case err := <-served:
		h.closeSessions()
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	h.log.Info("shutting down")
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), httpShutdownGrace)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- srv.Shutdown(sctx) }()
	// Shutdown waits for active requests, and event streams only end when
	// their session is closed; sessions opened meanwhile are caught by the
	// next sweep.
	tick := time.NewTicker(httpShutdownSweepEvery)
	defer tick.Stop()
	var shutdownErr error
wait:
	for {
		h.closeSessions()
		select {
		case shutdownErr = <-done:
			break wait
		case <-tick.C:
		}
	}
	if err := shutdownErr; err != nil {
		h.log.Warn("requests still running after the grace period: closing their connections", "grace", httpShutdownGrace, "err", err)
		cancelBase()
		srv.Close()
	}
	<-served // http.ErrServerClosed
	h.log.Info("stopped")
	return nil
}

// httpMux is the handler behind newHTTPHandler.
type httpMux struct {
	ctx       context.Context
	factory   httpServerFactory
	log       *slog.Logger
	transport string
	maxBody   int64

	loopbackBind bool            // bound to a loopback address: Host must be loopback
	hosts        map[string]bool // otherwise: the accepted Host names (lower case, no port)
	origins      map[string]bool // normalised AllowedOrigins

	tokens []httpToken // empty: no auth (loopback only)

	mu     sync.Mutex
	stores map[string]*httpStore
}

// httpToken is one configured token, kept as its SHA-256 so that every
// comparison takes the same time whatever the lengths.
type httpToken struct {
	sum   [sha256.Size]byte
	store string
}

// httpStore is the lazily built transport of one store.
type httpStore struct {
	mu sync.Mutex                    // held while the factory runs
	tr atomic.Pointer[httpTransport] // set once built
}

// httpTransport is one store's mcp-go transport.
type httpTransport struct {
	handler http.Handler
	close   func() // ends the open event streams
}

func newHTTPMux(ctx context.Context, o httpOptions, factory httpServerFactory) (*httpMux, error) {
	if err := httpCheckBind(o); err != nil {
		return nil, err
	}
	if factory == nil {
		return nil, errors.New("http: no server factory")
	}
	h := &httpMux{
		ctx:       ctx,
		factory:   factory,
		log:       o.Logger,
		transport: o.Transport,
		maxBody:   o.MaxBodyBytes,
		origins:   map[string]bool{},
		stores:    map[string]*httpStore{},
	}
	if h.log == nil {
		h.log = slog.New(slog.DiscardHandler)
	}
	switch h.transport {
	case "":
		h.transport = "http"
	case "http", "sse":
	default:
		return nil, fmt.Errorf("transport %q: use http (streamable HTTP) or sse", o.Transport)
	}
	if h.maxBody <= 0 {
		h.maxBody = httpDefaultMaxBody
	}

	seen := map[[sha256.Size]byte]string{}
	add := func(token, store string) error {
		if token == "" {
			return errors.New("http: a token is empty: use a long random string")
		}
		sum := sha256.Sum256([]byte(token))
		if prev, ok := seen[sum]; ok && prev != store {
			return fmt.Errorf("http: one token is configured for two stores (%q and %q)", httpStoreLabel(prev), httpStoreLabel(store))
		} else if ok {
			return nil
		}
		seen[sum] = store
		h.tokens = append(h.tokens, httpToken{sum: sum, store: store})
		return nil
	}
	if o.Token != "" {
		if err := add(o.Token, ""); err != nil {
			return nil, err
		}
	}
	for token, store := range o.Tokens {
		if err := add(token, store); err != nil {
			return nil, err
		}
	}

	var originHosts []string
	for _, raw := range o.AllowedOrigins {
		norm, host, ok := httpNormOrigin(raw)
		if !ok {
			return nil, fmt.Errorf("allowed origin %q: use scheme://host[:port], such as https://app.example.com", raw)
		}
		h.origins[norm] = true
		originHosts = append(originHosts, host)
	}

	bindHost, _, _ := net.SplitHostPort(o.Addr) // checked by httpCheckBind
	h.loopbackBind = httpIsLoopback(bindHost)
	if !h.loopbackBind {
		h.hosts = httpBindHosts(bindHost, originHosts)
	}
	return h, nil
}

// httpBindHosts lists the Host names accepted on a non-loopback bind: the
// bind host itself, or, bound to all interfaces, loopback names, the
// machine's addresses and host name; plus the hosts of the allowed origins
// (how to admit a DNS name a reverse proxy forwards).
func httpBindHosts(bindHost string, originHosts []string) map[string]bool {
	hosts := map[string]bool{}
	add := func(h string) { hosts[strings.ToLower(strings.Trim(h, "[]"))] = true }
	ip, err := netip.ParseAddr(bindHost)
	if bindHost != "" && (err != nil || !ip.IsUnspecified()) {
		add(bindHost)
	} else {
		add("localhost")
		if addrs, err := net.InterfaceAddrs(); err == nil {
			for _, a := range addrs {
				if p, err := netip.ParsePrefix(a.String()); err == nil {
					add(p.Addr().WithZone("").String())
				}
			}
		}
		if name, err := os.Hostname(); err == nil && name != "" {
			add(name)
		}
	}
	for _, h := range originHosts {
		add(h)
	}
	return hosts
}

// endpoint is the path clients connect to.
func (h *httpMux) endpoint() string {
	if h.transport == "sse" {
		return "/sse"
	}
	return "/mcp"
}

func (h *httpMux) authRequired() bool { return len(h.tokens) > 0 }

// ServeHTTP runs the checks in order: healthz, Host, Origin (+ CORS), auth,
// body limit, then the store's transport.
func (h *httpMux) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/healthz" {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		io.WriteString(w, "ok\n")
		return
	}
	if !h.hostAllowed(r.Host) {
		h.reject(w, r, http.StatusForbidden, "host not allowed", "forbidden: host "+r.Host+" is not allowed (DNS rebinding protection)")
		return
	}
	origin := r.Header.Get("Origin")
	if origin != "" {
		if !h.originAllowed(origin) {
			h.reject(w, r, http.StatusForbidden, "origin not allowed", "forbidden: origin "+origin+" is not allowed")
			return
		}
		if h.cors(w, r, origin) {
			return
		}
	}
	store, ok := h.authenticate(r)
	if !ok {
		challenge := `Bearer realm="mneme"`
		if r.Header.Get("Authorization") != "" {
			challenge += `, error="invalid_token"`
		}
		w.Header().Set("WWW-Authenticate", challenge)
		h.reject(w, r, http.StatusUnauthorized, "unauthorized", "unauthorized: send Authorization: Bearer <token>")
		return
	}
	if !h.limitBody(w, r) {
		return
	}
	tr, err := h.storeTransport(store)
	if err != nil {
		h.log.Error("cannot open store for http", "store", httpStoreLabel(store), "err", err)
		http.Error(w, "internal error: cannot open the store (see the server log)", http.StatusInternalServerError)
		return
	}
	// The roots input request gets the params go-sdk clients need (see
	// rootsfix.go).
	tr.handler.ServeHTTP(newRootsFixResponseWriter(w), r)
}

func (h *httpMux) reject(w http.ResponseWriter, r *http.Request, code int, why, msg string) {
	h.log.Warn("http request rejected", "why", why, "status", code, "method", r.Method, "path", r.URL.Path,
		"remote", r.RemoteAddr, "host", r.Host, "origin", r.Header.Get("Origin"))
	http.Error(w, msg, code)
}

// hostAllowed is the DNS rebinding check on the Host header.
func (h *httpMux) hostAllowed(hostport string) bool {
	host := hostport
	if hh, _, err := net.SplitHostPort(hostport); err == nil {
		host = hh
	}
	host = strings.Trim(host, "[]")
	if host == "" {
		return false
	}
	if h.loopbackBind {
		return httpIsLoopback(host)
	}
	return h.hosts[strings.ToLower(host)]
}

// originAllowed accepts loopback origins (http or https, any port) and the
// configured ones.
func (h *httpMux) originAllowed(origin string) bool {
	norm, host, ok := httpNormOrigin(origin)
	if !ok {
		return false // includes "null"
	}
	return httpIsLoopback(host) || h.origins[norm]
}

// cors decorates responses to allowed cross-origin requests and answers
// their preflights, which browsers send without credentials. It reports
// whether the request was a preflight and has been answered.
func (h *httpMux) cors(w http.ResponseWriter, r *http.Request, origin string) bool {
	hd := w.Header()
	hd.Add("Vary", "Origin")
	hd.Set("Access-Control-Allow-Origin", origin)
	hd.Set("Access-Control-Expose-Headers", "Mcp-Session-Id, WWW-Authenticate")
	if r.Method != http.MethodOptions || r.Header.Get("Access-Control-Request-Method") == "" {
		return false
	}
	hd.Set("Access-Control-Allow-Methods", "GET, POST, DELETE, OPTIONS")
	hd.Set("Access-Control-Allow-Headers", "Authorization, Content-Type, Accept, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID")
	hd.Set("Access-Control-Max-Age", "600")
	w.WriteHeader(http.StatusNoContent)
	return true
}

// authenticate returns the store the request's bearer token opens. With no
// token configured every request opens the default store. The presented
// token is compared with every configured one, without stopping at a match.
func (h *httpMux) authenticate(r *http.Request) (string, bool) {
	if len(h.tokens) == 0 {
		return "", true
	}
	scheme, token, _ := strings.Cut(r.Header.Get("Authorization"), " ")
	token = strings.TrimSpace(token)
	if !strings.EqualFold(scheme, "Bearer") || token == "" {
		return "", false
	}
	sum := sha256.Sum256([]byte(token))
	match := -1
	for i := range h.tokens {
		eq := subtle.ConstantTimeCompare(sum[:], h.tokens[i].sum[:])
		match = subtle.ConstantTimeSelect(eq, i, match)
	}
	if match < 0 {
		return "", false
	}
	return h.tokens[match].store, true
}

// limitBody enforces maxBody. A declared length over the limit is refused
// before anything is read; otherwise the body is read here, through
// http.MaxBytesReader, so that an oversized chunked body also ends in a 413
// (mcp-go would turn a read error into a JSON-RPC parse error), and handed on
// from memory. It reports whether the request may go on.
func (h *httpMux) limitBody(w http.ResponseWriter, r *http.Request) bool {
	tooLarge := fmt.Sprintf("request body too large: the limit is %d bytes", h.maxBody)
	if r.ContentLength > h.maxBody {
		h.reject(w, r, http.StatusRequestEntityTooLarge, "body too large", tooLarge)
		return false
	}
	if r.Body == nil || r.Body == http.NoBody {
		return true
	}
	rc := http.NewResponseController(w)
	_ = rc.SetReadDeadline(time.Now().Add(httpBodyReadTimeout)) // unsupported by some writers (tests): then no deadline
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, h.maxBody))
	_ = rc.SetReadDeadline(time.Time{})
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			h.reject(w, r, http.StatusRequestEntityTooLarge, "body too large", tooLarge)
		} else {
			h.reject(w, r, http.StatusBadRequest, "body unreadable", "cannot read the request body")
		}
		return false
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.ContentLength = int64(len(body))
	return true
}

// storeTransport returns the transport of store, building it on first use.
func (h *httpMux) storeTransport(store string) (*httpTransport, error) {
	h.mu.Lock()
	s := h.stores[store]
	if s == nil {
		s = &httpStore{}
		h.stores[store] = s
	}
	h.mu.Unlock()
	if tr := s.tr.Load(); tr != nil {
		return tr, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if tr := s.tr.Load(); tr != nil {
		return tr, nil
	}
	mcpServer, err := h.factory(h.ctx, store)
	if err != nil {
		return nil, err
	}
	if mcpServer == nil {
		return nil, errors.New("server factory returned no server")
	}
	tr := h.newTransport(mcpServer)
	s.tr.Store(tr)
	h.log.Info("store ready for http", "store", httpStoreLabel(store))
	return tr, nil
}

// newTransport wraps one MCP server in mcp-go's transport. mcp-go's own DNS
// rebinding check is off: the Host policy above replaces it (and, unlike it,
// admits configured names on non-loopback binds). CORS is ours too.
func (h *httpMux) newTransport(s *server.MCPServer) *httpTransport {
	if h.transport == "sse" {
		// mcp-go answers /sse with Access-Control-Allow-Origin: *; only
		// requests whose Origin passed the check above get that far.
		sse := server.NewSSEServer(s,
			server.WithSSEEndpoint("/sse"),
			server.WithMessageEndpoint("/message"), // announced to the client as "/message?sessionId=..."
			server.WithUseFullURLForMessageEndpoint(false),
			server.WithSSEDisableLocalhostProtection(true),
			server.WithKeepAliveInterval(httpSSEKeepAlive),
		)
		return &httpTransport{handler: sse, close: sse.CloseSessions}
	}
	sh := server.NewStreamableHTTPServer(s,
		server.WithEndpointPath("/mcp"),
		server.WithDisableLocalhostProtection(true),
		server.WithStreamableHTTPLogger(h.log),
		server.WithSessionIdleTTL(httpSessionIdleTTL),
	)
	return &httpTransport{
		// The streamable server answers on any path; only /mcp is its.
		handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != "/mcp" {
				http.NotFound(w, r)
				return
			}
			sh.ServeHTTP(w, r)
		}),
		close: func() { _ = sh.Shutdown(context.Background()) }, // no http.Server of its own: ends sessions and the idle sweeper
	}
}

// closeSessions ends the open event streams of every store.
func (h *httpMux) closeSessions() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, s := range h.stores {
		if tr := s.tr.Load(); tr != nil {
			tr.close()
		}
	}
}

// httpIsLoopback reports whether host (no port, brackets allowed) is
// "localhost" or a loopback IP.
func httpIsLoopback(host string) bool {
	host = strings.Trim(host, "[]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.Unmap().IsLoopback()
}

// httpNormOrigin normalises an origin to lower-case scheme://host[:port]
// without a default port, and returns its host. Only http and https origins
// without path, query or user info are valid.
func httpNormOrigin(s string) (norm, host string, ok bool) {
	u, err := url.Parse(s)
	if err != nil || u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" || (u.Path != "" && u.Path != "/") {
		return "", "", false
	}
	scheme := strings.ToLower(u.Scheme)
	if scheme != "http" && scheme != "https" {
		return "", "", false
	}
	host = strings.ToLower(u.Hostname())
	port := u.Port()
	if (scheme == "http" && port == "80") || (scheme == "https" && port == "443") {
		port = ""
	}
	hp := host
	if strings.Contains(host, ":") {
		hp = "[" + host + "]"
	}
	if port != "" {
		hp += ":" + port
	}
	return scheme + "://" + hp, host, true
}

// httpStoreLabel names a store in messages.
func httpStoreLabel(store string) string {
	if store == "" {
		return "default"
	}
	return store
}
