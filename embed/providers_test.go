package embed

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// fakeAPI is an embeddings endpoint that records requests and answers with
// the queued vectors (the last one repeats), or with status when set.
type fakeAPI struct {
	mu      sync.Mutex
	path    string              // expected request path
	respond func([]float32) any // wraps a vector in the provider's response shape
	vectors [][]float32
	status  int
	reqs    []recorded
}

type recorded struct {
	path, auth, contentType string
	body                    map[string]string
}

func (f *fakeAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	rec := recorded{path: r.URL.Path, auth: r.Header.Get("Authorization"), contentType: r.Header.Get("Content-Type")}
	if err := json.NewDecoder(r.Body).Decode(&rec.body); err != nil || r.Method != http.MethodPost || r.URL.Path != f.path {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	f.reqs = append(f.reqs, rec)
	if f.status != 0 {
		http.Error(w, "boom", f.status)
		return
	}
	v := f.vectors[0]
	if len(f.vectors) > 1 {
		f.vectors = f.vectors[1:]
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(f.respond(v))
}

func (f *fakeAPI) last(t *testing.T) recorded {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.reqs) == 0 {
		t.Fatal("no request reached the fake")
	}
	return f.reqs[len(f.reqs)-1]
}

func ollamaFake(t *testing.T, vectors ...[]float32) (*fakeAPI, string) {
	f := &fakeAPI{path: "/api/embeddings", vectors: vectors, respond: func(v []float32) any {
		return map[string]any{"embedding": v}
	}}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	return f, srv.URL + "/api"
}

func openAIFake(t *testing.T, vectors ...[]float32) (*fakeAPI, string) {
	f := &fakeAPI{path: "/v1/embeddings", vectors: vectors, respond: func(v []float32) any {
		return map[string]any{"object": "list", "data": []map[string]any{{"object": "embedding", "index": 0, "embedding": v}}}
	}}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	return f, srv.URL + "/v1"
}

func wantErr(t *testing.T, err error, prefix string) {
	t.Helper()
	if err == nil {
		t.Fatalf("err = nil, want an error starting %q", prefix)
	}
	if !strings.HasPrefix(err.Error(), prefix) {
		t.Fatalf("err = %q, want prefix %q", err, prefix)
	}
}

func TestOllama(t *testing.T) {
	f, base := ollamaFake(t, []float32{3, 4, 0})
	e := Ollama("nomic-embed-text", base+"/") // trailing slash tolerated
	if e.ModelID != "ollama:nomic-embed-text" || e.Func == nil {
		t.Fatalf("Ollama() = %q, nil func %v", e.ModelID, e.Func == nil)
	}
	v, err := e.Func(context.Background(), "I adopted a puppy")
	if err != nil {
		t.Fatal(err)
	}
	if want := []float32{0.6, 0.8, 0}; !approxEqual(v, want) {
		t.Errorf("vector = %v, want %v (normalised)", v, want)
	}
	r := f.last(t)
	if r.body["model"] != "nomic-embed-text" || r.body["prompt"] != "I adopted a puppy" {
		t.Errorf("request body = %v", r.body)
	}
	if r.contentType != "application/json" {
		t.Errorf("Content-Type = %q", r.contentType)
	}
}

func TestOpenAICompat(t *testing.T) {
	f, base := openAIFake(t, []float32{0.6, 0.8})
	e := OpenAICompat(base, "sk-test", "text-embedding-3-small")
	if e.ModelID != "openai:text-embedding-3-small" || e.Func == nil {
		t.Fatalf("OpenAICompat() = %q, nil func %v", e.ModelID, e.Func == nil)
	}
	v, err := e.Func(context.Background(), "hello")
	if err != nil {
		t.Fatal(err)
	}
	if want := []float32{0.6, 0.8}; !approxEqual(v, want) {
		t.Errorf("vector = %v, want %v", v, want)
	}
	r := f.last(t)
	if r.auth != "Bearer sk-test" {
		t.Errorf("Authorization = %q, want bearer key", r.auth)
	}
	if r.body["model"] != "text-embedding-3-small" || r.body["input"] != "hello" {
		t.Errorf("request body = %v", r.body)
	}
}

func TestProviderDefaults(t *testing.T) {
	if got := Ollama("", "").ModelID; got != "ollama:"+DefaultOllamaModel {
		t.Errorf("Ollama default model id = %q", got)
	}
	if got := OpenAICompat("", "k", "").ModelID; got != "openai:"+DefaultOpenAIModel {
		t.Errorf("OpenAICompat default model id = %q", got)
	}
	// chromem-go v0.7.0 posts to <base>/embeddings for both providers.
	if DefaultOllamaURL != "http://localhost:11434/api" || DefaultOpenAIURL != "https://api.openai.com/v1" {
		t.Errorf("default URLs %q, %q", DefaultOllamaURL, DefaultOpenAIURL)
	}
}

func TestProviderErrors(t *testing.T) {
	ctx := context.Background()
	type mk func(t *testing.T, vectors ...[]float32) (*fakeAPI, Embedder)
	providers := map[string]mk{
		"ollama": func(t *testing.T, vectors ...[]float32) (*fakeAPI, Embedder) {
			f, base := ollamaFake(t, vectors...)
			return f, Ollama("m", base)
		},
		"openai": func(t *testing.T, vectors ...[]float32) (*fakeAPI, Embedder) {
			f, base := openAIFake(t, vectors...)
			return f, OpenAICompat(base, "k", "m")
		},
	}
	for name, newFake := range providers {
		prefix := "embed: " + name + ": "
		t.Run(name+"/status", func(t *testing.T) {
			f, e := newFake(t, []float32{1})
			f.status = http.StatusInternalServerError
			_, err := e.Func(ctx, "x")
			wantErr(t, err, prefix)
			if !strings.Contains(err.Error(), "500") {
				t.Errorf("err = %q, want the status", err)
			}
		})
		t.Run(name+"/empty vector", func(t *testing.T) {
			_, e := newFake(t, []float32{})
			_, err := e.Func(ctx, "x")
			wantErr(t, err, prefix)
		})
		t.Run(name+"/zero vector", func(t *testing.T) {
			_, e := newFake(t, []float32{0, 0, 0})
			_, err := e.Func(ctx, "x")
			wantErr(t, err, prefix)
		})
		t.Run(name+"/length changes", func(t *testing.T) {
			_, e := newFake(t, []float32{1, 0, 0}, []float32{1, 0})
			if _, err := e.Func(ctx, "x"); err != nil {
				t.Fatal(err)
			}
			_, err := e.Func(ctx, "y")
			wantErr(t, err, prefix)
			if !strings.Contains(err.Error(), "length 2, want 3") {
				t.Errorf("err = %q, want the lengths", err)
			}
		})
		t.Run(name+"/canceled", func(t *testing.T) {
			_, e := newFake(t, []float32{1})
			cctx, cancel := context.WithCancel(ctx)
			cancel()
			_, err := e.Func(cctx, "x")
			wantErr(t, err, prefix)
			if !errors.Is(err, context.Canceled) {
				t.Errorf("err = %v, want it to wrap context.Canceled", err)
			}
		})
	}
	t.Run("unreachable", func(t *testing.T) {
		srv := httptest.NewServer(http.NotFoundHandler())
		base := srv.URL
		srv.Close()
		_, err := Ollama("m", base+"/api").Func(ctx, "x")
		wantErr(t, err, "embed: ollama: ")
	})
}

func TestNew(t *testing.T) {
	tests := []struct {
		provider, model, baseURL, apiKey string
		dim                              int
		wantID, wantErr                  string
	}{
		{provider: "builtin", wantID: "builtin-hash-v1/512"},
		{provider: " Builtin ", dim: 256, wantID: "builtin-hash-v1/256"},
		{provider: "ollama", wantID: "ollama:nomic-embed-text"},
		{provider: "ollama", model: "mxbai-embed-large", dim: 512, wantID: "ollama:mxbai-embed-large"},
		{provider: "openai", apiKey: "k", wantID: "openai:text-embedding-3-small"},
		{provider: "openai", baseURL: "http://localhost:1234/v1", model: "local", wantID: "openai:local"},
		{provider: "openai", wantErr: "embed: openai: an api key is required for https://api.openai.com/v1"},
		{provider: "openai", baseURL: "https://api.openai.com/v1/", wantErr: "embed: openai: an api key is required"},
		{provider: "", wantErr: `embed: unknown provider "" (accepted: builtin, ollama, openai)`},
		{provider: "cohere", wantErr: `embed: unknown provider "cohere" (accepted: builtin, ollama, openai)`},
	}
	for _, tt := range tests {
		e, err := New(tt.provider, tt.model, tt.baseURL, tt.apiKey, tt.dim)
		if tt.wantErr != "" {
			if err == nil || !strings.HasPrefix(err.Error(), tt.wantErr) {
				t.Errorf("New(%q, ...) err = %v, want %q", tt.provider, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("New(%q, ...) err = %v", tt.provider, err)
			continue
		}
		if e.ModelID != tt.wantID || e.Func == nil {
			t.Errorf("New(%q, ...) = %q (nil func %v), want %q", tt.provider, e.ModelID, e.Func == nil, tt.wantID)
		}
	}
}

func approxEqual(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Abs(float64(a[i]-b[i])) > 1e-6 {
			return false
		}
	}
	return true
}
