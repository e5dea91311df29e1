package bench

import (
	"encoding/json"
	"math"
	"os"
	"strings"
	"testing"
)

// scipyValues is testdata/stats/scipy_values.json, written by scipy_values.py with SciPy, NumPy
// and lifelines (the versions are in the file).
type scipyValues struct {
	SciPy     string `json:"scipy"`
	NumPy     string `json:"numpy"`
	Lifelines string `json:"lifelines"`
	MWU       []struct {
		Name   string    `json:"name"`
		X      []float64 `json:"x"`
		Y      []float64 `json:"y"`
		U      float64   `json:"u"`
		P      float64   `json:"p"`
		Method string    `json:"method"`
		A12    float64   `json:"a12"`
	} `json:"mannwhitneyu"`
	Quantile []struct {
		Name   string    `json:"name"`
		Xs     []float64 `json:"xs"`
		Q      []float64 `json:"q"`
		Values []float64 `json:"values"`
		Median float64   `json:"median"`
	} `json:"quantile"`
	KM []struct {
		Name     string    `json:"name"`
		Times    []float64 `json:"times"`
		Observed []bool    `json:"observed"`
		Steps    []struct {
			T      float64 `json:"t"`
			AtRisk int     `json:"at_risk"`
			Events int     `json:"events"`
			S      float64 `json:"s"`
			SE     float64 `json:"se"`
			Lower  float64 `json:"lower"`
			Upper  float64 `json:"upper"`
		} `json:"steps"`
		Median *float64 `json:"median"`
	} `json:"kaplan_meier"`
	Rank []struct {
		Name         string                          `json:"name"`
		HigherBetter bool                            `json:"higher_better"`
		Trials       map[string]map[string][]float64 `json:"trials"`
		Bugs         []string                        `json:"bugs"`
		Ranks        map[string][]float64            `json:"ranks"`
		MeanRank     map[string]float64              `json:"mean_rank"`
	} `json:"rank"`
}

func loadSciPy(t *testing.T) scipyValues {
	t.Helper()
	data, err := os.ReadFile("testdata/stats/scipy_values.json")
	if err != nil {
		t.Fatal(err)
	}
	var v scipyValues
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	if len(v.MWU) == 0 || len(v.Quantile) == 0 || len(v.KM) == 0 || len(v.Rank) == 0 {
		t.Fatal("scipy_values.json lacks a section: regenerate it with scipy_values.py")
	}
	return v
}

// near reports whether got is within rel of want, relatively (absolutely when want is 0).
func near(got, want, rel float64) bool {
	if got == want {
		return true
	}
	scale := math.Abs(want)
	if scale == 0 {
		scale = 1
	}
	return math.Abs(got-want) <= rel*scale
}

// TestMannWhitneyUSciPy compares U, the p-value and the method with SciPy's mannwhitneyu
// (two-sided, method 'auto'). U is a sum of half-integers and must be equal. The p-values must
// agree to 1e-9 relative: SciPy's exact p-values are exact up to rounding, and its asymptotic ones
// are the normal tail evaluated in double precision, as here.
func TestMannWhitneyUSciPy(t *testing.T) {
	v := loadSciPy(t)
	for _, c := range v.MWU {
		t.Run(c.Name, func(t *testing.T) {
			got, err := MannWhitneyU(c.X, c.Y)
			if err != nil {
				t.Fatal(err)
			}
			if got.U != c.U || got.Method != c.Method || !near(got.P, c.P, 1e-9) {
				t.Errorf("MannWhitneyU = {U %v, P %.17g, %s}, SciPy %s gives {U %v, P %.17g, %s}",
					got.U, got.P, got.Method, v.SciPy, c.U, c.P, c.Method)
			}
		})
	}
}

// TestA12PairCounts compares A12 with the share of winning pairs counted one by one in the
// script, and checks that swapping the samples gives 1 - A12.
func TestA12PairCounts(t *testing.T) {
	for _, c := range loadSciPy(t).MWU {
		t.Run(c.Name, func(t *testing.T) {
			got := A12(c.X, c.Y)
			if !near(got, c.A12, 1e-12) {
				t.Errorf("A12 = %.17g, counting pairs gives %.17g", got, c.A12)
			}
			if swapped := A12(c.Y, c.X); !near(swapped, 1-c.A12, 1e-12) {
				t.Errorf("A12 of the swapped samples = %.17g, want %.17g", swapped, 1-c.A12)
			}
		})
	}
}

func TestMannWhitneyUErrors(t *testing.T) {
	tests := []struct {
		name string
		x, y []float64
		want string
	}{
		{"empty x", nil, []float64{1}, "empty"},
		{"empty y", []float64{1}, []float64{}, "empty"},
		{"NaN", []float64{1, math.NaN()}, []float64{2}, "NaN"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := MannWhitneyU(tt.x, tt.y)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error = %v, want one naming %q", err, tt.want)
			}
			if a := A12(tt.x, tt.y); !math.IsNaN(a) {
				t.Errorf("A12 = %v, want NaN", a)
			}
		})
	}
}

func TestMagnitude(t *testing.T) {
	tests := []struct {
		a12  float64
		want string
	}{
		{0.5, "negligible"}, {0.559, "negligible"}, {0.441, "negligible"},
		{0.56, "small"}, {0.44, "small"}, {0.639, "small"},
		{0.64, "medium"}, {0.36, "medium"}, {0.709, "medium"},
		{0.71, "large"}, {0.29, "large"}, {1, "large"}, {0, "large"},
		{math.NaN(), "undefined"},
	}
	for _, tt := range tests {
		if got := Magnitude(tt.a12); got != tt.want {
			t.Errorf("Magnitude(%v) = %q, want %q", tt.a12, got, tt.want)
		}
	}
}

// TestQuantileNumPy compares Quantile and Median with numpy.quantile and numpy.median (method
// "linear") to 1e-12 relative.
func TestQuantileNumPy(t *testing.T) {
	v := loadSciPy(t)
	for _, c := range v.Quantile {
		t.Run(c.Name, func(t *testing.T) {
			orig := append([]float64(nil), c.Xs...)
			for i, q := range c.Q {
				if got := Quantile(c.Xs, q); !near(got, c.Values[i], 1e-12) {
					t.Errorf("Quantile(%v) = %.17g, NumPy %s gives %.17g", q, got, v.NumPy, c.Values[i])
				}
			}
			if got := Median(c.Xs); !near(got, c.Median, 1e-12) {
				t.Errorf("Median = %.17g, NumPy gives %.17g", got, c.Median)
			}
			for i := range orig {
				if orig[i] != c.Xs[i] {
					t.Fatalf("Quantile reordered its input: %v, was %v", c.Xs, orig)
				}
			}
		})
	}
	for _, q := range []float64{-0.1, 1.1, math.NaN()} {
		if got := Quantile([]float64{1, 2}, q); !math.IsNaN(got) {
			t.Errorf("Quantile(q=%v) = %v, want NaN", q, got)
		}
	}
	if got := Median(nil); !math.IsNaN(got) {
		t.Errorf("Median(nil) = %v, want NaN", got)
	}
}

// TestKaplanMeierLifelines compares the curve with lifelines' KaplanMeierFitter: times, at-risk
// counts and events exactly, S to 1e-12, the Greenwood standard error (computed in the script from
// lifelines' event table) and lifelines' 95% interval to 1e-9. The median is the one of exact
// arithmetic, which lifelines matches except where its float S rounds above 0.5 (see the script).
func TestKaplanMeierLifelines(t *testing.T) {
	v := loadSciPy(t)
	for _, c := range v.KM {
		t.Run(c.Name, func(t *testing.T) {
			got := KaplanMeier(c.Times, c.Observed)
			if len(got) != len(c.Steps) {
				t.Fatalf("%d steps %+v, lifelines %s gives %d %+v", len(got), got, v.Lifelines, len(c.Steps), c.Steps)
			}
			for i, w := range c.Steps {
				g := got[i]
				if g.T != w.T || g.AtRisk != w.AtRisk || g.Events != w.Events || !near(g.S, w.S, 1e-12) ||
					!near(g.SE, w.SE, 1e-9) || !near(g.Lower, w.Lower, 1e-9) || !near(g.Upper, w.Upper, 1e-9) {
					t.Errorf("step %d = %+v, lifelines gives %+v", i, g, w)
				}
			}
			m, ok := KMMedian(got)
			switch {
			case c.Median == nil && ok:
				t.Errorf("KMMedian = %v, want not reached", m)
			case c.Median != nil && (!ok || m != *c.Median):
				t.Errorf("KMMedian = %v, %v, want %v", m, ok, *c.Median)
			}
		})
	}
}

// TestKaplanMeierByHand checks a small curve whose arithmetic is written out, independent of the
// script: trials detecting at 2, 4, 4 and censored at 3 and at the budget 10.
//
//	t=2: at risk 5, 1 event:  S = 4/5 = 0.8,           Greenwood sum 1/(5*4) = 0.05
//	t=3: censored, at risk drops to 3
//	t=4: at risk 3, 2 events: S = 0.8 * 1/3 = 0.2667,  sum 0.05 + 2/(3*1) = 0.71667
//	SE at 4 = 0.26667 * sqrt(0.71667) = 0.22575; median 4 (S(2) = 0.8 > 0.5 >= S(4)).
func TestKaplanMeierByHand(t *testing.T) {
	got := KaplanMeier([]float64{10, 4, 3, 2, 4}, []bool{false, true, false, true, true})
	want := []KMStep{
		{T: 2, AtRisk: 5, Events: 1, S: 0.8, SE: 0.8 * math.Sqrt(0.05)},
		{T: 4, AtRisk: 3, Events: 2, S: 0.8 / 3, SE: 0.8 / 3 * math.Sqrt(0.05+2.0/3)},
	}
	if len(got) != len(want) {
		t.Fatalf("steps = %+v, want %+v", got, want)
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.T != w.T || g.AtRisk != w.AtRisk || g.Events != w.Events || !near(g.S, w.S, 1e-12) || !near(g.SE, w.SE, 1e-12) {
			t.Errorf("step %d = %+v, want %+v", i, g, w)
		}
		if !(g.Lower < g.S && g.S < g.Upper) {
			t.Errorf("step %d: interval [%v, %v] does not hold S %v", i, g.Lower, g.Upper, g.S)
		}
	}
	if m, ok := KMMedian(got); !ok || m != 4 {
		t.Errorf("KMMedian = %v, %v, want 4, true", m, ok)
	}
}

func TestKaplanMeierPanics(t *testing.T) {
	tests := []struct {
		name     string
		times    []float64
		observed []bool
	}{
		{"lengths differ", []float64{1, 2}, []bool{true}},
		{"NaN time", []float64{1, math.NaN()}, []bool{true, true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Error("KaplanMeier did not panic")
				}
			}()
			KaplanMeier(tt.times, tt.observed)
		})
	}
}

// TestRankTrialsSciPy compares the ranking with the script's: per bug, scipy.stats.rankdata
// (average ranks) of the styles' medians, then the mean over bugs.
func TestRankTrialsSciPy(t *testing.T) {
	for _, c := range loadSciPy(t).Rank {
		t.Run(c.Name, func(t *testing.T) {
			got := RankTrials(c.Trials, c.HigherBetter)
			if len(got) != len(c.MeanRank) {
				t.Fatalf("%d styles ranked, want %d", len(got), len(c.MeanRank))
			}
			for i, r := range got {
				if !near(r.MeanRank, c.MeanRank[r.Style], 1e-12) {
					t.Errorf("%s: mean rank %v, want %v", r.Style, r.MeanRank, c.MeanRank[r.Style])
				}
				for b, want := range c.Ranks[r.Style] {
					if r.Ranks[b] != want {
						t.Errorf("%s on %s: rank %v, want %v", r.Style, c.Bugs[b], r.Ranks[b], want)
					}
				}
				if i > 0 && (got[i-1].MeanRank > r.MeanRank || got[i-1].MeanRank == r.MeanRank && got[i-1].Style > r.Style) {
					t.Errorf("not sorted by mean rank, then name: %s (%v) before %s (%v)", got[i-1].Style, got[i-1].MeanRank, r.Style, r.MeanRank)
				}
			}
		})
	}
}

// TestRankMissing checks the hand-computed ranks of NaN scores: after every number, sharing the
// last ranks.
func TestRankMissing(t *testing.T) {
	scores := map[string][]float64{
		"a": {1, math.NaN()},
		"b": {math.NaN(), math.NaN()},
		"c": {2, math.Inf(1)},
	}
	// Bug 0 (lower is better): a 1, c 2, b last 3. Bug 1: c 1 (Inf is a number), a and b share 2.5.
	want := map[string][]float64{"a": {1, 2.5}, "b": {3, 2.5}, "c": {2, 1}}
	got := Rank(scores, false)
	order := []string{"c", "a", "b"} // mean ranks 1.5, 1.75, 2.75
	for i, r := range got {
		if r.Style != order[i] || r.Ranks[0] != want[r.Style][0] || r.Ranks[1] != want[r.Style][1] {
			t.Errorf("place %d = %+v, want %s with ranks %v", i, r, order[i], want[order[i]])
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("Rank accepted styles with different numbers of scores")
		}
	}()
	Rank(map[string][]float64{"a": {1}, "b": {1, 2}}, true)
}

// TestExactLowerTailSums checks the exact distribution against its definition for small sizes:
// over every way to choose which of the n1+n2 ordered positions belong to the first sample, the
// share with U <= k.
func TestExactLowerTailSums(t *testing.T) {
	for n1 := 1; n1 <= 5; n1++ {
		for n2 := 1; n2 <= 6; n2++ {
			n := n1 + n2
			counts := make([]int, n1*n2+1)
			total := 0
			for mask := 0; mask < 1<<n; mask++ {
				if popcount(mask) != n1 {
					continue
				}
				u, below := 0, 0 // position p is in sample 1 when its bit is set
				for p := 0; p < n; p++ {
					if mask&(1<<p) != 0 {
						u += below
					} else {
						below++
					}
				}
				counts[u]++
				total++
			}
			cum := 0
			for k := 0; k <= n1*n2; k++ {
				cum += counts[k]
				if got, want := exactLowerTail(n1, n2, k), float64(cum)/float64(total); !near(got, want, 1e-14) {
					t.Errorf("exactLowerTail(%d, %d, %d) = %v, enumeration gives %v", n1, n2, k, got, want)
				}
			}
		}
	}
}

func popcount(x int) int {
	c := 0
	for ; x != 0; x &= x - 1 {
		c++
	}
	return c
}
