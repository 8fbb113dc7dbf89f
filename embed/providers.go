package embed

import (
	"context"
	"fmt"
	"math"
	"strings"
	"sync/atomic"

	chromem "github.com/philippgille/chromem-go"
)

// Embedder is an embedding function with the id of the model behind it. The
// id is recorded with every vector, so vectors of different models are never
// mixed. An Embedder is a value: copy it freely; its Func is safe for
// concurrent use.
type Embedder struct {
	// ModelID names the model, e.g. "builtin-hash-v1/512",
	// "ollama:nomic-embed-text", "openai:text-embedding-3-small".
	ModelID string
	// Func embeds one text into a unit vector. It is never nil in an
	// Embedder made by this package (chromem-go takes nil to mean OpenAI).
	Func chromem.EmbeddingFunc
}

// Defaults of the remote providers.
const (
	// DefaultOllamaURL is Ollama's API base; chromem-go posts to <base>/embeddings.
	DefaultOllamaURL = "http://localhost:11434/api"
	// DefaultOllamaModel is the Ollama model used when none is given.
	DefaultOllamaModel = "nomic-embed-text"
	// DefaultOpenAIURL is OpenAI's API base; chromem-go posts to <base>/embeddings.
	DefaultOpenAIURL = "https://api.openai.com/v1"
	// DefaultOpenAIModel is the OpenAI model used when none is given.
	DefaultOpenAIModel = "text-embedding-3-small"
)

// Ollama returns an embedder calling Ollama's embeddings API
// (POST <baseURL>/embeddings with {"model", "prompt"}). model "" means
// DefaultOllamaModel and baseURL "" means DefaultOllamaURL; the base includes
// the "/api" part. Errors read "embed: ollama: ..."; a response whose vector
// is empty, zero, not finite or of another length than the first response's
// is an error. Vectors are returned unit-normalised. The model id is
// "ollama:<model>".
func Ollama(model, baseURL string) Embedder {
	if model == "" {
		model = DefaultOllamaModel
	}
	if baseURL == "" {
		baseURL = DefaultOllamaURL
	}
	f := chromem.NewEmbeddingFuncOllama(model, strings.TrimRight(baseURL, "/"))
	return Embedder{ModelID: "ollama:" + model, Func: checked("ollama", f)}
}

// OpenAICompat returns an embedder calling an OpenAI-compatible embeddings
// API (POST <baseURL>/embeddings with {"input", "model"} and
// "Authorization: Bearer <apiKey>"). baseURL "" means DefaultOpenAIURL; the
// base includes the version part ("/v1"). model "" means DefaultOpenAIModel.
// Errors read "embed: openai: ..."; a response whose vector is empty, zero,
// not finite or of another length than the first response's is an error.
// Vectors are returned unit-normalised. The model id is "openai:<model>".
func OpenAICompat(baseURL, apiKey, model string) Embedder {
	if model == "" {
		model = DefaultOpenAIModel
	}
	if baseURL == "" {
		baseURL = DefaultOpenAIURL
	}
	f := chromem.NewEmbeddingFuncOpenAICompat(strings.TrimRight(baseURL, "/"), apiKey, model, nil)
	return Embedder{ModelID: "openai:" + model, Func: checked("openai", f)}
}

// New returns the embedder of a provider: "builtin" (dim; model, baseURL and
// apiKey unused), "ollama" (model, baseURL) or "openai" (baseURL, apiKey,
// model; the key is required for OpenAI's own API, optional for other
// compatible servers). Remote providers fix their dimension by the first
// response, so dim is ignored for them. Provider names are case-insensitive.
func New(provider, model, baseURL, apiKey string, dim int) (Embedder, error) {
	switch strings.ToLower(strings.TrimSpace(provider)) {
	case "builtin":
		return Builtin(dim), nil
	case "ollama":
		return Ollama(model, baseURL), nil
	case "openai":
		if apiKey == "" && (baseURL == "" || strings.TrimRight(baseURL, "/") == DefaultOpenAIURL) {
			return Embedder{}, fmt.Errorf("embed: openai: an api key is required for %s", DefaultOpenAIURL)
		}
		return OpenAICompat(baseURL, apiKey, model), nil
	default:
		return Embedder{}, fmt.Errorf("embed: unknown provider %q (accepted: builtin, ollama, openai)", provider)
	}
}

// checked wraps a remote embedding function: errors get the "embed: <name>:"
// prefix, and vectors are validated (non-empty, finite, non-zero, the same
// length as the first accepted one) and unit-normalised.
func checked(name string, f chromem.EmbeddingFunc) chromem.EmbeddingFunc {
	var dim atomic.Int64 // 0 until the first valid response
	return func(ctx context.Context, text string) ([]float32, error) {
		v, err := f(ctx, text)
		if err != nil {
			return nil, fmt.Errorf("embed: %s: %w", name, err)
		}
		if len(v) == 0 {
			return nil, fmt.Errorf("embed: %s: empty vector in the response", name)
		}
		var sum float64
		for _, x := range v {
			sum += float64(x) * float64(x)
		}
		if sum == 0 || math.IsNaN(sum) || math.IsInf(sum, 0) {
			return nil, fmt.Errorf("embed: %s: zero or non-finite vector in the response", name)
		}
		if !dim.CompareAndSwap(0, int64(len(v))) {
			if want := dim.Load(); int64(len(v)) != want {
				return nil, fmt.Errorf("embed: %s: vector of length %d, want %d like the earlier ones", name, len(v), want)
			}
		}
		if math.Abs(sum-1) > 1e-5 {
			inv := 1 / math.Sqrt(sum)
			for i := range v {
				v[i] = float32(float64(v[i]) * inv)
			}
		}
		return v, nil
	}
}
