package cli

// The roots input request on the wire.
//
// On protocol 2026-07-28 mneme asks the client for its workspace roots with
// an input request (tools/scope.go askRoots, tools/sampling.go), built by
// mcp-go's server.NewInputRequestBuilder(...).Roots(id). mcp-go v1.2.1
// writes it without params (mcp/mrtr.go, InputRequest.MarshalJSON: "roots/list
// takes no parameters"), so a tools/call result carries
//
//	"inputRequests":{"mneme-roots":{"method":"roots/list"}}
//
// The official Go SDK's client (go-sdk v1.8.0, mcp/protocol.go,
// InputRequestMap.UnmarshalJSON) decodes every input request's params with
// json.Unmarshal(raw.Params, &p), which fails on absent params with
// "unexpected end of JSON input": every tool call from an SDK client that
// declares roots failed. The SDK's own server writes "params":{} for roots,
// and an empty params object is valid for every reader.
//
// mcp-go offers no place to change this: InputRequests is a map of the
// concrete mcp.InputRequest, whose MarshalJSON is the only encoding, and
// CallToolResult.MarshalJSON, handler middleware and hooks all keep the
// *mcp.CallToolResult. So the bytes are fixed where they leave the process:
// the stdio writer (serveStdio) and the HTTP response writer (httpMux)
// replace exactly `{"method":"roots/list"}` with
// `{"method":"roots/list","params":{}}`.
//
// Why this cannot touch anything else: mcp-go marshals with encoding/json,
// which writes that object exactly so (one key, no spaces). In valid JSON
// the match's first '"' directly follows '{', so it is not escaped; were the
// '{' inside a string, that '"' would end the string and be followed by
// "method", which valid JSON never has. So the '{' opens an object, and the
// match is exactly an object whose only member is "method":"roots/list".
// Text in a string (a memory, a tool argument, the request state) is written
// with its quotes escaped, {\"method\":\"roots/list\"}, and never matches.
// The legacy server-initiated roots/list request carries "jsonrpc" and "id"
// besides "method" and does not match either.
//
// The rewrite works on each Write alone: mcp-go v1.2.1 writes every message
// with one Write call (stdio: StdioServer.writeResponse's fmt.Fprintf and
// the session's request writes; streamable HTTP: json.NewEncoder(w).Encode
// and writeSSEEvent's fmt.Fprintf; SSE: fmt.Fprint of the whole event), so a
// message is never split across writes. The e2e test TestServeRootsScope
// fails should that change.
//
// Remove this file once mcp-go writes "params" for roots/list.

import (
	"bytes"
	"io"
	"net/http"
)

var (
	rootsRequestBare  = []byte(`{"method":"roots/list"}`)
	rootsRequestFixed = []byte(`{"method":"roots/list","params":{}}`)
)

// fixRootsRequests returns p with every roots input request given empty
// params; p itself when there is none.
func fixRootsRequests(p []byte) []byte {
	if !bytes.Contains(p, rootsRequestBare) {
		return p
	}
	return bytes.ReplaceAll(p, rootsRequestBare, rootsRequestFixed)
}

// writeRootsFixed writes fixRootsRequests(p) to w and reports the bytes of
// p written, as io.Writer requires (n == len(p) when err is nil).
func writeRootsFixed(w io.Writer, p []byte) (int, error) {
	q := fixRootsRequests(p)
	n, err := w.Write(q)
	if len(q) == len(p) {
		return n, err
	}
	if err != nil {
		return min(n, len(p)), err
	}
	return len(p), nil
}

// rootsFixWriter is the stdout mcp-go's stdio server writes to.
type rootsFixWriter struct{ w io.Writer }

func (f rootsFixWriter) Write(p []byte) (int, error) { return writeRootsFixed(f.w, p) }

// newRootsFixResponseWriter wraps w for mcp-go's HTTP transports. It is an
// http.Flusher exactly when w is one (mcp-go streams SSE only through a
// Flusher), and Unwrap keeps http.ResponseController (write deadlines)
// working. Only Write is changed.
func newRootsFixResponseWriter(w http.ResponseWriter) http.ResponseWriter {
	fw := rootsFixResponseWriter{w}
	if _, ok := w.(http.Flusher); ok {
		return rootsFixFlusher{fw}
	}
	return fw
}

type rootsFixResponseWriter struct{ http.ResponseWriter }

func (w rootsFixResponseWriter) Write(p []byte) (int, error) {
	return writeRootsFixed(w.ResponseWriter, p)
}

func (w rootsFixResponseWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

type rootsFixFlusher struct{ rootsFixResponseWriter }

func (w rootsFixFlusher) Flush() { w.ResponseWriter.(http.Flusher).Flush() }
