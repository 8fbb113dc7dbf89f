package embed

import (
	"context"
	"errors"
	"math"
	"slices"
	"strconv"
)

// DefaultDim is the dimension of the built-in embedder when none is given.
const DefaultDim = 512

// ErrEmptyText is returned by the built-in embedder for text without a single
// word (empty, blank or only punctuation): such text has no features and
// would give a zero vector, which chromem-go cannot use. Callers store no
// vector for it and fall back to lexical and time ranking.
var ErrEmptyText = errors.New("embed: empty text")

// Feature weights of the built-in embedder: whole stemmed words count more
// than the character trigrams that make it robust to spelling and inflection.
const (
	wordWeight    = 1.0
	trigramWeight = 0.5
)

// Builtin returns the built-in embedder: offline, deterministic, nothing
// downloaded. A text's features are its Terms (stemmed words without
// stopwords; all its words when it has only stopwords) and the character
// trigrams of those words with "#" marking the boundaries ("cat" gives "#ca",
// "cat", "at#"). Each feature is hashed (FNV-1a 64 with a finaliser) into one
// of dim buckets with a sign from another hash bit, weighted by kind (words
// 1.0, trigrams 0.5) times 1+ln(tf); the vector is L2-normalised (in the
// vanishingly rare case that signs cancel to zero, the signs are dropped).
// Text without words gives ErrEmptyText. dim <= 0 means DefaultDim; the model id
// is "builtin-hash-v1/<dim>"; any change to the features, weights or hashing
// must change the version, because stored vectors are not recomputed at open.
// The Func is safe for concurrent use.
func Builtin(dim int) Embedder {
	if dim <= 0 {
		dim = DefaultDim
	}
	return Embedder{
		ModelID: "builtin-hash-v1/" + strconv.Itoa(dim),
		Func: func(ctx context.Context, text string) ([]float32, error) {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			return hashEmbed(text, dim)
		},
	}
}

// Feature namespaces, hashed before the feature text so that a word and a
// trigram with the same letters are different features.
const (
	nsWord    = 'w'
	nsTrigram = 't'
)

// hashEmbed computes the built-in embedding of text (see Builtin).
func hashEmbed(text string, dim int) ([]float32, error) {
	words := appendWords(nil, text)
	if len(words) == 0 {
		return nil, ErrEmptyText
	}
	content := make([]string, 0, len(words))
	for _, w := range words {
		if !IsStopword(w) {
			content = append(content, w)
		}
	}
	if len(content) == 0 {
		content = words // only stopwords: better a weak vector than none
	}

	wordHashes := make([]uint64, 0, len(content))
	nTrigrams := 0
	for _, w := range content {
		wordHashes = append(wordHashes, hashFeature(nsWord, Stem(w)))
		nTrigrams += len(w) // bytes >= runes = trigrams of "#w#"
	}
	triHashes := make([]uint64, 0, nTrigrams)
	var buf []byte
	var starts []int
	for _, w := range content {
		buf = append(append(append(buf[:0], '#'), w...), '#')
		starts = starts[:0]
		for i := range string(buf) { // rune start offsets
			starts = append(starts, i)
		}
		starts = append(starts, len(buf))
		for i := 0; i+3 < len(starts); i++ {
			triHashes = append(triHashes, hashBytes(nsTrigram, buf[starts[i]:starts[i+3]]))
		}
	}

	slices.Sort(wordHashes)
	slices.Sort(triHashes)
	acc := make([]float64, dim)
	sum := accumulate(acc, wordHashes, triHashes, true)
	if sum == 0 {
		// Signed features cancelled out exactly (e.g. a word and its two
		// trigrams in one bucket with opposite signs): vanishingly rare, but
		// the text has words, so fall back to unsigned features.
		clear(acc)
		sum = accumulate(acc, wordHashes, triHashes, false)
	}
	inv := 1 / math.Sqrt(sum)
	v := make([]float32, dim)
	for i, x := range acc {
		v[i] = float32(x * inv)
	}
	return v, nil
}

// accumulate adds the word and trigram features to acc and returns the
// squared norm of the result.
func accumulate(acc []float64, wordHashes, triHashes []uint64, signed bool) float64 {
	addFeatures(acc, wordHashes, wordWeight, signed)
	addFeatures(acc, triHashes, trigramWeight, signed)
	var sum float64
	for _, x := range acc {
		sum += x * x
	}
	return sum
}

// addFeatures adds sorted hashed features to acc with weight*(1+ln tf), the
// sign from bit 63 when signed. Sorted input makes equal features adjacent
// and fixes the summation order.
func addFeatures(acc []float64, hashes []uint64, weight float64, signed bool) {
	dim := uint64(len(acc))
	for i := 0; i < len(hashes); {
		h := hashes[i]
		j := i + 1
		for j < len(hashes) && hashes[j] == h {
			j++
		}
		x := weight
		if tf := j - i; tf > 1 {
			x *= 1 + math.Log(float64(tf))
		}
		if signed && h>>63 == 1 {
			x = -x
		}
		acc[h%dim] += x
		i = j
	}
}

const (
	fnvOffset64 = 14695981039346656037
	fnvPrime64  = 1099511628211
)

// hashFeature hashes a namespace byte followed by s.
func hashFeature(ns byte, s string) uint64 {
	h := uint64(fnvOffset64)
	h = (h ^ uint64(ns)) * fnvPrime64
	for i := 0; i < len(s); i++ {
		h = (h ^ uint64(s[i])) * fnvPrime64
	}
	return mix64(h)
}

// hashBytes is hashFeature for a byte slice.
func hashBytes(ns byte, b []byte) uint64 {
	h := uint64(fnvOffset64)
	h = (h ^ uint64(ns)) * fnvPrime64
	for _, c := range b {
		h = (h ^ uint64(c)) * fnvPrime64
	}
	return mix64(h)
}

// mix64 is the MurmurHash3 64-bit finaliser. FNV-1a's low bits depend only on
// the inputs' low bits (bit 0 is a parity), so the bucket (low bits) and the
// sign (bit 63) are taken after a full avalanche.
func mix64(h uint64) uint64 {
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	h ^= h >> 33
	return h
}
