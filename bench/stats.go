package bench

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"slices"
	"sort"
)

// This file holds the statistics of a benchmark report, written with the standard library only:
// the two-sided Mann-Whitney U test and the Vargha-Delaney Â12 effect size for comparing two styles
// on one bug, the Kaplan-Meier estimate of time to detection censored at the budget, quantiles
// for median and IQR, and the average-rank ordering of styles across bugs (FuzzBench).

// MWU is the result of a two-sided Mann-Whitney U test.
type MWU struct {
	U      float64 // U of the first sample: R1 - n1(n1+1)/2 with average ranks for ties
	P      float64 // two-sided p-value
	Method string  // "exact" or "asymptotic"
}

// MannWhitneyU tests whether x and y come from the same distribution against the two-sided
// alternative, as SciPy's mannwhitneyu(x, y, alternative='two-sided', method='auto') does. SciPy
// 1.17's 'auto' rule: the p-value is exact when at least one sample has at most 8 values and no
// two values of x and y together are equal (twice the probability, under the null hypothesis, of
// a U at least as far from n1*n2/2 as the one observed, clipped to 1); otherwise it is the normal
// approximation with the tie correction of the variance and a continuity correction of 0.5. Data
// that are all equal give p = 1. It fails when a sample is empty or holds a NaN.
func MannWhitneyU(x, y []float64) (MWU, error) {
	u1, tieTerm, err := uStatistic(x, y)
	if err != nil {
		return MWU{}, err
	}
	n1, n2 := float64(len(x)), float64(len(y))
	u2 := n1*n2 - u1
	if (len(x) <= 8 || len(y) <= 8) && tieTerm == 0 {
		// Without ties U is an integer; the upper tail at max(U1, U2) equals, by symmetry, the
		// lower tail at min(U1, U2).
		p := 2 * exactLowerTail(len(x), len(y), int(math.Min(u1, u2)))
		return MWU{U: u1, P: math.Min(p, 1), Method: "exact"}, nil
	}
	n := n1 + n2
	sd := math.Sqrt(n1 * n2 / 12 * ((n + 1) - tieTerm/(n*(n-1))))
	z := (math.Max(u1, u2) - n1*n2/2 - 0.5) / sd
	p := 1.0
	if sd > 0 {
		// Two-sided: twice the upper tail of the standard normal, 2 * erfc(z/√2)/2.
		p = math.Min(math.Erfc(z/math.Sqrt2), 1)
	}
	return MWU{U: u1, P: p, Method: "asymptotic"}, nil
}

// uStatistic returns U of x, R1 - n1(n1+1)/2 where R1 is the sum of x's average ranks among the
// values of x and y, and the tie term of those ranks. It fails when a sample is empty or holds a
// NaN.
func uStatistic(x, y []float64) (u1, tieTerm float64, err error) {
	if len(x) == 0 || len(y) == 0 {
		return 0, 0, fmt.Errorf("mann-whitney u: a sample is empty (%d and %d values): give each sample at least one value", len(x), len(y))
	}
	if slices.ContainsFunc(x, math.IsNaN) || slices.ContainsFunc(y, math.IsNaN) {
		return 0, 0, errors.New("mann-whitney u: a sample holds NaN: drop or replace the NaN values")
	}
	ranks, tieTerm := averageRanks(slices.Concat(x, y))
	r1 := 0.0
	for _, r := range ranks[:len(x)] {
		r1 += r
	}
	n1 := float64(len(x))
	return r1 - n1*(n1+1)/2, tieTerm, nil
}

// averageRanks returns the ranks (1-based) of xs, where equal values share the average of the
// ranks they span, and the tie term Σ(t³ - t) over the groups of t equal values.
func averageRanks(xs []float64) (ranks []float64, tieTerm float64) {
	order := make([]int, len(xs))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return xs[order[a]] < xs[order[b]] })
	ranks = make([]float64, len(xs))
	for i := 0; i < len(order); {
		j := i + 1
		for j < len(order) && xs[order[j]] == xs[order[i]] {
			j++
		}
		avg := float64(i+1+j) / 2 // mean of ranks i+1 .. j
		for _, k := range order[i:j] {
			ranks[k] = avg
		}
		t := float64(j - i)
		tieTerm += t*t*t - t
		i = j
	}
	return ranks, tieTerm
}

// exactLowerTail returns P(U <= k) for the U statistic of samples of sizes n1 and n2 without ties
// under the null hypothesis, where every ordering of the n1+n2 values is equally likely.
//
// With m = min(n1, n2) and n = max(n1, n2), U counts the pairs where the value of the smaller
// sample is above the value of the larger one, so an ordering is a nondecreasing sequence of m
// numbers in [0, n] (for each value of the smaller sample, how many values of the other are below
// it) and U is its sum. N(i, j, s), the number of such sequences of i numbers in [0, j] with sum s,
// satisfies N(i, j, s) = N(i-1, j, s) + N(i, j-1, s-i): either the smallest number is 0, or all
// are at least 1 and lowering each by one leaves a sequence in [0, j-1] with sum s-i. Only sums up
// to k are needed, so the work is below n*m*(k+1) additions (about a second for 8 values against
// 5000); the counts are added as floats (exact up to 2^53, then with a relative error near the
// float epsilon, since every term is positive) and divided by C(n1+n2, m).
func exactLowerTail(n1, n2, k int) float64 {
	m, n := min(n1, n2), max(n1, n2)
	// row[i][s] = N(i, j, s) for the current j; row[0] is N(0, j, s) = [s == 0] for every j.
	row := make([][]float64, m+1)
	for i := range row {
		row[i] = make([]float64, k+1)
		row[i][0] = 1
	}
	for j := 1; j <= n; j++ {
		for i := 1; i <= m; i++ {
			cur, prev := row[i], row[i-1]
			for s := min(k, i*j); s >= 0; s-- { // N(i, j, s) is 0 for s > i*j
				v := prev[s] // N(i-1, j, s), already updated for j
				if s >= i {
					v += cur[s-i] // N(i, j-1, s-i), not yet updated for j
				}
				cur[s] = v
			}
		}
	}
	count := 0.0
	for _, c := range row[m] {
		count += c
	}
	total := 1.0 // C(n+m, m)
	for i := 1; i <= m; i++ {
		total = total * float64(n+i) / float64(i)
	}
	return count / total
}

// A12 returns the Vargha-Delaney effect size Â12 = P(X > Y) + 0.5 P(X = Y) of x over y, the share
// of pairs (one value of each) where x's value is larger, ties counting half. It is U/(n1*n2) for
// the U of MannWhitneyU. 0.5 means no effect; it is NaN when a sample is empty or holds a NaN.
func A12(x, y []float64) float64 {
	u1, _, err := uStatistic(x, y)
	if err != nil {
		return math.NaN()
	}
	return u1 / (float64(len(x)) * float64(len(y)))
}

// Magnitude names the size of an Â12 effect by Vargha and Delaney's thresholds on
// max(a12, 1-a12): below 0.56 "negligible", below 0.64 "small", below 0.71 "medium", else
// "large". It is "undefined" for NaN.
func Magnitude(a12 float64) string {
	d := math.Max(a12, 1-a12)
	switch {
	case math.IsNaN(d):
		return "undefined"
	case d < 0.56:
		return "negligible"
	case d < 0.64:
		return "small"
	case d < 0.71:
		return "medium"
	}
	return "large"
}

// KMStep is one step of a Kaplan-Meier curve: the estimate after the events at time T.
type KMStep struct {
	T      float64 // an event time
	AtRisk int     // trials still running just before T (censored at T included)
	Events int     // trials whose event happened at T
	S      float64 // estimated probability that the event has not happened by T
	SE     float64 // Greenwood standard error of S (0 once S is 0)
	Lower  float64 // lower end of the 95% confidence interval of S (log-log, exponential Greenwood)
	Upper  float64 // upper end of that interval
}

// KaplanMeier returns the Kaplan-Meier estimate of the survival function S(t) = P(event after t)
// from trials that saw their event at times[i] (observed[i]) or ended without it at times[i]
// (censored, e.g. at the budget). It has one step per distinct event time, in increasing order: S
// is multiplied there by 1 - events/at-risk. A trial censored at an event time is counted at risk
// at that time (censoring comes after the event). SE is Greenwood's standard error
// S·sqrt(Σ d/(n(n-d))) over the steps so far; Lower and Upper are the 95% interval
// S^exp(±1.96·sqrt(Σ d/(n(n-d)))/log S), which stays in [0, 1] (lifelines and R's conf.type
// "log-log" use it). Once S reaches 0 the curve stays at 0 and SE, Lower and Upper are 0. With no
// observed event it returns no step (S is 1 throughout). It panics when times and observed differ
// in length or a time is NaN, which are programming errors.
func KaplanMeier(times []float64, observed []bool) []KMStep {
	if len(times) != len(observed) {
		panic(fmt.Sprintf("bench.KaplanMeier: %d times but %d observed flags: give one flag per time", len(times), len(observed)))
	}
	if slices.ContainsFunc(times, math.IsNaN) {
		panic("bench.KaplanMeier: a time is NaN: drop the trial or give its time")
	}
	order := make([]int, len(times))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return times[order[a]] < times[order[b]] })
	z := math.Sqrt2 * math.Erfinv(0.95)
	var steps []KMStep
	s, greenwood := 1.0, 0.0
	atRisk := len(times)
	for i := 0; i < len(order); {
		t := times[order[i]]
		j, events := i, 0
		for ; j < len(order) && times[order[j]] == t; j++ {
			if observed[order[j]] {
				events++
			}
		}
		if events > 0 {
			s *= 1 - float64(events)/float64(atRisk)
			step := KMStep{T: t, AtRisk: atRisk, Events: events, S: s}
			if events < atRisk {
				greenwood += float64(events) / (float64(atRisk) * float64(atRisk-events))
				step.SE = s * math.Sqrt(greenwood)
				w := z * math.Sqrt(greenwood) / math.Log(s)
				step.Lower, step.Upper = math.Pow(s, math.Exp(-w)), math.Pow(s, math.Exp(w))
			} else {
				s, step.S = 0, 0
			}
			steps = append(steps, step)
		}
		atRisk -= j - i
		i = j
	}
	return steps
}

// KMMedian returns the median time to the event of a Kaplan-Meier curve: the smallest step time
// with S <= 0.5. It returns false when the curve never gets down to 0.5, where the median is not
// reached within the trials' time (a report prints "> budget"). The comparison is exact, on the
// product of the steps' (AtRisk-Events)/AtRisk in integers, so that a rounding error of S (3/4 *
// 2/3 is 0.5000000000000001 in floats) cannot move the median to a later step.
func KMMedian(steps []KMStep) (float64, bool) {
	num, den := big.NewInt(1), big.NewInt(1)
	var twice big.Int
	for _, st := range steps {
		num.Mul(num, big.NewInt(int64(st.AtRisk-st.Events)))
		den.Mul(den, big.NewInt(int64(st.AtRisk)))
		if twice.Lsh(num, 1).Cmp(den) <= 0 {
			return st.T, true
		}
	}
	return 0, false
}

// Median returns the median of xs, Quantile(xs, 0.5).
func Median(xs []float64) float64 { return Quantile(xs, 0.5) }

// Quantile returns the q-quantile of xs by linear interpolation between the two nearest values of
// the sorted sample, at position (len(xs)-1)*q (NumPy's default method, "linear"), so that the
// interquartile range is Quantile(xs, 0.75) - Quantile(xs, 0.25). It is NaN when xs is empty or q
// is outside [0, 1]. xs is not modified.
func Quantile(xs []float64, q float64) float64 {
	if len(xs) == 0 || !(q >= 0 && q <= 1) {
		return math.NaN()
	}
	sorted := slices.Clone(xs)
	slices.Sort(sorted)
	h := float64(len(sorted)-1) * q
	lo := int(math.Floor(h))
	if lo >= len(sorted)-1 {
		return sorted[len(sorted)-1]
	}
	return sorted[lo] + (h-float64(lo))*(sorted[lo+1]-sorted[lo])
}

// Ranked is one style's place in a ranking across bugs.
type Ranked struct {
	Style    string
	MeanRank float64   // mean over bugs of Ranks; 1 is best
	Ranks    []float64 // the style's rank on each bug, in the order of the scores
}

// Rank orders styles across bugs as FuzzBench's experiment ranking does: on each bug the styles
// are ranked by their score (1 = best; the highest score is best when higherBetter, else the
// lowest), equal scores sharing the average of their ranks, and each style's ranks are averaged
// over the bugs. scores[style][b] is the style's score on bug b, typically the median over trials
// (see RankTrials); every style must give a score for every bug, in the same order. A NaN score
// ranks below every number on its bug. The result is sorted by mean rank, then by style name. It
// panics when the styles give different numbers of scores, a programming error.
func Rank(scores map[string][]float64, higherBetter bool) []Ranked {
	styles := make([]string, 0, len(scores))
	for st := range scores {
		styles = append(styles, st)
	}
	sort.Strings(styles)
	bugs := -1
	for _, st := range styles {
		if bugs >= 0 && len(scores[st]) != bugs {
			panic(fmt.Sprintf("bench.Rank: style %q has %d scores, %q has %d: give every style one score per bug", st, len(scores[st]), styles[0], bugs))
		}
		bugs = len(scores[st])
	}
	out := make([]Ranked, len(styles))
	for k, st := range styles {
		out[k] = Ranked{Style: st, Ranks: make([]float64, max(bugs, 0))}
	}
	for b := 0; b < bugs; b++ {
		// Rank the styles with a number; those with NaN share the ranks after them.
		var ranked []int
		var keys []float64
		for k, st := range styles {
			if v := scores[st][b]; !math.IsNaN(v) {
				if higherBetter {
					v = -v
				}
				ranked, keys = append(ranked, k), append(keys, v)
			}
		}
		nanRank := float64(len(ranked)+1+len(styles)) / 2
		for k := range styles {
			out[k].Ranks[b] = nanRank
		}
		ranks, _ := averageRanks(keys)
		for i, k := range ranked {
			out[k].Ranks[b] = ranks[i]
		}
	}
	for k := range out {
		sum := 0.0
		for _, r := range out[k].Ranks {
			sum += r
		}
		out[k].MeanRank = sum / float64(bugs)
		if bugs == 0 {
			out[k].MeanRank = math.NaN()
		}
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].MeanRank < out[b].MeanRank })
	return out
}

// RankTrials ranks styles from the raw values of their trials: trials[bug][style] holds one value
// per trial (e.g. the time to detection, the budget for a trial that missed the bug), each style's
// score on a bug is the median of its values (NaN for a style without trials on that bug), and
// Rank orders the styles over the bugs in sorted order of their names.
func RankTrials(trials map[string]map[string][]float64, higherBetter bool) []Ranked {
	bugs := make([]string, 0, len(trials))
	styleSet := map[string]bool{}
	for bug, byStyle := range trials {
		bugs = append(bugs, bug)
		for st := range byStyle {
			styleSet[st] = true
		}
	}
	sort.Strings(bugs)
	scores := make(map[string][]float64, len(styleSet))
	for st := range styleSet {
		for _, bug := range bugs {
			scores[st] = append(scores[st], Median(trials[bug][st]))
		}
	}
	return Rank(scores, higherBetter)
}
