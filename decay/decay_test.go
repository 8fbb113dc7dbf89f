package decay

import (
	"math"
	mathrand "math/rand"
	"math/rand/v2"
	"testing"
	"testing/quick"
	"time"
)

// naive is equation 8 of the paper written directly (with expm1 so that it is
// accurate for small x); it is the reference the stable code must agree with
// wherever p is comfortably representable.
func naive(r, t, g float64) float64 {
	return -math.Expm1(-r*math.Exp(-t/g)) / -math.Expm1(-1)
}

// quickConfig gives testing/quick a seeded source of inputs in the model's
// domain (and somewhat outside it, to exercise the clamps).
func quickConfig() *quick.Config {
	// testing/quick still takes a math/rand (v1) source.
	return &quick.Config{MaxCount: 5000, Rand: mathrand.New(mathrand.NewSource(1))}
}

// arg draws an argument covering ordinary values, extremes and out-of-range
// values that the clamps must handle.
func arg(rng *rand.Rand) float64 {
	switch rng.IntN(6) {
	case 0:
		return rng.Float64() // [0,1)
	case 1:
		return rng.Float64() * 100
	case 2:
		return math.Pow(10, rng.Float64()*12-6) // 1e-6 .. 1e6
	case 3:
		return -rng.Float64() * 10
	case 4:
		return math.Pow(10, rng.Float64()*600-300) // 1e-300 .. 1e300
	default:
		return float64(rng.IntN(5))
	}
}

func TestProbabilityTable(t *testing.T) {
	tests := []struct {
		name    string
		r, t, g float64
		want    float64
	}{
		{"fresh and fully relevant is certain", 1, 0, 1, 1},
		{"irrelevant is never recalled", 0, 0, 1, 0},
		{"irrelevant stays zero later", 0, 5, 3, 0},
		{"r above 1 clamps to 1", 2, 0, 1, 1},
		{"negative r clamps to 0", -1, 0, 1, 0},
		{"negative t counts as 0", 1, -5, 1, 1},
		{"half relevant fresh", 0.5, 0, 1, naive(0.5, 0, 1)},
		{"one unit later", 1, 1, 1, naive(1, 1, 1)},
		{"stronger memory later", 0.8, 3, 2.5, naive(0.8, 3, 2.5)},
		{"g <= 0 is a tiny strength", 1, 1, 0, 0},
		{"g <= 0 at t 0", 1, 0, -3, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Probability(tt.r, tt.t, tt.g)
			if math.Abs(got-tt.want) > 1e-12 {
				t.Errorf("Probability(%v, %v, %v) = %v, want %v", tt.r, tt.t, tt.g, got, tt.want)
			}
		})
	}
	// Exactly 1, not merely close: the normalisation of equation 8.
	if p := Probability(1, 0, InitialStrength); p != 1 {
		t.Errorf("Probability(1, 0, 1) = %v, want exactly 1", p)
	}
	if lp := LogProbability(1, 0, InitialStrength); lp != 0 {
		t.Errorf("LogProbability(1, 0, 1) = %v, want exactly 0", lp)
	}
	if lp := LogProbability(0, 1, 1); !math.IsInf(lp, -1) {
		t.Errorf("LogProbability(0, 1, 1) = %v, want -Inf", lp)
	}
}

func TestProbabilityInUnitInterval(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 100000 {
		r, el, g := arg(rng), arg(rng), arg(rng)
		p := Probability(r, el, g)
		if !(p >= 0 && p <= 1) {
			t.Fatalf("Probability(%v, %v, %v) = %v, outside [0,1]", r, el, g, p)
		}
	}
}

func TestProbabilityNeverRisesWithTime(t *testing.T) {
	f := func(r, t1, t2, g float64) bool {
		r, g = math.Abs(math.Mod(r, 1)), math.Abs(g)+0.01
		t1, t2 = math.Abs(t1), math.Abs(t2)
		if t1 > t2 {
			t1, t2 = t2, t1
		}
		return Probability(r, t2, g) <= Probability(r, t1, g) &&
			LogProbability(r, t2, g) <= LogProbability(r, t1, g)
	}
	if err := quick.Check(f, quickConfig()); err != nil {
		t.Error(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 100000 {
		r, g := arg(rng), arg(rng)
		t1, t2 := arg(rng), arg(rng)
		if t1 > t2 {
			t1, t2 = t2, t1
		}
		if p1, p2 := Probability(r, t1, g), Probability(r, t2, g); p2 > p1 {
			t.Fatalf("p rose with time: r=%v g=%v p(%v)=%v < p(%v)=%v", r, g, t1, p1, t2, p2)
		}
		if l1, l2 := LogProbability(r, t1, g), LogProbability(r, t2, g); l2 > l1 {
			t.Fatalf("log p rose with time: r=%v g=%v lp(%v)=%v < lp(%v)=%v", r, g, t1, l1, t2, l2)
		}
	}
}

func TestProbabilityRisesWithRelevanceAndStrength(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 100000 {
		el := arg(rng)
		r1, r2 := arg(rng), arg(rng)
		if r1 > r2 {
			r1, r2 = r2, r1
		}
		g1, g2 := arg(rng), arg(rng)
		if g1 > g2 {
			g1, g2 = g2, g1
		}
		if p1, p2 := Probability(r1, el, g1), Probability(r2, el, g1); p2 < p1 {
			t.Fatalf("p fell with relevance: t=%v g=%v p(r=%v)=%v > p(r=%v)=%v", el, g1, r1, p1, r2, p2)
		}
		if p1, p2 := Probability(r1, el, g1), Probability(r1, el, g2); p2 < p1 {
			t.Fatalf("p fell with strength: r=%v t=%v p(g=%v)=%v > p(g=%v)=%v", r1, el, g1, p1, g2, p2)
		}
		if l1, l2 := LogProbability(r1, el, g1), LogProbability(r2, el, g1); l2 < l1 {
			t.Fatalf("log p fell with relevance: t=%v g=%v lp(r=%v)=%v > lp(r=%v)=%v", el, g1, r1, l1, r2, l2)
		}
		if l1, l2 := LogProbability(r1, el, g1), LogProbability(r1, el, g2); l2 < l1 {
			t.Fatalf("log p fell with strength: r=%v t=%v lp(g=%v)=%v > lp(g=%v)=%v", r1, el, g1, l1, g2, l2)
		}
	}
}

func TestLogProbabilityOldMemoriesKeepTheirOrder(t *testing.T) {
	for _, r := range []float64{1, 0.5, 1e-3, 1e-300} {
		for _, g := range []float64{InitialStrength, 3.7, 1e-6} {
			prev := math.Inf(1)
			// From fresh up to t/g = 1e6 and beyond, where p itself is 0.
			for _, q := range []float64{0, 1e-3, 1, 10, 30, 31, 100, 745, 1e3, 1e5, 1e6, 1e6 + 1, 1e6 + 2, 1e7, 1e12} {
				el := q * g
				lp := LogProbability(r, el, g)
				if math.IsInf(lp, 0) || math.IsNaN(lp) {
					t.Fatalf("LogProbability(%v, %v, %v) = %v, want finite", r, el, g, lp)
				}
				if !(lp < prev) {
					t.Fatalf("LogProbability not strictly decreasing at r=%v g=%v t/g=%v: %v after %v", r, g, q, lp, prev)
				}
				prev = lp
			}
		}
	}
	// The boundary between the exact and the series branch is seamless.
	for _, r := range []float64{1, 0.3} {
		lo, hi := -smallLogX-math.Log(r)-1e-9, -smallLogX-math.Log(r)+1e-9
		a, b := LogProbability(r, lo, 1), LogProbability(r, hi, 1)
		if !(b <= a) || a-b > 1e-8 {
			t.Errorf("branch seam at r=%v: lp(%v)=%v, lp(%v)=%v", r, lo, a, hi, b)
		}
	}
	// Finite even when t/g overflows float64.
	if lp := LogProbability(0.5, 1e300, 1e-300); math.IsInf(lp, 0) || math.IsNaN(lp) {
		t.Errorf("LogProbability(0.5, 1e300, 1e-300) = %v, want finite", lp)
	}
}

func TestLogProbabilityMatchesPaper(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for range 100000 {
		r, el, g := rng.Float64(), rng.Float64()*50, rng.Float64()*10+0.05
		want := naive(r, el, g)
		if want < 1e-300 {
			continue
		}
		if got := Probability(r, el, g); math.Abs(got-want) > 1e-12*want {
			t.Fatalf("Probability(%v, %v, %v) = %v, paper gives %v", r, el, g, got, want)
		}
		if got := LogProbability(r, el, g); math.Abs(got-math.Log(want)) > 1e-11*math.Max(1, math.Abs(got)) {
			t.Fatalf("LogProbability(%v, %v, %v) = %v, paper gives log %v", r, el, g, got, math.Log(want))
		}
	}
}

func TestConsolidate(t *testing.T) {
	tests := []struct {
		name string
		g, t float64
		want float64
	}{
		{"no time no gain", 1, 0, 1},
		{"negative t clamped", 2, -3, 2},
		{"NaN t no gain", 2, math.NaN(), 2},
		{"one unit", 1, 1, 1 + (1-math.Exp(-1))/(1+math.Exp(-1))},
		{"long gap gains almost 1", 1, 50, 2},
		{"infinite gap gains 1", 1, math.Inf(1), 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Consolidate(tt.g, tt.t); math.Abs(got-tt.want) > 1e-12 {
				t.Errorf("Consolidate(%v, %v) = %v, want %v", tt.g, tt.t, got, tt.want)
			}
		})
	}
}

func TestConsolidateNeverLowersStrength(t *testing.T) {
	f := func(g, el float64) bool {
		got := Consolidate(g, el)
		return got >= g && got-g < 1+1e-9*math.Abs(g)
	}
	if err := quick.Check(f, quickConfig()); err != nil {
		t.Error(err)
	}
	rng := rand.New(rand.NewPCG(9, 10))
	for range 100000 {
		g, t1, t2 := arg(rng)+1, arg(rng), arg(rng)
		if t1 > t2 {
			t1, t2 = t2, t1
		}
		if a, b := Consolidate(g, t1), Consolidate(g, t2); a < g || b < a {
			t.Fatalf("Consolidate(%v, %v)=%v, Consolidate(%v, %v)=%v", g, t1, a, g, t2, b)
		}
	}
}

func TestSpacedRecallsConsolidateMore(t *testing.T) {
	day := 24 * time.Hour
	start := time.Date(2024, 3, 1, 9, 0, 0, 0, time.UTC)
	week := Elapsed(start, start.Add(7*day), day)
	minute := Elapsed(start, start.Add(time.Minute), day)
	if week != 7 {
		t.Fatalf("Elapsed over a week in days = %v, want 7", week)
	}
	spaced := Consolidate(Consolidate(InitialStrength, week), week)
	massed := Consolidate(Consolidate(InitialStrength, minute), minute)
	if !(spaced > massed) {
		t.Errorf("two recalls a week apart g=%v, a minute apart g=%v; want spaced > massed", spaced, massed)
	}
	// And the spaced memory is then more likely to be recalled a month on.
	if ps, pm := Probability(0.7, 30, spaced), Probability(0.7, 30, massed); !(ps > pm) {
		t.Errorf("p a month later: spaced %v, massed %v; want spaced > massed", ps, pm)
	}
}

func TestElapsed(t *testing.T) {
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name     string
		from, to time.Time
		unit     time.Duration
		want     float64
	}{
		{"same instant", base, base, time.Hour, 0},
		{"ninety minutes in hours", base, base.Add(90 * time.Minute), time.Hour, 1.5},
		{"thirty days in 720h", base, base.Add(720 * time.Hour), 720 * time.Hour, 1},
		{"future event counts as 0", base.Add(time.Hour), base, time.Hour, 0},
		{"zero unit is nanoseconds", base, base.Add(time.Microsecond), 0, 1000},
		{"across time zones", base.In(time.FixedZone("x", 5*3600)), base.Add(time.Hour), time.Hour, 1},
		{"longer than a Duration", base.AddDate(-400, 0, 0), base, 24 * time.Hour, float64(base.Sub(base.AddDate(-200, 0, 0))/(24*time.Hour)) + float64(base.AddDate(-200, 0, 0).Sub(base.AddDate(-400, 0, 0))/(24*time.Hour))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Elapsed(tt.from, tt.to, tt.unit); math.Abs(got-tt.want) > 1e-9*math.Max(1, tt.want) {
				t.Errorf("Elapsed = %v, want %v", got, tt.want)
			}
		})
	}
}

func FuzzLogProbability(f *testing.F) {
	f.Add(1.0, 0.0, 1.0)
	f.Add(0.5, 3.0, 2.0)
	f.Add(0.9, 1e6, 1.0)
	f.Add(1e-300, 1e300, 1e-300)
	f.Add(-1.0, -1.0, -1.0)
	f.Fuzz(func(t *testing.T, r, el, g float64) {
		lp := LogProbability(r, el, g)
		p := Probability(r, el, g)
		finite := !math.IsNaN(r) && !math.IsInf(r, 0) && !math.IsNaN(el) && !math.IsInf(el, 0) &&
			!math.IsNaN(g) && !math.IsInf(g, 0)
		if !finite {
			return
		}
		if math.IsNaN(lp) || math.IsNaN(p) {
			t.Fatalf("LogProbability(%v, %v, %v) = %v, Probability = %v: NaN for finite inputs", r, el, g, lp, p)
		}
		if lp > 0 || math.IsInf(lp, 1) {
			t.Fatalf("LogProbability(%v, %v, %v) = %v > 0", r, el, g, lp)
		}
		if r > 0 && math.IsInf(lp, -1) {
			t.Fatalf("LogProbability(%v, %v, %v) = -Inf for r > 0", r, el, g)
		}
		if p < 0 || p > 1 {
			t.Fatalf("Probability(%v, %v, %v) = %v outside [0,1]", r, el, g, p)
		}
		if p > 1e-300 && math.Abs(math.Log(p)-lp) > 1e-12*math.Max(1, math.Abs(lp)) {
			t.Fatalf("log Probability(%v, %v, %v) = %v, LogProbability = %v", r, el, g, math.Log(p), lp)
		}
	})
}
