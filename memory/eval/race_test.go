//go:build race

package eval

// raceEnabled reports whether the tests run under the race detector, which
// makes SQLite writes about ten times slower.
const raceEnabled = true
