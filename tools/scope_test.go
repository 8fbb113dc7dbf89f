package tools

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mneme-mcp/mneme/memory"
)

// workspace is the test client's workspace root.
const workspace = "file:///home/u/src/mneme"

// fakeRoots is a client roots handler that counts its calls.
type fakeRoots struct {
	uris  []string
	err   error
	calls atomic.Int32
}

func (r *fakeRoots) ListRoots(context.Context, mcp.ListRootsRequest) (*mcp.ListRootsResult, error) {
	r.calls.Add(1)
	if r.err != nil {
		return nil, r.err
	}
	res := &mcp.ListRootsResult{Roots: []mcp.Root{}}
	for _, u := range r.uris {
		res.Roots = append(res.Roots, mcp.Root{URI: u, Name: "ws"})
	}
	return res, nil
}

// connectRoots connects an in-process client of kind that declares roots
// (answered by r) and, when h is not nil, sampling.
func connectRoots(t *testing.T, srv *server.MCPServer, kind clientKind, r *fakeRoots, h client.SamplingHandler) *client.Client {
	t.Helper()
	c, _ := startClient(t, srv, "roots-test", append(kind.options(h), client.WithRootsHandler(r))...)
	return c
}

// scopesOf lists the scopes of recalled memories.
func scopesOf(out RecallOutput) []string {
	var s []string
	for _, m := range out.Memories {
		if !slices.Contains(s, m.Scope) {
			s = append(s, m.Scope)
		}
	}
	slices.Sort(s)
	return s
}

func TestProjectScope(t *testing.T) {
	mneme := ProjectScope("/home/u/src/mneme")
	if !strings.HasPrefix(mneme, "project:mneme-") || len(mneme) != len("project:mneme-")+6 {
		t.Fatalf("ProjectScope = %q, want project:mneme-<6 hex>", mneme)
	}
	tests := []struct {
		in, want string
	}{
		{"/home/u/src/mneme/", mneme},
		{"/home/u/src/./mneme", mneme},
		{"", ""},
	}
	for _, tt := range tests {
		if got := ProjectScope(tt.in); got != tt.want {
			t.Errorf("ProjectScope(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if other := ProjectScope("/work/mneme"); other == mneme || !strings.HasPrefix(other, "project:mneme-") {
		t.Errorf("another checkout named mneme: %q (first %q)", other, mneme)
	}
	for in, prefix := range map[string]string{
		"/home/u/My Project!":                "project:my-project-",
		"/home/u/Ünïcode":                    "project:n-code-",
		"/":                                  "project:root-",
		"/home/u/" + strings.Repeat("x", 60): "project:" + strings.Repeat("x", 40) + "-",
		"/home/u/rust_lib.v2":                "project:rust_lib.v2-",
	} {
		if got := ProjectScope(in); !strings.HasPrefix(got, prefix) || !validProject(got) {
			t.Errorf("ProjectScope(%q) = %q, want prefix %q and a valid scope", in, got, prefix)
		}
	}

	roots := func(uris ...string) []mcp.Root {
		var rs []mcp.Root
		for _, u := range uris {
			rs = append(rs, mcp.Root{URI: u})
		}
		return rs
	}
	if got := rootsProject(roots(workspace)); got != mneme {
		t.Errorf("rootsProject(%s) = %q, want %q", workspace, got, mneme)
	}
	if got := rootsProject(roots("https://example.com/x", "::bad", workspace, "file:///elsewhere")); got != mneme {
		t.Errorf("the first file:// root is not used: %q", got)
	}
	if got := rootsProject(roots("file:///home/u/src/my%20app")); got != ProjectScope("/home/u/src/my app") {
		t.Errorf("percent-encoded root: %q", got)
	}
	win := rootsProject(roots("file:///C:/Users/u/src/mneme"))
	if win != rootsProject(roots("file:///c%3A/Users/u/src/mneme")) || win != ProjectScope("C:/Users/u/src/mneme") || !strings.HasPrefix(win, "project:mneme-") {
		t.Errorf("windows roots disagree: %q", win)
	}
	if got := rootsProject(roots("https://example.com/x")); got != "" {
		t.Errorf("no file root gave %q", got)
	}
	for _, bad := range []string{"personal", "project:", "project:Upper", "project:a b", "project:" + strings.Repeat("a", 60)} {
		if validProject(bad) {
			t.Errorf("validProject(%q) = true", bad)
		}
	}
}

// TestRootsProjectScope runs remember and recall over both protocol
// generations with a client whose workspace is /home/u/src/mneme.
func TestRootsProjectScope(t *testing.T) {
	project := ProjectScope("/home/u/src/mneme")
	other := ProjectScope("/home/u/src/other")
	for _, kind := range []clientKind{modernClient, legacyClient} {
		t.Run(kind.String(), func(t *testing.T) {
			f := newFixture(t)
			r := &fakeRoots{uris: []string{workspace}}
			c := connectRoots(t, newServer(f.deps, server.WithOutputSchemaValidation()), kind, r, nil)

			got, text := callOverProtocol[RememberOutput](t, c, "remember", map[string]any{"content": "mneme builds with Go 1.26 and no cgo"})
			if got.Scope != project {
				t.Fatalf("remember stored in %q, want %q (%s)", got.Scope, project, text)
			}
			callOverProtocol[RememberOutput](t, c, "remember", map[string]any{"content": "the user builds everything with Go at home", "scope": memory.DefaultScope})
			callOverProtocol[RememberOutput](t, c, "remember", map[string]any{"content": "the other project builds with Go 1.22", "scope": other})
			if w, _ := callOverProtocol[RememberOutput](t, c, "remember", map[string]any{"content": "a Go meetup at work", "scope": "work"}); w.Scope != "work" {
				t.Errorf("explicit scope: stored in %q", w.Scope)
			}

			out, _ := callOverProtocol[RecallOutput](t, c, "recall", map[string]any{"query": "builds with Go", "limit": 10})
			if s := scopesOf(out); !slices.Equal(s, []string{memory.DefaultScope, project}) {
				t.Errorf("recall searched %v, want the project and personal scopes", s)
			}
			out, _ = callOverProtocol[RecallOutput](t, c, "recall", map[string]any{"query": "Go", "scope": other})
			if s := scopesOf(out); !slices.Equal(s, []string{other}) {
				t.Errorf("recall with scope %s found %v", other, s)
			}

			// Forget's filter defaults to the call's scope: the project.
			fo, _ := callOverProtocol[ForgetOutput](t, c, "forget", map[string]any{"filter": map[string]any{"before": "2030-01-01"}, "dry_run": true})
			if len(fo.IDs) != 1 || fo.IDs[0] != got.ID {
				t.Errorf("forget's filter reached %v, want only the project's memory %s", fo.IDs, got.ID)
			}
			if n := r.calls.Load(); n != 1 {
				t.Errorf("roots asked %d times in one session, want 1", n)
			}
		})
	}
}

func TestRootsCacheExpiresAndListChanged(t *testing.T) {
	f := newFixture(t)
	r := &fakeRoots{uris: []string{workspace}}
	c := connectRoots(t, newServer(f.deps), legacyClient, r, nil)
	remember := func(content string) string {
		t.Helper()
		out, _ := callOverProtocol[RememberOutput](t, c, "remember", map[string]any{"content": content})
		return out.Scope
	}
	remember("first note")
	remember("second note")
	if n := r.calls.Load(); n != 1 {
		t.Fatalf("roots asked %d times, want 1", n)
	}
	f.clock.Add(DefaultRootsTTL + time.Second)
	remember("third note")
	if n := r.calls.Load(); n != 2 {
		t.Errorf("after the TTL roots asked %d times, want 2", n)
	}

	r.uris = []string{"file:///home/u/src/other"}
	if err := c.RootListChanges(t.Context()); err != nil {
		t.Fatal(err)
	}
	if got, want := remember("fourth note"), ProjectScope("/home/u/src/other"); got != want {
		t.Errorf("after roots/list_changed stored in %q, want %q", got, want)
	}
	if n := r.calls.Load(); n != 3 {
		t.Errorf("after list_changed roots asked %d times, want 3", n)
	}
}

func TestFixedScopeSkipsRoots(t *testing.T) {
	for _, kind := range []clientKind{modernClient, legacyClient} {
		t.Run(kind.String(), func(t *testing.T) {
			f := newFixture(t)
			f.deps.FixedScope = "work"
			r := &fakeRoots{uris: []string{workspace}}
			c := connectRoots(t, newServer(f.deps), kind, r, nil)
			if out, _ := callOverProtocol[RememberOutput](t, c, "remember", map[string]any{"content": "standup at nine"}); out.Scope != "work" {
				t.Errorf("stored in %q, want the fixed scope", out.Scope)
			}
			callOverProtocol[RememberOutput](t, c, "remember", map[string]any{"content": "standup notes at home", "scope": memory.DefaultScope})
			if out, _ := callOverProtocol[RecallOutput](t, c, "recall", map[string]any{"query": "standup"}); !slices.Equal(scopesOf(out), []string{"work"}) {
				t.Errorf("recall with a fixed scope searched %v, want it alone", scopesOf(out))
			}
			if n := r.calls.Load(); n != 0 {
				t.Errorf("roots asked %d times with a fixed scope", n)
			}
		})
	}
}

// TestRootsFallBackToPersonal: a client without roots, or whose roots fail
// or are empty or not files, gets the personal scope and a working call.
func TestRootsFallBackToPersonal(t *testing.T) {
	tests := []struct {
		name  string
		kinds []clientKind
		roots *fakeRoots // nil: no roots capability
	}{
		{"no capability", []clientKind{modernClient, legacyClient}, nil},
		{"empty list", []clientKind{modernClient, legacyClient}, &fakeRoots{}},
		{"no file root", []clientKind{modernClient, legacyClient}, &fakeRoots{uris: []string{"https://example.com/repo"}}},
		// mcp-go's client fails the whole call when a handler fails an input
		// request (2026-07-28), so the error case is the legacy one.
		{"error", []clientKind{legacyClient}, &fakeRoots{err: errors.New("no workspace open")}},
	}
	for _, tt := range tests {
		for _, kind := range tt.kinds {
			t.Run(tt.name+"/"+kind.String(), func(t *testing.T) {
				f := newFixture(t)
				var c *client.Client
				var r *fakeRoots
				if tt.roots == nil {
					c = connectWith(t, newServer(f.deps), kind, nil)
				} else {
					r = &fakeRoots{uris: tt.roots.uris, err: tt.roots.err}
					c = connectRoots(t, newServer(f.deps), kind, r, nil)
				}
				for range 2 {
					if out, _ := callOverProtocol[RememberOutput](t, c, "remember", map[string]any{"content": "tea with lemon"}); out.Scope != memory.DefaultScope {
						t.Errorf("stored in %q, want %q", out.Scope, memory.DefaultScope)
					}
				}
				if r != nil && r.calls.Load() != 1 {
					t.Errorf("roots asked %d times, want once (a failure is cached too)", r.calls.Load())
				}
			})
		}
	}
}

// modernCtx is a 2026-07-28 request context without a session (as on
// streamable HTTP) whose client declares roots and, when sampling is true,
// sampling.
func modernCtx(t *testing.T, sampling bool) context.Context {
	caps := &mcp.ClientCapabilities{Roots: &struct {
		ListChanged bool `json:"listChanged,omitempty"`
	}{}}
	if sampling {
		caps.Sampling = &mcp.SamplingCapability{}
	}
	return server.WithRequestProtocolInfo(t.Context(), &server.RequestProtocolInfo{
		Modern: true, ProtocolVersion: "2026-07-28", ClientCapabilities: caps,
		ClientInfo: &mcp.Implementation{Name: "c", Version: "1"},
	})
}

func rootsAnswer(uris ...string) mcp.InputResponse {
	res := mcp.ListRootsResult{Roots: []mcp.Root{}}
	for _, u := range uris {
		res.Roots = append(res.Roots, mcp.Root{URI: u})
	}
	return mcp.NewRootsInputResponse(res)
}

// TestRootsModernInputRequest drives remember by hand on 2026-07-28: the
// first call only asks the roots, the retry with the answer stores in the
// project scope.
func TestRootsModernInputRequest(t *testing.T) {
	f := newFixture(t)
	handler := f.handler(t, "remember")
	ctx := modernCtx(t, false)
	var req mcp.CallToolRequest
	req.Params.Name = "remember"
	req.Params.Arguments = map[string]any{"content": "the build needs no cgo"}

	res, err := handler(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if res.ResultType != mcp.ResultTypeInputRequired || len(res.InputRequests) != 1 || res.InputRequests[idRoots].Method != mcp.MethodListRoots {
		t.Fatalf("first call: %+v, want input_required asking only the roots", res)
	}
	if st := f.stats(t); st.Memories != 0 {
		t.Fatalf("stored %d memories before the roots were answered", st.Memories)
	}
	req.Params.InputResponses = mcp.InputResponses{idRoots: rootsAnswer(workspace)}
	req.Params.RequestState = res.RequestState
	res, err = handler(ctx, req)
	if err != nil || res.IsError || res.ResultType == mcp.ResultTypeInputRequired {
		t.Fatalf("retry: %v %+v", err, res)
	}
	if got := decode[RememberOutput](t, res.StructuredContent); got.Scope != ProjectScope("/home/u/src/mneme") {
		t.Errorf("stored in %q", got.Scope)
	}

	// Without a session nothing is cached: the next call asks again.
	req.Params.InputResponses, req.Params.RequestState = nil, ""
	if res, _ = handler(ctx, req); res.ResultType != mcp.ResultTypeInputRequired {
		t.Errorf("a sessionless call used a cache: %+v", res)
	}
	// An explicit scope needs no roots.
	req.Params.Arguments = map[string]any{"content": "x", "scope": "work"}
	if res, _ = handler(ctx, req); res.ResultType == mcp.ResultTypeInputRequired || res.IsError {
		t.Errorf("explicit scope asked: %+v", res)
	}
}

// TestRootsModernRideWithSampling: recall with message asks the roots in
// the same input request as its first sampling round, carries the answer
// through the second round's state without asking again, and searches the
// project with the personal scope.
func TestRootsModernRideWithSampling(t *testing.T) {
	f := newFixture(t)
	project := ProjectScope("/home/u/src/mneme")
	f.remember(t, map[string]any{"content": "Carla plays the cello in a string quartet", "tags": []any{"music"}, "scope": project})
	f.remember(t, map[string]any{"content": "Carla's cello teacher lives in Porto", "tags": []any{"music"}})
	f.remember(t, map[string]any{"content": "Carla sold her cello last year", "tags": []any{"music"}, "scope": ProjectScope("/home/u/src/other")})

	handler := f.handler(t, "recall")
	ctx := modernCtx(t, true)
	var req mcp.CallToolRequest
	req.Params.Name = "recall"
	req.Params.Arguments = map[string]any{"message": "Which instrument does Carla play?", "reinforce": false}
	reply := func(text string) mcp.InputResponse {
		return mcp.NewSamplingInputResponse(mcp.CreateMessageResult{
			SamplingMessage: mcp.SamplingMessage{Role: mcp.RoleAssistant, Content: mcp.NewTextContent(text)}, Model: "m",
		})
	}

	res, err := handler(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for id := range res.InputRequests {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	if want := []string{idController, idRoots, idQueryTags}; res.ResultType != mcp.ResultTypeInputRequired || !slices.Equal(ids, want) {
		t.Fatalf("first round asks %v, want %v in one request", ids, want)
	}

	req.Params.InputResponses = mcp.InputResponses{
		idRoots: rootsAnswer(workspace), idController: reply("Q1: A\nQ2: A"), idQueryTags: reply("music"),
	}
	req.Params.RequestState = res.RequestState
	if res, err = handler(ctx, req); err != nil {
		t.Fatal(err)
	}
	rel, ok := res.InputRequests[idRelevance]
	if res.ResultType != mcp.ResultTypeInputRequired || len(res.InputRequests) != 1 || !ok {
		t.Fatalf("second round: %+v, want only the relevance filter", res.InputRequests)
	}
	prompt := rel.Sampling.Messages[0].Content.(mcp.TextContent).Text
	if strings.Contains(prompt, "sold her cello") || !strings.Contains(prompt, "string quartet") || !strings.Contains(prompt, "Porto") {
		t.Errorf("the relevance prompt does not list the project and personal memories only:\n%s", prompt)
	}

	req.Params.InputResponses = mcp.InputResponses{idRelevance: reply("1, 2")}
	req.Params.RequestState = res.RequestState
	if res, err = handler(ctx, req); err != nil || res.IsError || res.ResultType == mcp.ResultTypeInputRequired {
		t.Fatalf("last round: %v %+v", err, res)
	}
	out := decode[RecallOutput](t, res.StructuredContent)
	if s := scopesOf(out); !slices.Equal(s, []string{memory.DefaultScope, project}) {
		t.Errorf("recall found scopes %v, want personal and the project", s)
	}
}

// TestRootsModernConsolidate: over the 2026-07-28 in-process client with
// sampling, consolidate's roots ride with the key-events round and what it
// extracts is stored in the project scope; roots are asked once (the
// session caches them).
func TestRootsModernConsolidate(t *testing.T) {
	f := newFixture(t)
	r := &fakeRoots{uris: []string{workspace}}
	h := &scripted{rules: []rule{say("<transcript>", "User moved to Lisbon;2026-05-10 09:00;moving"), reviewRule(nil)}}
	c := connectRoots(t, newServer(f.deps), modernClient, r, h)
	out, text := callOverProtocol[ConsolidateOutput](t, c, "consolidate", map[string]any{"transcript": lisbon})
	if !out.Sampling || len(out.Added) == 0 {
		t.Fatalf("consolidate = %+v\n%s", out, text)
	}
	ms, err := f.store.List(t.Context(), memory.ListFilter{Scope: ProjectScope("/home/u/src/mneme")})
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != len(out.Added) {
		t.Errorf("the project scope holds %d memories, consolidate added %d: %s", len(ms), len(out.Added), text)
	}
	if n := r.calls.Load(); n != 1 {
		t.Errorf("roots asked %d times, want 1", n)
	}
}

// TestRootsCacheConcurrentAndBounded: concurrent calls of one session ask
// the roots once; an uncacheable answer is not kept; the cache stays bounded.
func TestRootsCacheConcurrentAndBounded(t *testing.T) {
	c := newRootsCache()
	now := func() time.Time { return epoch }
	release := make(chan struct{})
	var asked atomic.Int32
	ask := func(context.Context) (string, bool) {
		asked.Add(1)
		<-release
		return "project:a-000000", true
	}
	key := rootsKey{session: "s1"}
	got := make(chan string)
	for range 8 {
		go func() { got <- c.fetch(t.Context(), key, now, ask) }()
	}
	for asked.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	close(release)
	for range 8 {
		if p := <-got; p != "project:a-000000" {
			t.Errorf("fetch = %q", p)
		}
	}
	if n := asked.Load(); n != 1 {
		t.Errorf("asked %d times, want 1", n)
	}

	c.fetch(t.Context(), rootsKey{session: "s2"}, now, func(context.Context) (string, bool) { return "", false })
	if _, ok := c.get(rootsKey{session: "s2"}, epoch); ok {
		t.Error("an uncacheable answer was kept")
	}
	for i := range maxRootsEntries + 10 {
		c.put(rootsKey{session: "many", client: string(rune(i))}, "", epoch)
	}
	if n := len(c.m); n > maxRootsEntries {
		t.Errorf("cache holds %d entries, bound %d", n, maxRootsEntries)
	}
	// Making room evicts an arbitrary entry, s1's among them about one run
	// in a hundred: put it back so that forgetSession is what is tested.
	c.put(key, "project:a-000000", epoch)
	c.forgetSession("many")
	if _, ok := c.get(key, epoch); !ok || len(c.m) != 1 {
		t.Errorf("forgetSession: %d entries left, want only s1", len(c.m))
	}
	var nilCache *rootsCache
	if p := nilCache.fetch(t.Context(), key, now, func(context.Context) (string, bool) { return "project:b-000000", true }); p != "project:b-000000" {
		t.Errorf("nil cache fetch = %q", p)
	}
}
