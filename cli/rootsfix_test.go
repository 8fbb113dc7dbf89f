package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// rootsResponse is the JSON-RPC response mcp-go writes for a tool result.
func rootsResponse(t *testing.T, res *mcp.CallToolResult) []byte {
	t.Helper()
	b, err := json.Marshal(mcp.JSONRPCResponse{JSONRPC: mcp.JSONRPC_VERSION, ID: mcp.NewRequestId(7), Result: res})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// sdkResult decodes the result of a JSON-RPC response as go-sdk does.
func sdkResult(msg []byte) (*sdk.CallToolResult, error) {
	var env struct {
		Result json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal(msg, &env); err != nil {
		return nil, err
	}
	var res sdk.CallToolResult
	return &res, json.Unmarshal(env.Result, &res)
}

// TestRootsFixMakesMcpGoReadableByGoSDK pins both sides: mcp-go v1.2.1
// writes the roots input request without params and go-sdk v1.8.0 cannot
// read that; after the fix it reads a roots request. Should mcp-go start
// writing params, the first check fails: rootsfix.go can then go.
func TestRootsFixMakesMcpGoReadableByGoSDK(t *testing.T) {
	res := server.NewInputRequestBuilder("opaque-state").
		Roots("mneme-roots").
		Sample("q1", mcp.CreateMessageParams{MaxTokens: 5, Messages: []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: mcp.NewTextContent("hi")}}}).
		ToolResult()
	msg := rootsResponse(t, res)
	if !bytes.Contains(msg, []byte(`"mneme-roots":{"method":"roots/list"}`)) {
		t.Fatalf("mcp-go no longer writes the roots input request as {\"method\":\"roots/list\"}; is rootsfix.go still needed?\n%s", msg)
	}
	if _, err := sdkResult(msg); err == nil {
		t.Fatalf("go-sdk now reads the unfixed roots request; is rootsfix.go still needed?\n%s", msg)
	}

	fixed := fixRootsRequests(msg)
	got, err := sdkResult(fixed)
	if err != nil {
		t.Fatalf("go-sdk cannot read the fixed response: %v\n%s", err, fixed)
	}
	if _, ok := got.InputRequests["mneme-roots"].(*sdk.ListRootsParams); !ok {
		t.Errorf("roots input request decoded as %T", got.InputRequests["mneme-roots"])
	}
	if _, ok := got.InputRequests["q1"].(*sdk.CreateMessageWithToolsParams); !ok {
		t.Errorf("sampling input request decoded as %T", got.InputRequests["q1"])
	}
	if got.RequestState != "opaque-state" {
		t.Errorf("request state %q", got.RequestState)
	}
	// Only the roots request changed.
	if want := bytes.Replace(msg, rootsRequestBare, rootsRequestFixed, 1); !bytes.Equal(fixed, want) {
		t.Errorf("fixed:\n%s\nwant:\n%s", fixed, want)
	}
	// mcp-go reads the fixed form back as the same request.
	var back mcp.CallToolResult
	var env struct {
		Result json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal(fixed, &env); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(env.Result, &back); err != nil || back.InputRequests["mneme-roots"].Roots == nil {
		t.Errorf("mcp-go reads the fixed request as %+v, %v", back.InputRequests["mneme-roots"], err)
	}
}

// TestRootsFixLeavesTextAlone: the roots request's text inside strings
// (content, structured content, request state, an error) is escaped by
// encoding/json and never rewritten; nor are the legacy roots/list request,
// an already fixed one, or an object with more members.
func TestRootsFixLeavesTextAlone(t *testing.T) {
	const text = `{"method":"roots/list"}`
	res := &mcp.CallToolResult{
		Content:           []mcp.Content{mcp.NewTextContent(text), mcp.NewTextContent(`x` + text + `"` + text)},
		StructuredContent: map[string]any{"content": text, text: []string{text, `\` + text}},
		IsError:           true,
	}
	res.RequestState = text
	msgs := [][]byte{
		rootsResponse(t, res),
		[]byte(`{"jsonrpc":"2.0","id":1,"method":"roots/list"}` + "\n"),
		[]byte(`{"method":"roots/list","params":{}}`),
		[]byte(`{"method":"roots/list","x":1}`),
		[]byte(`{"method": "roots/list"}`),
		[]byte(`{"method":"roots/listChanged"}`),
	}
	if !bytes.Contains(msgs[0], []byte(`{\"method\":\"roots/list\"}`)) {
		t.Fatalf("the text is not in the message escaped: %s", msgs[0])
	}
	for _, msg := range msgs {
		if got := fixRootsRequests(msg); !bytes.Equal(got, msg) || &got[0] != &msg[0] {
			t.Errorf("rewritten:\n%s\nto:\n%s", msg, got)
		}
	}
}

func TestRootsFixReplacesEveryRequest(t *testing.T) {
	in := `{"a":{"method":"roots/list"},"b":[{"method":"roots/list"}]}` + "\n"
	want := `{"a":{"method":"roots/list","params":{}},"b":[{"method":"roots/list","params":{}}]}` + "\n"
	if got := string(fixRootsRequests([]byte(in))); got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// shortWriter writes at most n bytes and then fails.
type shortWriter struct {
	buf bytes.Buffer
	n   int
}

func (w *shortWriter) Write(p []byte) (int, error) {
	if len(p) > w.n {
		w.buf.Write(p[:w.n])
		return w.n, errors.New("short write")
	}
	return w.buf.Write(p)
}

// TestRootsFixWriter: one Write per message (as mcp-go writes) is fixed and
// reported as len(p); a message split inside the pattern passes through
// unchanged, never half rewritten; a failed write reports at most len(p).
func TestRootsFixWriter(t *testing.T) {
	msg := []byte(`{"jsonrpc":"2.0","id":1,"result":{"inputRequests":{"r":{"method":"roots/list"}},"resultType":"input_required"}}` + "\n")
	var out bytes.Buffer
	n, err := rootsFixWriter{&out}.Write(msg)
	if err != nil || n != len(msg) {
		t.Fatalf("Write = %d, %v; want %d, nil", n, err, len(msg))
	}
	if want := string(fixRootsRequests(msg)); out.String() != want || !strings.Contains(want, `"params":{}`) {
		t.Errorf("wrote %s, want %s", out.String(), want)
	}

	cut := bytes.Index(msg, []byte("roots/")) // inside the pattern
	out.Reset()
	w := rootsFixWriter{&out}
	for _, part := range [][]byte{msg[:cut], msg[cut:]} {
		if n, err := w.Write(part); err != nil || n != len(part) {
			t.Fatalf("Write = %d, %v", n, err)
		}
	}
	if !bytes.Equal(out.Bytes(), msg) {
		t.Errorf("split message changed: %s", out.Bytes())
	}

	for _, limit := range []int{0, 10, len(msg) - 1, len(msg), len(msg) + 5} {
		sw := &shortWriter{n: limit}
		n, err := rootsFixWriter{sw}.Write(msg)
		if err == nil || n > len(msg) || n < 0 {
			t.Errorf("short write at %d: %d, %v", limit, n, err)
		}
	}
}

// plainResponseWriter is an http.ResponseWriter that cannot flush.
type plainResponseWriter struct{ rec *httptest.ResponseRecorder }

func (w plainResponseWriter) Header() http.Header         { return w.rec.Header() }
func (w plainResponseWriter) Write(p []byte) (int, error) { return w.rec.Write(p) }
func (w plainResponseWriter) WriteHeader(code int)        { w.rec.WriteHeader(code) }

// TestRootsFixResponseWriter: the HTTP wrapper fixes writes, flushes
// exactly when the wrapped writer can (SSE depends on it), and unwraps for
// http.ResponseController.
func TestRootsFixResponseWriter(t *testing.T) {
	rec := httptest.NewRecorder()
	w := newRootsFixResponseWriter(rec)
	f, ok := w.(http.Flusher)
	if !ok {
		t.Fatal("wrapper of a Flusher is no Flusher")
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusAccepted)
	if _, err := w.Write([]byte("event: message\ndata: {\"method\":\"roots/list\"}\n\n")); err != nil {
		t.Fatal(err)
	}
	f.Flush()
	if !rec.Flushed || rec.Code != http.StatusAccepted || rec.Header().Get("Content-Type") != "text/event-stream" {
		t.Errorf("flushed %v, code %d, header %v", rec.Flushed, rec.Code, rec.Header())
	}
	if got, want := rec.Body.String(), "event: message\ndata: {\"method\":\"roots/list\",\"params\":{}}\n\n"; got != want {
		t.Errorf("body %q, want %q", got, want)
	}
	if u, ok := w.(interface{ Unwrap() http.ResponseWriter }); !ok || u.Unwrap() != rec {
		t.Error("no Unwrap to the wrapped writer")
	}
	if err := http.NewResponseController(w).Flush(); err != nil {
		t.Errorf("ResponseController.Flush: %v", err)
	}

	plain := newRootsFixResponseWriter(plainResponseWriter{httptest.NewRecorder()})
	if _, ok := plain.(http.Flusher); ok {
		t.Error("wrapper of a writer that cannot flush claims to flush")
	}
}
