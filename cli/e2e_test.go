package cli_test

// End-to-end tests: build the mneme binary once, then drive `mneme serve`
// over stdio with the official MCP Go SDK as an independent client, and run
// the CLI subcommands as a person would.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mneme-mcp/mneme/embed"
	"github.com/mneme-mcp/mneme/memory"
)

// bin is the mneme binary built by TestMain.
var bin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "mneme-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	bin = filepath.Join(dir, "mneme")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Dir = ".." // the module root
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "go build: %v\n%s", err, out)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// procEnv returns a process environment with fresh XDG directories under a
// temp dir of t.
func procEnv(t testing.TB, extra ...string) []string {
	t.Helper()
	return envIn(t.TempDir(), extra...)
}

// envIn returns the process environment without MNEME_* or XDG_* variables
// from the outside, with XDG directories under dir, plus extra.
func envIn(dir string, extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "MNEME_") && !strings.HasPrefix(kv, "XDG_") {
			env = append(env, kv)
		}
	}
	env = append(env,
		"XDG_DATA_HOME="+filepath.Join(dir, "data"),
		"XDG_CONFIG_HOME="+filepath.Join(dir, "config"),
	)
	return append(env, extra...)
}

// newClient returns the official Go SDK's client. It declares no roots
// capability, so calls use the personal scope: project scopes from roots
// have a test of their own (TestServeRootsScope).
func newClient() *mcp.Client {
	return mcp.NewClient(&mcp.Implementation{Name: "mneme-e2e", Version: "1"},
		&mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{}})
}

// connect starts `mneme serve` with env and returns an initialised client
// session; the process is stopped when the test ends (or earlier by Close).
func connect(t testing.TB, env []string) *mcp.ClientSession {
	t.Helper()
	return connectWith(t, newClient(), env)
}

// connectWith is connect with a client of the caller's.
func connectWith(t testing.TB, client *mcp.Client, env []string) *mcp.ClientSession {
	t.Helper()
	cmd := exec.Command(bin, "serve")
	cmd.Env = env
	var stderr syncBuffer
	cmd.Stderr = &stderr
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect to mneme serve: %v\nstderr: %s", err, stderr.String())
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// call calls a tool and decodes its structured result into out.
func call(t testing.TB, cs *mcp.ClientSession, name string, args map[string]any, out any) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s %v: %v", name, args, err)
	}
	if res.IsError {
		t.Fatalf("%s %v: tool error %s", name, args, contentText(res))
	}
	raw, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, out); err != nil {
		t.Fatalf("%s: structured content %s: %v", name, raw, err)
	}
}

func contentText(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

type remembered struct {
	ID        string `json:"id"`
	Duplicate bool   `json:"duplicate"`
}

type recalled struct {
	Memories []struct {
		ID      string `json:"id"`
		Content string `json:"content"`
	} `json:"memories"`
	More bool `json:"more"`
}

// recallIDs recalls query and returns the ids found.
func recallIDs(t testing.TB, cs *mcp.ClientSession, query string) []string {
	t.Helper()
	var r recalled
	call(t, cs, "recall", map[string]any{"query": query, "limit": 10}, &r)
	ids := make([]string, len(r.Memories))
	for i, m := range r.Memories {
		ids[i] = m.ID
	}
	return ids
}

func TestServeTools(t *testing.T) {
	env := procEnv(t)
	cs := connect(t, env)

	if got := cs.InitializeResult().ServerInfo.Name; got != "mneme" {
		t.Errorf("server name %q, want mneme", got)
	}
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*mcp.Tool{}
	for _, tl := range tools.Tools {
		byName[tl.Name] = tl
	}
	for _, want := range []struct {
		name                  string
		readOnly, destructive bool
	}{{"remember", false, false}, {"recall", true, false}, {"forget", false, true}} {
		tl := byName[want.name]
		if tl == nil {
			t.Fatalf("tool %s missing from %v", want.name, slices.Sorted(maps.Keys(byName)))
		}
		a := tl.Annotations
		if a == nil || a.DestructiveHint == nil || a.OpenWorldHint == nil {
			t.Errorf("%s: annotations not explicit: %+v", want.name, a)
			continue
		}
		if a.ReadOnlyHint != want.readOnly {
			t.Errorf("%s: readOnlyHint %v, want %v", want.name, a.ReadOnlyHint, want.readOnly)
		}
		if *a.DestructiveHint != want.destructive {
			t.Errorf("%s: destructiveHint %v, want %v", want.name, *a.DestructiveHint, want.destructive)
		}
		if tl.Description == "" || tl.InputSchema == nil {
			t.Errorf("%s: no description or input schema", want.name)
		}
	}

	var tea, car remembered
	call(t, cs, "remember", map[string]any{"content": "The user likes green tea without sugar", "tags": []string{"food"}}, &tea)
	call(t, cs, "remember", map[string]any{"content": "The user's car is a blue Volvo"}, &car)
	if tea.ID == "" || tea.Duplicate {
		t.Fatalf("remember: %+v", tea)
	}
	if ids := recallIDs(t, cs, "green tea"); len(ids) == 0 || ids[0] != tea.ID {
		t.Fatalf("recall green tea: %v, want %s first", ids, tea.ID)
	}
	var fr struct {
		IDs []string `json:"ids"`
	}
	call(t, cs, "forget", map[string]any{"id": tea.ID}, &fr)
	if !slices.Equal(fr.IDs, []string{tea.ID}) {
		t.Errorf("forget: %v", fr.IDs)
	}
	if ids := recallIDs(t, cs, "green tea"); slices.Contains(ids, tea.ID) {
		t.Fatalf("recall after forget still finds %s: %v", tea.ID, ids)
	}

	// Durable: a new process on the same store still has the car.
	cs.Close()
	cs2 := connect(t, env)
	if ids := recallIDs(t, cs2, "which car"); !slices.Contains(ids, car.ID) {
		t.Fatalf("after restart recall misses %s: %v", car.ID, ids)
	}
	if ids := recallIDs(t, cs2, "green tea"); slices.Contains(ids, tea.ID) {
		t.Fatalf("after restart the forgotten memory is back: %v", ids)
	}
}

// TestTwoServersOneStore runs two server processes on one store, as two
// clients each spawning their own server do: each sees the other's writes,
// and concurrent writes through both are all kept.
func TestTwoServersOneStore(t *testing.T) {
	env := procEnv(t)
	a, b := connect(t, env), connect(t, env)

	var m remembered
	call(t, a, "remember", map[string]any{"content": "The user's sister is called Ingrid"}, &m)
	if ids := recallIDs(t, b, "sister Ingrid"); !slices.Contains(ids, m.ID) {
		t.Fatalf("second server does not see the first one's write %s: %v", m.ID, ids)
	}

	const each = 15
	var wg sync.WaitGroup
	for i, cs := range []*mcp.ClientSession{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range each {
				var r remembered
				call(t, cs, "remember", map[string]any{"content": fmt.Sprintf("server %d note %d about zebra%d", i, j, i*100+j)}, &r)
			}
		}()
	}
	wg.Wait()
	for _, cs := range []*mcp.ClientSession{a, b} {
		res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "mneme://stats"})
		if err != nil {
			t.Fatal(err)
		}
		var st struct {
			Memories int `json:"memories"`
		}
		if err := json.Unmarshal([]byte(res.Contents[0].Text), &st); err != nil {
			t.Fatalf("stats resource %q: %v", res.Contents[0].Text, err)
		}
		if st.Memories != 1+2*each {
			t.Errorf("memories = %d, want %d (a write was lost)", st.Memories, 1+2*each)
		}
	}
}

// TestServeStdoutIsOnlyJSONRPC speaks raw JSON-RPC with debug logging on and
// checks that every line on stdout is a JSON-RPC message. Responses are
// matched by id (tool calls run concurrently and may answer out of order),
// and stdin stays open until all of them have arrived, as a real client's
// does.
func TestServeStdoutIsOnlyJSONRPC(t *testing.T) {
	cmd := exec.Command(bin, "serve", "--log-level", "debug")
	cmd.Env = procEnv(t)
	var stderr syncBuffer
	cmd.Stderr = &stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	if _, err := io.WriteString(stdin, strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"remember","arguments":{"content":"raw client note"}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"recall","arguments":{"query":"raw client"}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"no_such_tool","arguments":{}}}`,
	}, "\n")+"\n"); err != nil {
		t.Fatal(err)
	}
	got := readResponses(t, stdout, 1, 2, 3, 4)
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("serve: %v\nstderr: %s", err, stderr.String())
	}
	for id, msg := range got {
		if id != 4 && !strings.Contains(msg, `"result"`) {
			t.Errorf("request %v failed: %s", id, msg)
		}
	}
	if stderr.Len() == 0 {
		t.Error("no logs on stderr at debug level")
	}
}

// readResponses reads JSON-RPC lines from r until a response to each of ids
// has arrived, failing on any line that is not JSON-RPC or after 30 s. It
// returns the responses by id.
func readResponses(t testing.TB, r io.Reader, ids ...float64) map[float64]string {
	t.Helper()
	type line struct {
		text string
		err  error
	}
	lines := make(chan line)
	go func() {
		sc := bufio.NewScanner(r)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			lines <- line{text: sc.Text()}
		}
		lines <- line{err: fmt.Errorf("stdout ended: %v", sc.Err())}
	}()
	got := map[float64]string{}
	timeout := time.After(30 * time.Second)
	for len(got) < len(ids) {
		select {
		case l := <-lines:
			if l.err != nil {
				t.Fatalf("%v; responses so far: %v", l.err, got)
			}
			var msg struct {
				JSONRPC string   `json:"jsonrpc"`
				ID      *float64 `json:"id"`
				Method  string   `json:"method"`
			}
			if err := json.Unmarshal([]byte(l.text), &msg); err != nil || msg.JSONRPC != "2.0" {
				t.Fatalf("stdout line is not JSON-RPC: %q", l.text)
			}
			if msg.ID != nil && msg.Method == "" && slices.Contains(ids, *msg.ID) {
				got[*msg.ID] = l.text
			}
		case <-timeout:
			t.Fatalf("no response to all of %v within 30s; got %v", ids, got)
		}
	}
	go func() { // drain the rest so the server never blocks on a full pipe
		for l := range lines {
			if l.err != nil {
				return
			}
		}
	}()
	return got
}

// syncBuffer is a bytes.Buffer safe for a process writing and a test
// reading at once.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

func (b *syncBuffer) Len() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Len()
}

// mneme runs the binary with args and env and returns stdout, stderr and
// the exit code.
func mneme(t testing.TB, env []string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

func TestCLI(t *testing.T) {
	env := procEnv(t, "MNEME_NOW=2024-05-10T12:00:00Z")
	out, errOut, code := mneme(t, env, "remember", "likes hiking in the Alps", "--tag", "travel", "--json")
	if code != 0 {
		t.Fatalf("remember: exit %d: %s", code, errOut)
	}
	var r struct {
		Memory struct {
			ID   string    `json:"id"`
			Time time.Time `json:"time"`
			Tags []string  `json:"tags"`
		} `json:"memory"`
		Duplicate bool `json:"duplicate"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("remember --json: %v: %s", err, out)
	}
	if want := time.Date(2024, 5, 10, 12, 0, 0, 0, time.UTC); !r.Memory.Time.Equal(want) || !slices.Equal(r.Memory.Tags, []string{"travel"}) {
		t.Errorf("remember: %+v", r)
	}

	out, errOut, code = mneme(t, env, "recall", "hiking")
	if code != 0 || !strings.Contains(out, r.Memory.ID) || !strings.Contains(out, "Alps") {
		t.Errorf("recall: exit %d\n%s%s", code, out, errOut)
	}

	out, _, code = mneme(t, env, "stats", "--json")
	var st map[string]any
	if err := json.Unmarshal([]byte(out), &st); err != nil || code != 0 {
		t.Fatalf("stats --json: exit %d %v: %s", code, err, out)
	}
	if st["memories"] != 1.0 || st["archived"] != 0.0 || !strings.HasSuffix(fmt.Sprint(st["store"]), filepath.Join("mneme", "default.db")) {
		t.Errorf("stats: %v", st)
	}

	// The CLI and a server share the store.
	cs := connect(t, env)
	if ids := recallIDs(t, cs, "Alps"); !slices.Contains(ids, r.Memory.ID) {
		t.Errorf("server does not see the CLI's memory: %v", ids)
	}

	if _, errOut, code = mneme(t, env, "recall", "--limit", "lots", "x"); code != 2 || !strings.Contains(errOut, "invalid value") {
		t.Errorf("bad flag: exit %d: %s", code, errOut)
	}
	if out, _, code = mneme(t, env, "version"); code != 0 || !strings.HasPrefix(out, "mneme ") {
		t.Errorf("version: exit %d: %q", code, out)
	}
}

// BenchmarkServeInitialize measures process start to initialize answered
// (what an MCP client waits for before it lists tools) on a store of 10,000
// memories, and separately the first recall, which waits for the index the
// server loads in the background. Run with:
//
//	go test ./cli -run '^$' -bench ServeInitialize -benchtime 20x
func BenchmarkServeInitialize(b *testing.B) {
	// The testing package calls this function more than once (b.N = 1 first);
	// the store is filled only the first time, in the directory TestMain
	// removes at the end.
	if benchEnv == nil {
		dir := filepath.Join(filepath.Dir(bin), "bench")
		fillStore(b, filepath.Join(dir, "data", "mneme", "default.db"), 10_000)
		benchEnv = envIn(dir)
	}
	env := benchEnv
	b.ResetTimer()
	var initTotal, recallTotal time.Duration
	for range b.N {
		start := time.Now()
		cs := connect(b, env)
		initTotal += time.Since(start)
		recallIDs(b, cs, "hiking trip with the dog")
		recallTotal += time.Since(start)
		cs.Close()
	}
	b.ReportMetric(float64(initTotal.Milliseconds())/float64(b.N), "ms/initialize")
	b.ReportMetric(float64(recallTotal.Milliseconds())/float64(b.N), "ms/first-recall")
}

// benchEnv is the environment of BenchmarkServeInitialize's filled store.
var benchEnv []string

// fillStore writes n generated memories (seeded, so every run is alike) into
// the store at path through the memory API, with the builtin embedder the
// server uses by default.
func fillStore(b *testing.B, path string, n int) {
	b.Helper()
	em := embed.Builtin(0)
	ctx := context.Background()
	st, err := memory.Open(ctx, memory.Options{Path: path, ModelID: em.ModelID, Embed: em.Func})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	rng := rand.New(rand.NewPCG(1, 2))
	words := strings.Fields("hiking dog tea coffee Berlin sister meeting project deadline birthday concert book garden " +
		"train holiday doctor recipe guitar marathon museum Paris invoice laptop piano swimming camera")
	start := time.Date(2023, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range n {
		text := fmt.Sprintf("note %d: %s %s and %s", i, words[rng.IntN(len(words))], words[rng.IntN(len(words))], words[rng.IntN(len(words))])
		if _, _, err := st.Remember(ctx, memory.Draft{Content: text, Time: start.Add(time.Duration(i) * time.Hour), NoDedup: true}); err != nil {
			b.Fatal(err)
		}
	}
}
