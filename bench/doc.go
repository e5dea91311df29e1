// Package bench is polyfuzz's ground-truth benchmark: a registry of known bugs (real bugs in
// exact old engine versions, and planted bugs with conditions and canaries), trials that run
// oracle styles against them with independent seeds, and the statistics and reports that compare
// the styles (detection rate, time to detection, survival curves, Mann-Whitney U, Vargha-Delaney
// A12, ranking). It imports no domain: cmd/polyfuzz runs the campaigns.
package bench
