package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"github.com/mneme-mcp/mneme/config"
	"github.com/mneme-mcp/mneme/memory"
	"github.com/mneme-mcp/mneme/ontology"
	"github.com/mneme-mcp/mneme/tools"
)

// runServe serves the store over MCP: `mneme serve` (also what plain `mneme`
// does), on stdin/stdout (the default), streamable HTTP or SSE. In stdio
// mode stdout carries JSON-RPC and nothing else: logs go to stderr or the
// log file.
//
// Start-up stays light so the client's initialize is answered at once:
// memory.Open only migrates the schema and loads its index in the
// background; tool calls wait for the index, the handshake does not.
//
// One ontology manager (<config dir>/ontology.json, reloaded when the file
// changes) is shared by every store served by the process.
func runServe(a *app, args []string) error {
	fs := a.newFlagSet()
	var transport, addr, scope string
	fs.StringVar(&transport, "transport", "", "stdio, http (streamable HTTP at /mcp) or sse (/sse and /message) (env MNEME_TRANSPORT; default stdio)")
	fs.StringVar(&addr, "addr", "", "`host:port` to listen on for http and sse (env MNEME_ADDR; default 127.0.0.1:8765)")
	fs.StringVar(&scope, "scope", "", "fix the `scope` of every call that names none (env MNEME_SCOPE); default: the client's project from its workspace roots, else personal")
	pos, err := a.parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("serve takes no arguments, got %q", pos)
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	e, err := a.setupWith(func(c *config.Config) {
		if set["transport"] {
			c.Server.Transport = transport
		}
		if set["addr"] {
			c.Server.Addr = addr
		}
		if set["scope"] {
			c.Scope = scope
		}
	})
	if err != nil {
		return err
	}
	defer e.close()

	var o httpOptions
	if e.cfg.Server.Transport != "stdio" {
		o = httpOpts(e)
		if err := httpCheckBind(o); err != nil {
			return usageError{err}
		}
	}

	ctx, cancel := context.WithCancel(a.ctx)
	defer cancel()
	onto, err := ontology.NewManager(e.cfg.ConfigDir, e.logger)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		if err := onto.Watch(ctx); err != nil {
			e.logger.Warn("ontology file changes are not picked up until restart", "file", onto.File(), "err", err)
		}
	}()
	defer func() { cancel(); <-watched }()

	if e.cfg.Server.Transport == "stdio" {
		return a.serveStdio(ctx, e, onto)
	}
	return a.serveHTTP(ctx, e, o, onto)
}

// httpOpts returns the HTTP transport's options from the configuration.
func httpOpts(e *env) httpOptions {
	return httpOptions{
		Transport:      e.cfg.Server.Transport,
		Addr:           e.cfg.Server.Addr,
		Token:          e.cfg.Server.Token,
		Tokens:         e.cfg.Tokens,
		AllowedOrigins: e.cfg.Server.AllowedOrigins,
		MaxBodyBytes:   e.cfg.Server.MaxBodyBytes,
		Logger:         e.logger,
	}
}

// serverDeps returns the tools' dependencies for one store. FixedScope is
// set only when the user fixed a scope (--scope, MNEME_SCOPE, scope in the
// file); otherwise the project scope comes from the client's roots.
func serverDeps(e *env, st *memory.Store, onto *ontology.Manager) tools.Deps {
	return tools.Deps{
		Store:      st,
		Logger:     e.logger,
		Now:        e.now,
		Location:   e.loc,
		DayFirst:   e.cfg.DayFirst(),
		Budget:     e.cfg.Recall.Budget,
		Version:    version(),
		Ontology:   onto,
		FixedScope: e.cfg.Scope,
	}
}

// serveStdio serves the configured store on stdin/stdout until the input
// ends or ctx is done. At the end of input, calls still running get
// stdioDrainGrace to answer (see stdioDrain).
func (a *app) serveStdio(ctx context.Context, e *env, onto *ontology.Manager) error {
	st, err := a.openStore(e, e.cfg.DBPath(), false)
	if err != nil {
		return err
	}
	defer st.Close()

	stdio := server.NewStdioServer(tools.NewServer(serverDeps(e, st, onto)))
	stdio.SetErrorLogger(slog.NewLogLogger(e.logger.Handler(), slog.LevelError))
	e.logger.Info("serving", "transport", "stdio", "store", st.Path(), "model", st.ModelID(),
		"scope", scopeLabel(e.cfg.Scope), "ontology", onto.File(), "version", version())
	d := newStdioDrain(ctx, a.stdin, a.stdout, stdioDrainGrace)
	// rootsFixWriter gives the roots input request the params go-sdk
	// clients need (see rootsfix.go).
	err = stdio.Listen(ctx, d.in, rootsFixWriter{d.out})
	if n := d.unanswered(); n > 0 {
		e.logger.Warn("input ended with calls unanswered", "calls", n, "grace", stdioDrainGrace)
	}
	if err != nil && !errors.Is(err, context.Canceled) {
		return fmt.Errorf("serve: %w", err)
	}
	e.logger.Info("stopped")
	return nil
}

// serveHTTP serves over streamable HTTP or SSE until ctx is done. Each store
// (the default one, or one named by a [tokens] entry) is opened on its
// first request and closed after the server has shut down.
// A bind refused by httpCheckBind has been reported before (exit 2).
func (a *app) serveHTTP(ctx context.Context, e *env, o httpOptions, onto *ontology.Manager) error {
	stores := &httpStores{a: a, e: e, onto: onto, open: map[string]*memory.Store{}}
	defer stores.close()
	e.logger.Info("starting", "transport", o.Transport, "addr", o.Addr, "store", e.cfg.DBPath(),
		"scope", scopeLabel(e.cfg.Scope), "ontology", onto.File(), "version", version())
	return runHTTP(ctx, o, stores.server)
}

// httpStores opens the stores an HTTP server serves, once per database file
// (a token naming the default store shares its *memory.Store), and closes
// them all at the end. server is an httpServerFactory: safe for concurrent
// use.
type httpStores struct {
	a    *app
	e    *env
	onto *ontology.Manager

	mu   sync.Mutex
	open map[string]*memory.Store // by database path
}

// path returns the database file of a store name: "" is the configured
// store (DBPath), any other name <data_dir>/<name>.db.
func (s *httpStores) path(name string) string {
	if name == "" {
		return s.e.cfg.DBPath()
	}
	return filepath.Join(s.e.cfg.DataDir, name+".db")
}

// server is the factory handed to runHTTP: the MCP server of one store.
func (s *httpStores) server(_ context.Context, name string) (*server.MCPServer, error) {
	path := s.path(name)
	s.mu.Lock()
	st := s.open[path]
	s.mu.Unlock()
	if st == nil {
		// Opening runs outside the lock: the factory is serialised per
		// store name, and two names on one file are rare; the loser of
		// such a race closes its copy.
		opened, err := s.a.openStore(s.e, path, false)
		if err != nil {
			return nil, err
		}
		s.mu.Lock()
		if st = s.open[path]; st == nil {
			st = opened
			s.open[path] = st
		}
		s.mu.Unlock()
		if st != opened {
			opened.Close()
		}
		s.e.logger.Info("store opened", "name", httpStoreLabel(name), "path", path, "model", st.ModelID())
	}
	return tools.NewServer(serverDeps(s.e, st, s.onto)), nil
}

// close closes every opened store.
func (s *httpStores) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for path, st := range s.open {
		if err := st.Close(); err != nil {
			s.e.logger.Error("close store", "path", path, "err", err)
		}
	}
	s.open = map[string]*memory.Store{}
}

// scopeLabel names the scope setting in logs.
func scopeLabel(fixed string) string {
	if fixed == "" {
		return "automatic"
	}
	return fixed
}

// stdioDrainGrace is how long calls still running at the end of input get to
// answer before mcp-go cancels them.
const stdioDrainGrace = 10 * time.Second

// stdioDrain lets calls in flight finish when the client closes stdin.
// mcp-go's stdio server cancels every running handler as soon as its input
// ends, so a client that writes its requests and closes stdin at once (a
// script, `mneme serve < requests.jsonl`) would lose the answers of calls
// still running. stdioDrain sits between the streams and mcp-go: it notes
// the id of every request read and of every response written, and at the
// end of input holds the EOF back until every request has been answered
// (or cancelled by notifications/cancelled), the grace period is over, or
// ctx is done. Real clients keep stdin open while they wait, so for them
// nothing changes.
type stdioDrain struct {
	ctx   context.Context
	grace time.Duration
	in    io.Reader
	out   io.Writer

	mu      sync.Mutex
	pending map[string]bool // request ids read and not yet answered
	idle    chan struct{}   // closed when pending becomes empty; replaced when it fills
}

func newStdioDrain(ctx context.Context, stdin io.Reader, stdout io.Writer, grace time.Duration) *stdioDrain {
	d := &stdioDrain{ctx: ctx, grace: grace, pending: map[string]bool{}, idle: make(chan struct{})}
	close(d.idle)
	d.in = &drainReader{d: d, r: stdin}
	d.out = &drainWriter{d: d, w: stdout}
	return d
}

// unanswered returns how many requests have had no response.
func (d *stdioDrain) unanswered() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.pending)
}

// wait blocks until every request read has been answered, the grace period
// is over or ctx is done.
func (d *stdioDrain) wait() {
	d.mu.Lock()
	idle := d.idle
	d.mu.Unlock()
	t := time.NewTimer(d.grace)
	defer t.Stop()
	select {
	case <-idle:
	case <-t.C:
	case <-d.ctx.Done():
	}
}

// seen records the JSON-RPC messages of one line read (in) or written.
func (d *stdioDrain) seen(line []byte, in bool) {
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return
	}
	var msgs []json.RawMessage
	if line[0] == '[' {
		if json.Unmarshal(line, &msgs) != nil {
			return
		}
	} else {
		msgs = []json.RawMessage{line}
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, raw := range msgs {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				RequestID json.RawMessage `json:"requestId"`
			} `json:"params"`
		}
		if json.Unmarshal(raw, &m) != nil {
			continue
		}
		switch {
		case in && m.Method == "notifications/cancelled":
			d.done(rpcID(m.Params.RequestID))
		case in && m.Method != "":
			if id := rpcID(m.ID); id != "" {
				if len(d.pending) == 0 {
					d.idle = make(chan struct{})
				}
				d.pending[id] = true
			}
		case !in && m.Method == "": // a response (the server's own requests have a method)
			d.done(rpcID(m.ID))
		}
	}
}

// done forgets one request; d.mu is held.
func (d *stdioDrain) done(id string) {
	if id == "" || !d.pending[id] {
		return
	}
	delete(d.pending, id)
	if len(d.pending) == 0 {
		close(d.idle)
	}
}

// rpcID returns a JSON-RPC id as a comparable key ("" for none or null):
// strings and numbers stay apart, and 1 and 1.0 are the same number.
func rpcID(raw json.RawMessage) string {
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if len(raw) == 0 || dec.Decode(&v) != nil {
		return ""
	}
	switch v := v.(type) {
	case string:
		return "s" + v
	case json.Number:
		if f, err := v.Float64(); err == nil {
			return "n" + strconv.FormatFloat(f, 'g', -1, 64)
		}
		return "n" + v.String()
	}
	return ""
}

// drainReader is stdin as mcp-go sees it.
type drainReader struct {
	d       *stdioDrain
	r       io.Reader
	line    []byte // the current line so far
	newline bool   // a newline is still to be handed over before the end
	eof     error  // the end of input, held back until the drain is over
}

func (r *drainReader) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if r.newline {
		r.newline = false
		p[0] = '\n'
		return 1, nil
	}
	if r.eof != nil {
		r.d.wait()
		return 0, r.eof
	}
	n, err := r.r.Read(p)
	r.scan(p[:n])
	if err == nil {
		return n, nil
	}
	// Hand over what was read first: the requests in it must be dispatched
	// before the wait for their answers starts. mcp-go drops a last line
	// without a newline, so one is added.
	r.eof = err
	if len(r.line) > 0 {
		r.d.seen(r.line, true)
		r.line = nil
		r.newline = true
	}
	if n > 0 || r.newline {
		return n, nil
	}
	return r.Read(p)
}

// scan records each complete line of p.
func (r *drainReader) scan(p []byte) {
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			r.line = append(r.line, p...)
			return
		}
		r.line = append(r.line, p[:i]...)
		r.d.seen(r.line, true)
		r.line = r.line[:0]
		p = p[i+1:]
	}
}

// drainWriter is stdout as mcp-go sees it. mcp-go writes one message per
// call under a lock of its own; partial lines are still handled.
type drainWriter struct {
	d    *stdioDrain
	w    io.Writer
	mu   sync.Mutex
	line []byte
}

func (w *drainWriter) Write(p []byte) (int, error) {
	n, err := w.w.Write(p)
	w.mu.Lock()
	defer w.mu.Unlock()
	q := p[:n]
	for len(q) > 0 {
		i := bytes.IndexByte(q, '\n')
		if i < 0 {
			w.line = append(w.line, q...)
			break
		}
		w.line = append(w.line, q[:i]...)
		w.d.seen(w.line, false)
		w.line = w.line[:0]
		q = q[i+1:]
	}
	return n, err
}
