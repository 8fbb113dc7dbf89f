package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// httpTestFactory builds a real mcp-go server per store with one tool, echo,
// whose answer names the store, and counts the calls per store.
type httpTestFactory struct {
	mu    sync.Mutex
	calls map[string]int
	fail  map[string]bool // stores whose factory call fails
}

func newHTTPTestFactory() *httpTestFactory {
	return &httpTestFactory{calls: map[string]int{}, fail: map[string]bool{}}
}

func (f *httpTestFactory) serverFor(_ context.Context, store string) (*server.MCPServer, error) {
	f.mu.Lock()
	f.calls[store]++
	fail := f.fail[store]
	f.mu.Unlock()
	if fail {
		return nil, errors.New("store is broken")
	}
	// The version carries the store so tests can see which server answered.
	s := server.NewMCPServer("mneme-test", "0-"+httpStoreLabel(store),
		server.WithToolCapabilities(false),
		server.WithResourceCapabilities(false, false),
		server.WithPromptCapabilities(false),
		server.WithLogging(),
	)
	s.AddTool(mcp.NewTool("echo",
		mcp.WithDescription("echo the text back, prefixed with the store"),
		mcp.WithString("text", mcp.Required()),
		mcp.WithReadOnlyHintAnnotation(true),
		mcp.WithDestructiveHintAnnotation(false),
		mcp.WithIdempotentHintAnnotation(true),
	), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText(httpStoreLabel(store) + ": " + req.GetString("text", "")), nil
	})
	return s, nil
}

func (f *httpTestFactory) count(store string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls[store]
}

// startHTTPTest serves newHTTPHandler(o) on a loopback httptest server.
func startHTTPTest(t *testing.T, o httpOptions, f *httpTestFactory) *httptest.Server {
	t.Helper()
	if o.Addr == "" {
		o.Addr = "127.0.0.1:0"
	}
	h, err := newHTTPHandler(t.Context(), o, f.serverFor)
	if err != nil {
		t.Fatalf("newHTTPHandler: %v", err)
	}
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	return ts
}

const httpTestInitialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"http-test","version":"0"}}}`

// httpInitRequest is an initialize POST to url with the headers a streamable
// HTTP client sends, plus extra ("Host" sets the Host header).
func httpInitRequest(t *testing.T, url string, extra map[string]string) *http.Request {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, url, strings.NewReader(httpTestInitialize))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range extra {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	return req
}

// httpDo sends req and returns the status, headers and body.
func httpDo(t *testing.T, req *http.Request) (int, http.Header, string) {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(body)
}

// httpServerVersion extracts serverInfo.version from an initialize answer
// (plain JSON or one SSE event).
func httpServerVersion(t *testing.T, body string) string {
	t.Helper()
	if i := strings.Index(body, "data:"); i >= 0 {
		body = strings.TrimSpace(strings.SplitN(body[i+len("data:"):], "\n", 2)[0])
	}
	var msg struct {
		Result struct {
			ServerInfo struct{ Version string } `json:"serverInfo"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(body), &msg); err != nil {
		t.Fatalf("initialize answer %q: %v", body, err)
	}
	return msg.Result.ServerInfo.Version
}

func TestHTTPHealthzNeedsNoToken(t *testing.T) {
	ts := startHTTPTest(t, httpOptions{Token: "s3cret"}, newHTTPTestFactory())
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, ts.URL+"/healthz", nil)
	code, _, body := httpDo(t, req)
	if code != http.StatusOK || strings.TrimSpace(body) != "ok" {
		t.Errorf("GET /healthz = %d %q, want 200 ok", code, body)
	}
	req, _ = http.NewRequestWithContext(t.Context(), http.MethodPost, ts.URL+"/healthz", nil)
	if code, _, _ := httpDo(t, req); code != http.StatusMethodNotAllowed {
		t.Errorf("POST /healthz = %d, want 405", code)
	}
}

func TestHTTPAuth(t *testing.T) {
	f := newHTTPTestFactory()
	ts := startHTTPTest(t, httpOptions{Token: "s3cret"}, f)
	for _, tc := range []struct {
		name, auth string
		want       int
	}{
		{"missing", "", http.StatusUnauthorized},
		{"wrong", "Bearer nope", http.StatusUnauthorized},
		{"prefix of the right one", "Bearer s3cre", http.StatusUnauthorized},
		{"right one plus more", "Bearer s3cret2", http.StatusUnauthorized},
		{"basic scheme", "Basic czNjcmV0", http.StatusUnauthorized},
		{"empty bearer", "Bearer ", http.StatusUnauthorized},
		{"right", "Bearer s3cret", http.StatusOK},
		{"scheme case-insensitive", "bearer s3cret", http.StatusOK},
	} {
		t.Run(tc.name, func(t *testing.T) {
			extra := map[string]string{}
			if tc.auth != "" {
				extra["Authorization"] = tc.auth
			}
			code, hdr, body := httpDo(t, httpInitRequest(t, ts.URL+"/mcp", extra))
			if code != tc.want {
				t.Fatalf("status %d (%s), want %d", code, body, tc.want)
			}
			if code == http.StatusUnauthorized && !strings.HasPrefix(hdr.Get("WWW-Authenticate"), "Bearer") {
				t.Errorf("WWW-Authenticate = %q, want a Bearer challenge", hdr.Get("WWW-Authenticate"))
			}
			if code == http.StatusOK && !strings.Contains(body, `"protocolVersion"`) {
				t.Errorf("initialize answer %q has no protocolVersion", body)
			}
		})
	}
}

func TestHTTPNoTokenOnLoopbackNeedsNoAuth(t *testing.T) {
	ts := startHTTPTest(t, httpOptions{}, newHTTPTestFactory())
	if code, _, body := httpDo(t, httpInitRequest(t, ts.URL+"/mcp", nil)); code != http.StatusOK {
		t.Fatalf("initialize without token = %d %s, want 200", code, body)
	}
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, ts.URL+"/nope", nil)
	if code, _, _ := httpDo(t, req); code != http.StatusNotFound {
		t.Errorf("GET /nope = %d, want 404", code)
	}
}

func TestHTTPTokenChoosesStore(t *testing.T) {
	f := newHTTPTestFactory()
	f.fail["broken"] = true
	ts := startHTTPTest(t, httpOptions{
		Token:  "tok-default",
		Tokens: map[string]string{"tok-a": "alpha", "tok-b": "beta", "tok-x": "broken"},
	}, f)
	initAs := func(token string) (int, string) {
		code, _, body := httpDo(t, httpInitRequest(t, ts.URL+"/mcp", map[string]string{"Authorization": "Bearer " + token}))
		return code, body
	}
	for _, tc := range []struct{ token, store string }{
		{"tok-a", "alpha"}, {"tok-b", "beta"}, {"tok-default", "default"}, {"tok-a", "alpha"},
	} {
		code, body := initAs(tc.token)
		if code != http.StatusOK {
			t.Fatalf("token %s: status %d %s", tc.token, code, body)
		}
		if got := httpServerVersion(t, body); got != "0-"+tc.store {
			t.Errorf("token %s answered by server %q, want store %s", tc.token, got, tc.store)
		}
	}

	// Many first requests at once still build a store's server only once.
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if code, body := initAs("tok-b"); code != http.StatusOK {
				t.Errorf("concurrent tok-b: %d %s", code, body)
			}
		})
	}
	wg.Wait()
	for _, store := range []string{"alpha", "beta", ""} {
		if n := f.count(store); n != 1 {
			t.Errorf("factory called %d times for store %q, want 1", n, store)
		}
	}

	// A failing store answers 500 and is retried on the next request.
	for range 2 {
		if code, _ := initAs("tok-x"); code != http.StatusInternalServerError {
			t.Errorf("broken store: status %d, want 500", code)
		}
	}
	if n := f.count("broken"); n != 2 {
		t.Errorf("factory called %d times for the broken store, want 2 (errors are not cached)", n)
	}
}

func TestHTTPOrigin(t *testing.T) {
	ts := startHTTPTest(t, httpOptions{AllowedOrigins: []string{"https://App.Example.com", "http://tool.example.org:8080"}}, newHTTPTestFactory())
	for _, tc := range []struct {
		origin string
		want   int
	}{
		{"", http.StatusOK},
		{"http://localhost:6274", http.StatusOK},
		{"http://127.0.0.1", http.StatusOK},
		{"https://[::1]:3000", http.StatusOK},
		{"https://app.example.com", http.StatusOK},
		{"https://APP.EXAMPLE.COM:443", http.StatusOK},
		{"http://tool.example.org:8080", http.StatusOK},
		{"http://evil.example.com", http.StatusForbidden},
		{"http://app.example.com", http.StatusForbidden},       // scheme differs
		{"https://app.example.com:8443", http.StatusForbidden}, // port differs
		{"http://tool.example.org", http.StatusForbidden},      // port missing
		{"http://localhost.evil.com", http.StatusForbidden},
		{"null", http.StatusForbidden},
		{"file://", http.StatusForbidden},
	} {
		t.Run(tc.origin, func(t *testing.T) {
			extra := map[string]string{}
			if tc.origin != "" {
				extra["Origin"] = tc.origin
			}
			code, hdr, body := httpDo(t, httpInitRequest(t, ts.URL+"/mcp", extra))
			if code != tc.want {
				t.Fatalf("Origin %q: status %d (%s), want %d", tc.origin, code, body, tc.want)
			}
			if code == http.StatusOK && tc.origin != "" && hdr.Get("Access-Control-Allow-Origin") != tc.origin {
				t.Errorf("Access-Control-Allow-Origin = %q, want %q", hdr.Get("Access-Control-Allow-Origin"), tc.origin)
			}
		})
	}
}

func TestHTTPPreflightSkipsAuthForAllowedOrigins(t *testing.T) {
	ts := startHTTPTest(t, httpOptions{Token: "s3cret", AllowedOrigins: []string{"https://app.example.com"}}, newHTTPTestFactory())
	preflight := func(origin string) (int, http.Header) {
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodOptions, ts.URL+"/mcp", nil)
		req.Header.Set("Origin", origin)
		req.Header.Set("Access-Control-Request-Method", "POST")
		req.Header.Set("Access-Control-Request-Headers", "authorization, content-type")
		code, hdr, _ := httpDo(t, req)
		return code, hdr
	}
	code, hdr := preflight("https://app.example.com")
	if code != http.StatusNoContent || hdr.Get("Access-Control-Allow-Origin") != "https://app.example.com" ||
		!strings.Contains(hdr.Get("Access-Control-Allow-Headers"), "Authorization") {
		t.Errorf("allowed preflight = %d %v, want 204 with CORS headers", code, hdr)
	}
	if code, _ := preflight("https://evil.example.com"); code != http.StatusForbidden {
		t.Errorf("evil preflight = %d, want 403", code)
	}
	// The preflight exemption is for preflights only.
	code, _, _ = httpDo(t, httpInitRequest(t, ts.URL+"/mcp", map[string]string{"Origin": "https://app.example.com"}))
	if code != http.StatusUnauthorized {
		t.Errorf("POST from allowed origin without token = %d, want 401", code)
	}
}

func TestHTTPHostDNSRebinding(t *testing.T) {
	ts := startHTTPTest(t, httpOptions{}, newHTTPTestFactory())
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(ts.URL, "http://"))
	for _, tc := range []struct {
		host string
		want int
	}{
		{"evil.com", http.StatusForbidden},
		{"evil.com:" + port, http.StatusForbidden},
		{"localhost.evil.com:" + port, http.StatusForbidden},
		{"192.0.2.1:" + port, http.StatusForbidden},
		{"localhost:" + port, http.StatusOK},
		{"LOCALHOST", http.StatusOK},
		{"127.0.0.1:" + port, http.StatusOK},
		{"127.0.0.2", http.StatusOK},
		{"[::1]:" + port, http.StatusOK},
	} {
		code, _, body := httpDo(t, httpInitRequest(t, ts.URL+"/mcp", map[string]string{"Host": tc.host}))
		if code != tc.want {
			t.Errorf("Host %q: status %d (%s), want %d", tc.host, code, body, tc.want)
		}
	}
	// What the conformance suite's dns-rebinding-protection scenario sends.
	code, _, _ := httpDo(t, httpInitRequest(t, ts.URL+"/mcp", map[string]string{"Host": "evil.example.com", "Origin": "http://evil.example.com"}))
	if code != http.StatusForbidden {
		t.Errorf("rebinding with matching evil Origin: status %d, want 403", code)
	}
}

func TestHTTPHostOnNonLoopbackBind(t *testing.T) {
	f := newHTTPTestFactory()
	for _, tc := range []struct {
		addr, host string
		want       int
	}{
		{"192.0.2.10:8765", "192.0.2.10:8765", http.StatusOK},
		{"192.0.2.10:8765", "mneme.example.com", http.StatusOK}, // host of an allowed origin
		{"192.0.2.10:8765", "evil.com", http.StatusForbidden},
		{"192.0.2.10:8765", "localhost:8765", http.StatusForbidden}, // not reachable that way
		{"0.0.0.0:8765", "localhost:8765", http.StatusOK},
		{"0.0.0.0:8765", "127.0.0.1:8765", http.StatusOK},
		{"0.0.0.0:8765", "mneme.example.com:8765", http.StatusOK},
		{"0.0.0.0:8765", "evil.com:8765", http.StatusForbidden},
		{":8765", "evil.com:8765", http.StatusForbidden},
		{"mneme.lan:8765", "MNEME.LAN:8765", http.StatusOK},
	} {
		h, err := newHTTPHandler(t.Context(), httpOptions{
			Addr: tc.addr, Token: "s3cret", AllowedOrigins: []string{"https://mneme.example.com"},
		}, f.serverFor)
		if err != nil {
			t.Fatalf("addr %s: %v", tc.addr, err)
		}
		rec := httptest.NewRecorder()
		req := httpInitRequest(t, "http://x/mcp", map[string]string{"Host": tc.host, "Authorization": "Bearer s3cret"})
		h.ServeHTTP(rec, req)
		if rec.Code != tc.want {
			t.Errorf("bound to %s, Host %q: status %d (%s), want %d", tc.addr, tc.host, rec.Code, rec.Body, tc.want)
		}
	}
}

func TestHTTPBodyLimit(t *testing.T) {
	ts := startHTTPTest(t, httpOptions{MaxBodyBytes: 1024}, newHTTPTestFactory())
	big := `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"` + strings.Repeat("x", 4096) + `"}}`
	for _, tc := range []struct {
		name string
		body io.Reader
	}{
		{"declared length", strings.NewReader(big)},
		{"chunked", io.MultiReader(strings.NewReader(big))}, // unknown length: sent chunked
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, ts.URL+"/mcp", tc.body)
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			code, _, body := httpDo(t, req)
			if code != http.StatusRequestEntityTooLarge {
				t.Errorf("status %d (%s), want 413", code, body)
			}
		})
	}
	// Just under the limit goes through.
	if code, _, body := httpDo(t, httpInitRequest(t, ts.URL+"/mcp", nil)); code != http.StatusOK {
		t.Errorf("small initialize: %d %s", code, body)
	}
}

func TestHTTPCheckBind(t *testing.T) {
	for _, tc := range []struct {
		o      httpOptions
		wantOK bool
	}{
		{httpOptions{Addr: "127.0.0.1:8765"}, true},
		{httpOptions{Addr: "localhost:8765"}, true},
		{httpOptions{Addr: "[::1]:8765"}, true},
		{httpOptions{Addr: "0.0.0.0:8765"}, false},
		{httpOptions{Addr: ":8765"}, false},
		{httpOptions{Addr: "[::]:8765"}, false},
		{httpOptions{Addr: "192.0.2.10:8765"}, false},
		{httpOptions{Addr: "0.0.0.0:8765", Token: "s3cret"}, true},
		{httpOptions{Addr: "0.0.0.0:8765", Tokens: map[string]string{"s3cret": "work"}}, true},
		{httpOptions{Addr: "127.0.0.1"}, false}, // no port
	} {
		err := httpCheckBind(tc.o)
		if (err == nil) != tc.wantOK {
			t.Errorf("httpCheckBind(%q, token %v) = %v, want ok %v", tc.o.Addr, tc.o.Token != "" || tc.o.Tokens != nil, err, tc.wantOK)
		}
	}
	err := httpCheckBind(httpOptions{Addr: "0.0.0.0:8765"})
	for _, want := range []string{"MNEME_TOKEN", "[tokens]", "config.toml", "127.0.0.1"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("refusal %v does not mention %s", err, want)
		}
	}
	// runHTTP refuses before listening.
	if err := runHTTP(t.Context(), httpOptions{Addr: "0.0.0.0:0"}, newHTTPTestFactory().serverFor); err == nil {
		t.Error("runHTTP on 0.0.0.0 without a token: no error")
	}
}

func TestNewHTTPHandlerRefusesBadOptions(t *testing.T) {
	f := newHTTPTestFactory()
	for name, o := range map[string]httpOptions{
		"transport":      {Addr: "127.0.0.1:1", Transport: "websocket"},
		"empty token":    {Addr: "127.0.0.1:1", Tokens: map[string]string{"": "work"}},
		"token twice":    {Addr: "127.0.0.1:1", Token: "same", Tokens: map[string]string{"same": "work"}},
		"origin star":    {Addr: "127.0.0.1:1", AllowedOrigins: []string{"*"}},
		"origin path":    {Addr: "127.0.0.1:1", AllowedOrigins: []string{"https://a.example.com/app"}},
		"origin scheme":  {Addr: "127.0.0.1:1", AllowedOrigins: []string{"ftp://a.example.com"}},
		"public no auth": {Addr: "0.0.0.0:1"},
	} {
		if _, err := newHTTPHandler(t.Context(), o, f.serverFor); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if _, err := newHTTPHandler(t.Context(), httpOptions{Addr: "127.0.0.1:1"}, nil); err == nil {
		t.Error("nil factory: no error")
	}
}

// httpSSEEvent reads one server-sent event.
func httpSSEEvent(t *testing.T, r *bufio.Reader) (event, data string) {
	t.Helper()
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("reading event stream: %v (event %q, data %q)", err, event, data)
		}
		line = strings.TrimRight(line, "\r\n")
		switch {
		case line == "" && (event != "" || data != ""):
			return event, data
		case strings.HasPrefix(line, "event:"):
			event = strings.TrimSpace(strings.TrimPrefix(line, "event:"))
		case strings.HasPrefix(line, "data:"):
			data += strings.TrimSpace(strings.TrimPrefix(line, "data:"))
		}
	}
}

func TestHTTPSSEEndpoints(t *testing.T) {
	ts := startHTTPTest(t, httpOptions{Transport: "sse", Token: "s3cret"}, newHTTPTestFactory())
	auth := map[string]string{"Authorization": "Bearer s3cret"}

	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, ts.URL+"/sse", nil)
	if code, _, _ := httpDo(t, req); code != http.StatusUnauthorized {
		t.Errorf("GET /sse without token = %d, want 401", code)
	}
	if code, _, _ := httpDo(t, httpInitRequest(t, ts.URL+"/mcp", auth)); code != http.StatusNotFound {
		t.Errorf("POST /mcp on the sse transport = %d, want 404", code)
	}

	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	req, _ = http.NewRequestWithContext(ctx, http.MethodGet, ts.URL+"/sse", nil)
	req.Header.Set("Authorization", "Bearer s3cret")
	req.Header.Set("Accept", "text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		t.Fatalf("GET /sse = %d %s, want 200 text/event-stream", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	events := bufio.NewReader(resp.Body)
	event, endpoint := httpSSEEvent(t, events)
	if event != "endpoint" || !strings.HasPrefix(endpoint, "/message?sessionId=") {
		t.Fatalf("first event %q %q, want the message endpoint", event, endpoint)
	}

	// The message endpoint sits behind the same checks.
	if code, _, _ := httpDo(t, httpInitRequest(t, ts.URL+endpoint, nil)); code != http.StatusUnauthorized {
		t.Errorf("POST %s without token = %d, want 401", endpoint, code)
	}
	if code, _, _ := httpDo(t, httpInitRequest(t, ts.URL+endpoint, map[string]string{"Authorization": "Bearer s3cret", "Host": "evil.com"})); code != http.StatusForbidden {
		t.Errorf("POST %s with evil Host = %d, want 403", endpoint, code)
	}
	if code, _, body := httpDo(t, httpInitRequest(t, ts.URL+endpoint, auth)); code != http.StatusAccepted {
		t.Fatalf("POST %s = %d %s, want 202", endpoint, code, body)
	}
	event, data := httpSSEEvent(t, events)
	if event != "message" || httpServerVersion(t, data) != "0-default" {
		t.Errorf("answer on the stream: %q %q, want the initialize result", event, data)
	}
}

// httpStartRun runs runHTTPListener on 127.0.0.1:0 and returns its base URL
// and a function that cancels it and returns its error.
func httpStartRun(t *testing.T, o httpOptions, f *httpTestFactory) (string, func() error) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- runHTTPListener(ctx, ln, o, f.serverFor) }()
	stopped := false
	stop := func() error {
		if stopped {
			return nil
		}
		stopped = true
		cancel()
		select {
		case err := <-done:
			return err
		case <-time.After(30 * time.Second):
			t.Fatal("runHTTP did not return after its context was cancelled")
			return nil
		}
	}
	t.Cleanup(func() { _ = stop() })
	return "http://" + ln.Addr().String(), stop
}

// httpLogBuffer is a concurrency-safe log sink.
type httpLogBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *httpLogBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *httpLogBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func TestRunHTTPShutsDownGracefully(t *testing.T) {
	for _, transportName := range []string{"http", "sse"} {
		t.Run(transportName, func(t *testing.T) {
			logs := &httpLogBuffer{}
			o := httpOptions{Transport: transportName, Logger: slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))}
			base, stop := httpStartRun(t, o, newHTTPTestFactory())

			// Hold a long-lived event stream open: shutdown must end it
			// instead of waiting for the grace period to run out.
			var stream *http.Request
			if transportName == "sse" {
				stream, _ = http.NewRequestWithContext(t.Context(), http.MethodGet, base+"/sse", nil)
			} else {
				code, hdr, body := httpDo(t, httpInitRequest(t, base+"/mcp", nil))
				if code != http.StatusOK {
					t.Fatalf("initialize: %d %s", code, body)
				}
				stream, _ = http.NewRequestWithContext(t.Context(), http.MethodGet, base+"/mcp", nil)
				stream.Header.Set("Mcp-Session-Id", hdr.Get("Mcp-Session-Id"))
				stream.Header.Set("Mcp-Protocol-Version", "2025-06-18")
			}
			stream.Header.Set("Accept", "text/event-stream")
			resp, err := http.DefaultClient.Do(stream)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				b, _ := io.ReadAll(resp.Body)
				t.Fatalf("event stream: %d %s", resp.StatusCode, b)
			}
			streamDone := make(chan struct{})
			go func() { io.Copy(io.Discard, resp.Body); close(streamDone) }()

			if err := stop(); err != nil {
				t.Fatalf("runHTTP after cancel = %v, want nil", err)
			}
			<-streamDone
			if strings.Contains(logs.String(), "grace period") {
				t.Errorf("shutdown waited for the grace period instead of closing the stream:\n%s", logs)
			}
			if _, err := http.Get(base + "/healthz"); err == nil {
				t.Error("server still answers after shutdown")
			}
		})
	}
}

func TestRunHTTPEndToEndStreamableClient(t *testing.T) {
	f := newHTTPTestFactory()
	base, stop := httpStartRun(t, httpOptions{Token: "tok-default", Tokens: map[string]string{"tok-w": "work"}}, f)
	ctx := t.Context()
	for _, tc := range []struct{ token, want string }{{"tok-w", "work: hi"}, {"tok-default", "default: hi"}} {
		c, err := client.NewStreamableHttpClient(base+"/mcp", transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + tc.token}))
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Start(ctx); err != nil {
			t.Fatal(err)
		}
		init := mcp.InitializeRequest{}
		init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
		init.Params.ClientInfo = mcp.Implementation{Name: "http-e2e", Version: "0"}
		if _, err := c.Initialize(ctx, init); err != nil {
			t.Fatalf("initialize: %v", err)
		}
		call := mcp.CallToolRequest{}
		call.Params.Name = "echo"
		call.Params.Arguments = map[string]any{"text": "hi"}
		res, err := c.CallTool(ctx, call)
		if err != nil {
			t.Fatalf("call echo: %v", err)
		}
		if res.IsError || len(res.Content) != 1 {
			t.Fatalf("echo result %+v", res)
		}
		if text, ok := res.Content[0].(mcp.TextContent); !ok || text.Text != tc.want {
			t.Errorf("echo with %s = %+v, want %q", tc.token, res.Content[0], tc.want)
		}
		c.Close()
	}

	// A wrong token fails the handshake.
	c, err := client.NewStreamableHttpClient(base+"/mcp", transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer nope"}))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(ctx); err == nil {
		init := mcp.InitializeRequest{}
		init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
		if _, err := c.Initialize(ctx, init); err == nil {
			t.Error("initialize with a wrong token succeeded")
		}
	}
	c.Close()
	if err := stop(); err != nil {
		t.Fatalf("stop: %v", err)
	}
}

func TestRunHTTPEndToEndSSEClient(t *testing.T) {
	base, stop := httpStartRun(t, httpOptions{Transport: "sse", Token: "s3cret"}, newHTTPTestFactory())
	ctx := t.Context()
	c, err := client.NewSSEMCPClient(base+"/sse", client.WithHeaders(map[string]string{"Authorization": "Bearer s3cret"}))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Start(ctx); err != nil {
		t.Fatalf("start: %v", err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = "2025-06-18"
	init.Params.ClientInfo = mcp.Implementation{Name: "http-e2e", Version: "0"}
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	call := mcp.CallToolRequest{}
	call.Params.Name = "echo"
	call.Params.Arguments = map[string]any{"text": "over sse"}
	res, err := c.CallTool(ctx, call)
	if err != nil {
		t.Fatalf("call echo: %v", err)
	}
	if text, ok := res.Content[0].(mcp.TextContent); !ok || text.Text != "default: over sse" {
		t.Errorf("echo = %+v", res.Content)
	}
	c.Close()
	if err := stop(); err != nil {
		t.Fatalf("stop: %v", err)
	}
}
