package tools

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// scripted is a client-side sampling handler that answers by the first
// rule whose key occurs in the request's last user message, and records
// every request.
type scripted struct {
	mu    sync.Mutex
	rules []rule
	seen  []string // last user message of each request, in arrival order
	calls atomic.Int32
}

// rule answers requests whose last user message contains key. reply is the
// text; err makes the request fail; delay holds the answer back; raw sends
// content as a decoded-JSON map, as some clients do.
type rule struct {
	key   string
	reply func(prompt string) string
	err   error
	delay time.Duration
	raw   bool
}

func say(key, text string) rule {
	return rule{key: key, reply: func(string) string { return text }}
}

func (s *scripted) CreateMessage(ctx context.Context, req mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	s.calls.Add(1)
	prompt := ""
	for _, m := range req.Messages {
		if m.Role != mcp.RoleUser {
			continue
		}
		switch c := m.Content.(type) {
		case mcp.TextContent:
			prompt = c.Text
		case map[string]any:
			prompt, _ = c["text"].(string)
		}
	}
	s.mu.Lock()
	s.seen = append(s.seen, prompt)
	rules := s.rules
	s.mu.Unlock()
	for _, r := range rules {
		if !strings.Contains(prompt, r.key) {
			continue
		}
		if r.delay > 0 {
			select {
			case <-time.After(r.delay):
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
		if r.err != nil {
			return nil, r.err
		}
		var content any = mcp.NewTextContent(r.reply(prompt))
		if r.raw {
			content = map[string]any{"type": "text", "text": r.reply(prompt)}
		}
		return &mcp.CreateMessageResult{
			SamplingMessage: mcp.SamplingMessage{Role: mcp.RoleAssistant, Content: content},
			Model:           "scripted",
		}, nil
	}
	return nil, fmt.Errorf("scripted: no rule for %q", prompt)
}

func (s *scripted) prompts() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.seen...)
}

// clientKind says how a test client talks to the server.
type clientKind int

const (
	modernClient clientKind = iota // protocol 2026-07-28: input requests, retried by the client
	legacyClient                   // protocol 2025-11-25: server-initiated sampling requests
)

func (k clientKind) String() string { return [...]string{"modern", "legacy"}[k] }

// connectWith starts an in-process client on srv; with a sampling handler
// the client declares the sampling capability.
func connectWith(t *testing.T, srv *server.MCPServer, kind clientKind, h client.SamplingHandler) *client.Client {
	t.Helper()
	c, _ := startClient(t, srv, "tools-test", kind.options(h)...)
	return c
}

// options are the client options of kind, with the sampling capability
// when h is not nil.
func (k clientKind) options(h client.SamplingHandler) []client.ClientOption {
	var opts []client.ClientOption
	if k == legacyClient {
		opts = append(opts, client.WithProtocolVersion(mcp.LATEST_LEGACY_PROTOCOL_VERSION))
	}
	if h != nil {
		opts = append(opts, client.WithSamplingHandler(h))
	}
	return opts
}

// twoRounds is a test tool: round one asks "a" and "b" at once, round two
// asks "c" with both answers in its prompt. It counts how often it reached
// the end (where a real tool would write).
func twoRounds(d Deps, finals *atomic.Int32) server.ServerTool {
	tool := mcp.NewTool("two_rounds", mcp.WithString("x"))
	return server.ServerTool{Tool: tool, Handler: func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		s := d.newSampler(ctx, req)
		if !s.available() {
			return mcp.NewToolResultText("no sampling"), nil
		}
		first, pending := s.ask([]sampleRequest{ask("a", "", "question A", 50), ask("b", "", "question B", 50)})
		if pending != nil {
			return pending, nil
		}
		second, pending := s.ask([]sampleRequest{ask("c", "", "question C after "+first["a"].Text+"+"+first["b"].Text, 50)})
		if pending != nil {
			return pending, nil
		}
		finals.Add(1)
		var parts []string
		for _, id := range []string{"a", "b"} {
			if a := first[id]; a.ok() {
				parts = append(parts, id+"="+a.Text)
			} else {
				parts = append(parts, id+" failed: "+a.why())
			}
		}
		parts = append(parts, "c="+second["c"].Text+second["c"].Err)
		return mcp.NewToolResultText(strings.Join(parts, "; ")), nil
	}}
}

func callText(t *testing.T, c *client.Client, name string, args map[string]any) string {
	t.Helper()
	var req mcp.CallToolRequest
	req.Params.Name = name
	req.Params.Arguments = args
	res, err := c.CallTool(t.Context(), req)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return resultText(res)
}

func TestSamplerRoundsOverBothProtocols(t *testing.T) {
	for _, kind := range []clientKind{modernClient, legacyClient} {
		t.Run(kind.String(), func(t *testing.T) {
			var finals atomic.Int32
			srv := server.NewMCPServer("t", "1")
			srv.AddTools(twoRounds(Deps{}, &finals))
			h := &scripted{rules: []rule{
				say("question A", "alpha"),
				{key: "question B", reply: func(string) string { return "beta" }, raw: true},
				{key: "question C", reply: func(p string) string { return "gamma(" + strings.TrimPrefix(p, "question C after ") + ")" }},
			}}
			c := connectWith(t, srv, kind, h)
			got := callText(t, c, "two_rounds", map[string]any{"x": "1"})
			if want := "a=alpha; b=beta; c=gamma(alpha+beta)"; got != want {
				t.Errorf("result = %q, want %q", got, want)
			}
			if n := finals.Load(); n != 1 {
				t.Errorf("the handler reached its end %d times, want once", n)
			}
			if n := h.calls.Load(); n != 3 {
				t.Errorf("%d sampling requests, want 3 (each question once)", n)
			}
		})
	}
}

func TestSamplerWithoutCapabilityAsksNothing(t *testing.T) {
	for _, kind := range []clientKind{modernClient, legacyClient} {
		t.Run(kind.String(), func(t *testing.T) {
			var finals atomic.Int32
			srv := server.NewMCPServer("t", "1")
			srv.AddTools(twoRounds(Deps{}, &finals))
			c := connectWith(t, srv, kind, nil)
			if got := callText(t, c, "two_rounds", nil); got != "no sampling" {
				t.Errorf("result = %q", got)
			}
		})
	}
}

func TestSamplerLegacyFailuresBecomeMissingAnswers(t *testing.T) {
	var finals atomic.Int32
	srv := server.NewMCPServer("t", "1")
	srv.AddTools(twoRounds(Deps{SamplingTimeout: 50 * time.Millisecond}, &finals))
	h := &scripted{rules: []rule{
		{key: "question A", err: errors.New("user rejected sampling request")},
		{key: "question B", delay: time.Second, reply: func(string) string { return "late" }},
		say("question C", "gamma"),
	}}
	c := connectWith(t, srv, legacyClient, h)
	got := callText(t, c, "two_rounds", nil)
	for _, want := range []string{"a failed: sampling failed", "user rejected", "b failed: no reply within 50ms", "c=gamma"} {
		if !strings.Contains(got, want) {
			t.Errorf("result %q lacks %q", got, want)
		}
	}
}

// TestSamplerModernInputRequest drives the 2026-07-28 path by hand: the
// first call returns one input request with both of round one's questions,
// the retry with their answers asks round two and carries round one's
// answers in the request state, and the last retry completes.
func TestSamplerModernInputRequest(t *testing.T) {
	var finals atomic.Int32
	handler := twoRounds(Deps{}, &finals).Handler
	ctx := server.WithRequestProtocolInfo(t.Context(), &server.RequestProtocolInfo{
		Modern: true, ProtocolVersion: "2026-07-28",
		ClientCapabilities: &mcp.ClientCapabilities{Sampling: &mcp.SamplingCapability{}},
	})
	var req mcp.CallToolRequest
	req.Params.Name = "two_rounds"
	req.Params.Arguments = map[string]any{"x": "1"}

	res, err := handler(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if res.ResultType != mcp.ResultTypeInputRequired || len(res.InputRequests) != 2 {
		t.Fatalf("first call: %+v, want input_required with 2 requests", res)
	}
	reply := func(text string) mcp.InputResponse {
		return mcp.NewSamplingInputResponse(mcp.CreateMessageResult{
			SamplingMessage: mcp.SamplingMessage{Role: mcp.RoleAssistant, Content: mcp.NewTextContent(text)}, Model: "m",
		})
	}
	req.Params.InputResponses = mcp.InputResponses{"a": reply("alpha"), "b": reply("beta")}
	req.Params.RequestState = res.RequestState
	res, err = handler(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if res.ResultType != mcp.ResultTypeInputRequired || len(res.InputRequests) != 1 {
		t.Fatalf("second call: %+v, want input_required with 1 request", res)
	}
	if _, ok := res.InputRequests["c"]; !ok {
		t.Fatalf("second call asks %v, want c", res.InputRequests)
	}

	// A state made for other arguments is ignored: round one is asked again.
	other := req
	other.Params.Arguments = map[string]any{"x": "2"}
	other.Params.InputResponses = nil
	other.Params.RequestState = res.RequestState
	if r, _ := handler(ctx, other); len(r.InputRequests) != 2 {
		t.Errorf("state of other arguments was accepted: %+v", r.InputRequests)
	}

	req.Params.InputResponses = mcp.InputResponses{"c": reply("gamma")}
	req.Params.RequestState = res.RequestState
	res, err = handler(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if got := resultText(res); got != "a=alpha; b=beta; c=gamma" {
		t.Errorf("final = %q", got)
	}
	if finals.Load() != 1 {
		t.Errorf("finals = %d", finals.Load())
	}
}
