package cli_test

// End-to-end tests of `mneme serve` beyond stdio: the HTTP transport driven
// by the official Go SDK's streamable client, bearer tokens, graceful
// shutdown on SIGTERM, the ontology file, and project scopes from roots.

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// httpServer is a `mneme serve --transport http` process.
type httpServer struct {
	cmd    *exec.Cmd
	url    string // http://127.0.0.1:<port>
	stderr *syncBuffer
	exited chan error
}

// freeAddr returns a loopback address with a port that was free a moment ago.
func freeAddr(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// startHTTP starts `mneme serve --transport http` on a free loopback port
// with env and waits until /healthz answers. The process is killed when
// the test ends, unless it has exited.
func startHTTP(t testing.TB, env []string, args ...string) *httpServer {
	t.Helper()
	addr := freeAddr(t)
	cmd := exec.Command(bin, append([]string{"serve", "--transport", "http", "--addr", addr}, args...)...)
	cmd.Env = env
	s := &httpServer{cmd: cmd, url: "http://" + addr, stderr: &syncBuffer{}, exited: make(chan error, 1)}
	cmd.Stderr = s.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { s.exited <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-s.exited
		s.exited <- nil // for a later wait
	})
	deadline := time.Now().Add(20 * time.Second)
	for {
		res, err := http.Get(s.url + "/healthz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return s
			}
		}
		select {
		case err := <-s.exited:
			s.exited <- err
			t.Fatalf("mneme serve --transport http exited: %v\nstderr: %s", err, s.stderr.String())
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("/healthz not answering after 20s: %v\nstderr: %s", err, s.stderr.String())
		}
	}
}

// bearer adds an Authorization header to every request.
type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// connectHTTP connects the Go SDK's streamable client to s's /mcp, sending
// token when it is not empty.
func connectHTTP(t testing.TB, s *httpServer, token string) (*mcp.ClientSession, error) {
	t.Helper()
	tr := &mcp.StreamableClientTransport{Endpoint: s.url + "/mcp", MaxRetries: -1}
	if token != "" {
		tr.HTTPClient = &http.Client{Transport: bearer{token}}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := newClient().Connect(ctx, tr, nil)
	if err != nil {
		return nil, err
	}
	t.Cleanup(func() { cs.Close() })
	return cs, nil
}

// stop sends SIGTERM and returns the exit error (nil for exit 0).
func (s *httpServer) stop(t testing.TB) error {
	t.Helper()
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-s.exited:
		s.exited <- err
		return err
	case <-time.After(20 * time.Second):
		t.Fatalf("no exit 20s after SIGTERM\nstderr: %s", s.stderr.String())
		return nil
	}
}

func TestServeHTTP(t *testing.T) {
	env := procEnv(t)
	s := startHTTP(t, env)
	cs, err := connectHTTP(t, s, "")
	if err != nil {
		t.Fatalf("connect: %v\nstderr: %s", err, s.stderr.String())
	}
	if got := cs.InitializeResult().ServerInfo.Name; got != "mneme" {
		t.Errorf("server name %q, want mneme", got)
	}
	var m remembered
	call(t, cs, "remember", map[string]any{"content": "The user plays the cello on Sundays"}, &m)
	if ids := recallIDs(t, cs, "cello"); len(ids) == 0 || ids[0] != m.ID {
		t.Fatalf("recall cello over http: %v, want %s first", ids, m.ID)
	}

	// The HTTP server and the CLI share the store.
	if out, errOut, code := mneme(t, env, "recall", "cello", "--no-reinforce"); code != 0 || !strings.Contains(out, m.ID) {
		t.Errorf("CLI recall after an http remember: exit %d\n%s%s", code, out, errOut)
	}

	// SIGTERM shuts down gracefully: exit 0, the stop logged.
	if err := s.stop(t); err != nil {
		t.Fatalf("exit after SIGTERM: %v\nstderr: %s", err, s.stderr.String())
	}
	if !strings.Contains(s.stderr.String(), "msg=stopped") {
		t.Errorf("no stop logged:\n%s", s.stderr.String())
	}
}

func TestServeHTTPToken(t *testing.T) {
	const token = "e2e-token-0123456789abcdef"
	env := procEnv(t, "MNEME_TOKEN="+token)
	s := startHTTP(t, env)

	// No header: 401 with a challenge, and the SDK's connect fails.
	res, err := http.Post(s.url+"/mcp", "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusUnauthorized || !strings.HasPrefix(res.Header.Get("WWW-Authenticate"), "Bearer") {
		t.Errorf("no token: %d %q, want 401 with a Bearer challenge", res.StatusCode, res.Header.Get("WWW-Authenticate"))
	}
	if _, err := connectHTTP(t, s, ""); err == nil {
		t.Error("connect without a token succeeded")
	}
	if _, err := connectHTTP(t, s, "wrong-token"); err == nil {
		t.Error("connect with a wrong token succeeded")
	}

	// With the header it works, on the default store.
	cs, err := connectHTTP(t, s, token)
	if err != nil {
		t.Fatalf("connect with token: %v\nstderr: %s", err, s.stderr.String())
	}
	var m remembered
	call(t, cs, "remember", map[string]any{"content": "The user's locker code is behind the token"}, &m)
	if ids := recallIDs(t, cs, "locker code"); !slices.Contains(ids, m.ID) {
		t.Errorf("recall with token: %v, want %s", ids, m.ID)
	}
	if err := s.stop(t); err != nil {
		t.Fatalf("exit after SIGTERM: %v\nstderr: %s", err, s.stderr.String())
	}
	if _, err := os.Stat(filepath.Join(envDir(t, env, "XDG_DATA_HOME"), "mneme", "default.db")); err != nil {
		t.Errorf("default store: %v", err)
	}
}

// TestServeHTTPTokensPickStores maps two tokens to two stores in the
// [tokens] table: each token sees its own store, <data_dir>/<name>.db.
func TestServeHTTPTokensPickStores(t *testing.T) {
	env := procEnv(t)
	cfgDir := filepath.Join(envDir(t, env, "XDG_CONFIG_HOME"), "mneme")
	os.MkdirAll(cfgDir, 0o700)
	os.WriteFile(filepath.Join(cfgDir, "config.toml"), []byte("[tokens]\n\"alice-token-0123456789\" = \"alice\"\n\"bob-token-0123456789\" = \"bob\"\n"), 0o600)
	s := startHTTP(t, env)

	alice, err := connectHTTP(t, s, "alice-token-0123456789")
	if err != nil {
		t.Fatalf("alice: %v\nstderr: %s", err, s.stderr.String())
	}
	bob, err := connectHTTP(t, s, "bob-token-0123456789")
	if err != nil {
		t.Fatal(err)
	}
	var m remembered
	call(t, alice, "remember", map[string]any{"content": "Alice keeps bees on her roof"}, &m)
	if ids := recallIDs(t, alice, "bees roof"); !slices.Contains(ids, m.ID) {
		t.Errorf("alice's recall misses her memory: %v", ids)
	}
	if ids := recallIDs(t, bob, "bees roof"); len(ids) != 0 {
		t.Errorf("bob sees alice's memories: %v", ids)
	}
	if err := s.stop(t); err != nil {
		t.Fatalf("exit after SIGTERM: %v", err)
	}
	data := filepath.Join(envDir(t, env, "XDG_DATA_HOME"), "mneme")
	for _, name := range []string{"alice.db", "bob.db"} {
		if _, err := os.Stat(filepath.Join(data, name)); err != nil {
			t.Errorf("store %s: %v", name, err)
		}
	}
}

func TestServeHTTPRefusesOpenBindWithoutToken(t *testing.T) {
	_, errOut, code := mneme(t, procEnv(t), "serve", "--transport", "http", "--addr", "0.0.0.0:0")
	if code != 2 || !strings.Contains(errOut, "without a token") || !strings.Contains(errOut, "MNEME_TOKEN") {
		t.Errorf("exit %d, want 2 and a message naming MNEME_TOKEN:\n%s", code, errOut)
	}
}

// envDir returns the value of key in a process environment.
func envDir(t testing.TB, env []string, key string) string {
	t.Helper()
	for _, kv := range slices.Backward(env) {
		if v, ok := strings.CutPrefix(kv, key+"="); ok {
			return v
		}
	}
	t.Fatalf("%s not in the environment", key)
	return ""
}

type ontologyResult struct {
	Size  int `json:"size"`
	Added []struct {
		Tag string `json:"tag"`
	} `json:"added"`
	Tags []struct {
		Tag  string   `json:"tag"`
		Path []string `json:"path"`
	} `json:"tags"`
}

// listsTag reports whether the ontology tool's list shows tag.
func listsTag(t testing.TB, cs *mcp.ClientSession, tag string) bool {
	t.Helper()
	var r ontologyResult
	call(t, cs, "ontology", map[string]any{"action": "list"}, &r)
	return slices.ContainsFunc(r.Tags, func(e struct {
		Tag  string   `json:"tag"`
		Path []string `json:"path"`
	}) bool {
		return e.Tag == tag
	})
}

// TestServeOntology adds a tag through the ontology tool (it lands in
// <config dir>/ontology.json), then edits the file by hand: the tool's list
// shows the new tag within a second, without a restart.
func TestServeOntology(t *testing.T) {
	env := procEnv(t)
	cs := connect(t, env)
	var r ontologyResult
	call(t, cs, "ontology", map[string]any{"action": "add", "path": []string{"food"}, "tags": []string{"kombucha"}}, &r)
	if len(r.Added) != 1 || r.Added[0].Tag != "kombucha" {
		t.Fatalf("add: %+v", r)
	}
	file := filepath.Join(envDir(t, env, "XDG_CONFIG_HOME"), "mneme", "ontology.json")
	data, err := os.ReadFile(file)
	if err != nil || !strings.Contains(string(data), "kombucha") {
		t.Fatalf("%s after add: %v\n%s", file, err, data)
	}
	if !listsTag(t, cs, "kombucha") {
		t.Error("list lacks the added tag")
	}

	// Edit the file as a person would: the new tag appears within a second.
	var user map[string]map[string]any
	if err := json.Unmarshal(data, &user); err != nil {
		t.Fatalf("%s: %v\n%s", file, err, data)
	}
	user["food"]["kefir"] = []string{}
	edited, _ := json.MarshalIndent(user, "", "  ")
	tmp := file + ".tmp"
	if err := os.WriteFile(tmp, edited, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, file); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(time.Second)
	for !listsTag(t, cs, "kefir") {
		if time.Now().After(deadline) {
			t.Fatal("the tag edited into ontology.json is not listed after a second")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if !listsTag(t, cs, "kombucha") {
		t.Error("the added tag went missing after the edit")
	}
}

// rootsClient is the Go SDK's default client, which declares the roots
// capability, with one file:// root: a temporary workspace.
func rootsClient(t testing.TB) *mcp.Client {
	t.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: "mneme-e2e-roots", Version: "1"}, nil)
	client.AddRoots(&mcp.Root{URI: "file://" + filepath.ToSlash(t.TempDir()), Name: "workspace"})
	return client
}

// rememberScope remembers content and returns the scope it went to.
func rememberScope(t testing.TB, cs *mcp.ClientSession, content string) string {
	t.Helper()
	var m struct {
		Scope string `json:"scope"`
	}
	call(t, cs, "remember", map[string]any{"content": content}, &m)
	return m.Scope
}

// TestServeRootsScope connects with the Go SDK's default client, which
// declares the roots capability, in a workspace: what it remembers goes to
// the project scope derived from the root, and --scope fixes the scope
// instead. On 2026-07-28 mneme asks for the roots with an input request,
// which go-sdk v1.8.0 can only read with "params" (see rootsfix.go): a call
// failing with "unexpected end of JSON input" means that fix is gone.
func TestServeRootsScope(t *testing.T) {
	env := procEnv(t)
	client := rootsClient(t)
	cs := connectWith(t, client, env)
	if v := cs.InitializeResult().ProtocolVersion; v < "2026-07-28" {
		t.Errorf("negotiated protocol %s: the roots input request is not tested", v)
	}
	ids := recallIDs(t, cs, "probe") // asks for the roots first
	if len(ids) != 0 {
		t.Errorf("recall in an empty store: %v", ids)
	}
	if s := rememberScope(t, cs, "The build needs Go 1.26"); !strings.HasPrefix(s, "project:") {
		t.Errorf("remember in a workspace: scope %q, want a project: scope", s)
	}

	fixed := connectWith(t, client, append(env, "MNEME_SCOPE=team"))
	if s := rememberScope(t, fixed, "Stand-up is at nine"); s != "team" {
		t.Errorf("with MNEME_SCOPE=team: scope %q", s)
	}
}

// TestServeHTTPRootsScope is TestServeRootsScope over streamable HTTP and
// SSE, whose responses pass through the HTTP side of the roots fix. Over
// streamable HTTP on 2026-07-28 there is no session to cache the roots
// under, so every call asks for them again.
func TestServeHTTPRootsScope(t *testing.T) {
	for _, transport := range []string{"http", "sse"} {
		t.Run(transport, func(t *testing.T) {
			env := procEnv(t)
			s := startHTTP(t, env, "--transport", transport)
			var tr mcp.Transport = &mcp.StreamableClientTransport{Endpoint: s.url + "/mcp", MaxRetries: -1}
			if transport == "sse" {
				tr = &mcp.SSEClientTransport{Endpoint: s.url + "/sse"}
			}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			cs, err := rootsClient(t).Connect(ctx, tr, nil)
			if err != nil {
				t.Fatalf("connect: %v\nstderr: %s", err, s.stderr.String())
			}
			t.Cleanup(func() { cs.Close() })
			if v := cs.InitializeResult().ProtocolVersion; v < "2026-07-28" {
				t.Errorf("negotiated protocol %s over %s: the roots input request is not tested", v, transport)
			}
			for _, content := range []string{"The build needs Go 1.26", "The linter is staticcheck"} {
				if sc := rememberScope(t, cs, content); !strings.HasPrefix(sc, "project:") {
					t.Errorf("remember %q over %s in a workspace: scope %q, want a project: scope", content, transport, sc)
				}
			}
			if ids := recallIDs(t, cs, "build needs Go"); len(ids) == 0 {
				t.Errorf("recall over %s finds nothing in the project scope", transport)
			}
		})
	}
}

// TestServeHTTPExitsOnTakenPort checks that a port in use is an error
// (exit 1), not a silent hang.
func TestServeHTTPExitsOnTakenPort(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	_, errOut, code := mneme(t, procEnv(t), "serve", "--transport", "http", "--addr", ln.Addr().String())
	if code != 1 || !strings.Contains(errOut, "listen") {
		t.Errorf("taken port: exit %d, want 1:\n%s", code, errOut)
	}
}

// TestServeAnswersCallsInFlightAtEOF writes its requests and closes stdin at
// once, as a script does: mneme answers every call still running before it
// exits (mcp-go alone would cancel them at the end of input).
func TestServeAnswersCallsInFlightAtEOF(t *testing.T) {
	env := procEnv(t)
	lines := []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"script","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
	}
	const calls = 6
	for i := range calls {
		lines = append(lines, `{"jsonrpc":"2.0","id":"r`+strconv.Itoa(i)+`","method":"tools/call","params":{"name":"remember","arguments":{"content":"scripted note number `+strconv.Itoa(i)+`"}}}`)
	}
	lines = append(lines, `{"jsonrpc":"2.0","id":99,"method":"tools/call","params":{"name":"recall","arguments":{"query":"scripted note"}}}`)
	cmd := exec.Command(bin, "serve")
	cmd.Env = env
	cmd.Stdin = strings.NewReader(strings.Join(lines, "\n")) // no final newline either
	var stderr syncBuffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("serve: %v\nstderr: %s", err, stderr.String())
	}
	answered := map[string]bool{}
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var msg struct {
			ID     any             `json:"id"`
			Result json.RawMessage `json:"result"`
		}
		if err := json.Unmarshal([]byte(l), &msg); err != nil {
			t.Fatalf("stdout line is not JSON: %q", l)
		}
		if msg.Result != nil {
			answered[fmt.Sprint(msg.ID)] = true
		}
	}
	for _, id := range append([]string{"1", "99"}, "r0", "r1", "r2", "r3", "r4", "r5") {
		if !answered[id] {
			t.Errorf("request %s not answered; stdout:\n%s\nstderr:\n%s", id, out, stderr.String())
		}
	}
}
