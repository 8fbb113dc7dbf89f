package tools

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// DefaultSamplingTimeout bounds one round of sampling requests on the legacy
// path (protocol versions before 2026-07-28), when Deps.SamplingTimeout is
// zero. A person may have to approve each request in the client, so it is
// generous.
const DefaultSamplingTimeout = 2 * time.Minute

// sampleRequest is one question for the client's model.
type sampleRequest struct {
	ID        string                // unique within a tool call, the same on every retry of it
	System    string                // system prompt; "" = none
	Messages  []mcp.SamplingMessage // the conversation, ending with a user message
	MaxTokens int                   // upper bound of the reply
}

// ask builds a request with one user message.
func ask(id, system, prompt string, maxTokens int) sampleRequest {
	return sampleRequest{ID: id, System: system, MaxTokens: maxTokens, Messages: []mcp.SamplingMessage{
		{Role: mcp.RoleUser, Content: mcp.NewTextContent(prompt)},
	}}
}

// followUp extends r by the model's earlier reply and a corrective user
// message, under a new id.
func followUp(r sampleRequest, id, reply, correction string) sampleRequest {
	msgs := slices.Clone(r.Messages)
	msgs = append(msgs,
		mcp.SamplingMessage{Role: mcp.RoleAssistant, Content: mcp.NewTextContent(reply)},
		mcp.SamplingMessage{Role: mcp.RoleUser, Content: mcp.NewTextContent(correction)},
	)
	return sampleRequest{ID: id, System: r.System, Messages: msgs, MaxTokens: r.MaxTokens}
}

func (r sampleRequest) params() mcp.CreateMessageParams {
	return mcp.CreateMessageParams{
		Messages:       r.Messages,
		SystemPrompt:   r.System,
		IncludeContext: "none",
		MaxTokens:      max(r.MaxTokens, 16),
		ModelPreferences: &mcp.ModelPreferences{
			// Bookkeeping, not prose: a fast model that follows formats will do.
			SpeedPriority: 0.6, IntelligencePriority: 0.5, CostPriority: 0.5,
		},
	}
}

// answer is the model's reply to one sampleRequest: its text, or why there
// is none (the request failed, was declined, timed out, or the reply held
// no text).
type answer struct {
	Text string `json:"t,omitempty"`
	Err  string `json:"e,omitempty"`
}

// ok reports whether the answer has text to parse.
func (a answer) ok() bool { return a.Err == "" && strings.TrimSpace(a.Text) != "" }

// why says in a few words why an answer is unusable, for fallback notes.
func (a answer) why() string {
	if a.Err != "" {
		return a.Err
	}
	return "empty reply"
}

// sampler is MCP sampling for one tool call, over both protocol
// generations, for handlers built with mcp.NewTypedToolHandler.
//
// A handler asks in rounds: it computes what it needs, asks all of a
// round's questions at once with ask, and when every answer is in goes on
// to the next round; it writes only after the last. On protocol 2026-07-28
// and later a round that is not answered yet ends the handler: it returns
// the input request (all of the round's questions in one result, answers of
// earlier rounds carried in the request state) and the client calls again
// with the answers, replaying the handler from the start — so everything
// before the final write must be repeatable. On earlier protocol versions
// the sampler sends the round's requests itself, concurrently and bounded
// by a per-round timeout, so that a declined, failed or slow request
// becomes a missing answer the handler falls back from instead of a failed
// tool call (mcp-go's replay bridge would fail the whole call and cannot
// bound the wait).
//
// Without the client's sampling capability nothing is asked: handlers check
// available and take their deterministic path. A sampler is used by one
// handler goroutine.
type sampler struct {
	ctx     context.Context
	modern  bool
	can     bool
	srv     *server.MCPServer
	timeout time.Duration
	key     string            // binds request state to this tool and these arguments
	known   map[string]answer // answers so far: from the request state and this retry
	scope   *callScope        // the call's scope, whose roots question rides along (carry)
}

// samplingState is what the request state carries between retries.
type samplingState struct {
	Key     string            `json:"k"`
	Answers map[string]answer `json:"a"`
	Project *string           `json:"p,omitempty"` // the roots' answer: project scope or "" (see scope.go)
}

// newSampler reads the client's sampling capability and any answers carried
// by req (modern retries).
func (d Deps) newSampler(ctx context.Context, req mcp.CallToolRequest) *sampler {
	s := &sampler{ctx: ctx, srv: server.ServerFromContext(ctx), timeout: d.SamplingTimeout, known: map[string]answer{}}
	if s.timeout <= 0 {
		s.timeout = DefaultSamplingTimeout
	}
	if info := server.RequestProtocolInfoFromContext(ctx); info != nil && info.Modern {
		s.modern = true
		s.can = info.ClientCapabilities != nil && info.ClientCapabilities.Sampling != nil
	} else if session, ok := server.ClientSessionFromContext(ctx).(server.SessionWithClientInfo); ok {
		s.can = s.srv != nil && session.GetClientCapabilities().Sampling != nil
	}
	s.key = callKey(req)
	if !s.modern {
		return s
	}
	if st, ok := decodeState(req.Params.RequestState); ok && st.Key == s.key {
		for id, a := range st.Answers {
			s.known[id] = a
		}
	}
	for id := range req.Params.InputResponses {
		if id == idRoots {
			continue // read by resolveScope
		}
		res := server.SamplingResponse(req.Params.InputResponses, id)
		if res == nil {
			s.known[id] = answer{Err: "the client's reply was not a sampling result"}
			continue
		}
		s.known[id] = replyAnswer(res)
	}
	return s
}

// callKey binds request state to the tool and the call's arguments.
func callKey(req mcp.CallToolRequest) string {
	args, _ := json.Marshal(req.Params.Arguments) // map keys sorted: stable
	sum := sha256.Sum256(append([]byte(req.Params.Name+"\x00"), args...))
	return hex.EncodeToString(sum[:12])
}

// available reports whether the client can answer sampling requests.
func (s *sampler) available() bool { return s.can }

// carry lets the sampler ask the roots of a pending scope (2026-07-28)
// together with its next round, and carry their answer through the
// request state of later rounds. Until the roots are answered ask returns
// no answers, only an input request, so nothing is written under the
// fallback scope.
func (s *sampler) carry(cs *callScope) { s.scope = cs }

// rootsPending reports whether the call's roots are still to be asked.
func (s *sampler) rootsPending() bool { return s.modern && s.scope != nil && s.scope.pending }

// inputRequest is the modern input request for missing and, while they
// are pending, the roots.
func (s *sampler) inputRequest(missing []sampleRequest) *mcp.CallToolResult {
	st := samplingState{Key: s.key, Answers: s.known}
	if s.scope != nil {
		st.Project = s.scope.answered
	}
	b := server.NewInputRequestBuilder(encodeState(st))
	for _, r := range missing {
		b.Sample(r.ID, r.params())
	}
	if s.rootsPending() {
		b.Roots(idRoots)
	}
	return b.ToolResult()
}

// ask returns the answers to reqs, by id. When pending is not nil the
// handler must return it at once: the client (protocol 2026-07-28) answers
// and calls again, and on that call ask returns the answers. Without the
// sampling capability every answer carries an error.
func (s *sampler) ask(reqs []sampleRequest) (answers map[string]answer, pending *mcp.CallToolResult) {
	answers = make(map[string]answer, len(reqs))
	var missing []sampleRequest
	for _, r := range reqs {
		if a, ok := s.known[r.ID]; ok {
			answers[r.ID] = a
		} else {
			missing = append(missing, r)
		}
	}
	if s.rootsPending() && (len(missing) == 0 || !s.can) {
		return nil, s.inputRequest(nil)
	}
	if len(missing) == 0 {
		return answers, nil
	}
	switch {
	case !s.can:
		for _, r := range missing {
			answers[r.ID] = answer{Err: "the client does not support sampling"}
		}
		return answers, nil
	case s.modern:
		return nil, s.inputRequest(missing)
	}
	for id, a := range s.legacyRound(missing) {
		s.known[id] = a
		answers[id] = a
	}
	return answers, nil
}

// legacyRound sends reqs as server-initiated sampling requests, all at
// once, and waits at most the round's timeout.
func (s *sampler) legacyRound(reqs []sampleRequest) map[string]answer {
	ctx, cancel := context.WithTimeout(s.ctx, s.timeout)
	defer cancel()
	var (
		mu  sync.Mutex
		wg  sync.WaitGroup
		out = make(map[string]answer, len(reqs))
	)
	for _, r := range reqs {
		wg.Go(func() {
			res, err := s.srv.RequestSampling(ctx, mcp.CreateMessageRequest{
				Request:             mcp.Request{Method: string(mcp.MethodSamplingCreateMessage)},
				CreateMessageParams: r.params(),
			})
			a := answer{}
			switch {
			case ctx.Err() == context.DeadlineExceeded:
				a.Err = fmt.Sprintf("no reply within %s", s.timeout)
			case err != nil:
				a.Err = "sampling failed: " + err.Error()
			case res == nil:
				a.Err = "sampling returned nothing"
			default:
				a = replyAnswer(res)
			}
			mu.Lock()
			out[r.ID] = a
			mu.Unlock()
		})
	}
	wg.Wait()
	return out
}

// replyAnswer extracts the text of a sampling result, whose content may
// arrive as a typed value, a decoded JSON map or a list of blocks.
func replyAnswer(res *mcp.CreateMessageResult) answer {
	content, err := mcp.ParseSamplingContent(res.Content)
	if err != nil {
		return answer{Err: "unreadable reply: " + err.Error()}
	}
	var b strings.Builder
	var add func(c any)
	add = func(c any) {
		switch c := c.(type) {
		case mcp.TextContent:
			b.WriteString(c.Text)
		case *mcp.TextContent:
			b.WriteString(c.Text)
		case string:
			b.WriteString(c)
		case []mcp.Content:
			for _, x := range c {
				add(x)
			}
		}
	}
	add(content)
	text := strings.TrimSpace(b.String())
	if text == "" {
		return answer{Err: "the reply held no text"}
	}
	return answer{Text: text}
}

func encodeState(st samplingState) string {
	data, err := json.Marshal(st)
	if err != nil { // maps of strings always marshal
		return ""
	}
	return base64.RawURLEncoding.EncodeToString(data)
}

func decodeState(s string) (samplingState, bool) {
	if s == "" {
		return samplingState{}, false
	}
	data, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return samplingState{}, false
	}
	var st samplingState
	if json.Unmarshal(data, &st) != nil {
		return samplingState{}, false
	}
	return st, true
}

// progress reports a step of a long call to the client when the request
// asked for progress (a progressToken in _meta); otherwise it does nothing.
func progress(ctx context.Context, req mcp.CallToolRequest, done, total int, message string) {
	if req.Params.Meta == nil || req.Params.Meta.ProgressToken == nil {
		return
	}
	srv := server.ServerFromContext(ctx)
	if srv == nil {
		return
	}
	_ = srv.SendNotificationToClient(ctx, string(mcp.MethodNotificationProgress), map[string]any{
		"progressToken": req.Params.Meta.ProgressToken,
		"progress":      done,
		"total":         total,
		"message":       message,
	})
}
