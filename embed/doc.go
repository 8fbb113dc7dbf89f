// Package embed holds the text analysis shared by the whole product (Words,
// Stem, IsStopword, Terms, LexicalTerms), the built-in offline embedder (Builtin) and the
// remote embedding providers (Ollama, OpenAICompat), all exposed as an
// Embedder: a model id plus a chromem.EmbeddingFunc that is never nil.
//
// The package imports nothing from this module. Every function and every
// Embedder.Func is safe for concurrent use.
package embed
