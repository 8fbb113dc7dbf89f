//go:build !race

package eval

// raceEnabled reports whether the tests run under the race detector.
const raceEnabled = false
