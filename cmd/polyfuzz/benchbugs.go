package main

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/polyfuzz/polyfuzz/bench"
	"github.com/polyfuzz/polyfuzz/campaign"
	"github.com/polyfuzz/polyfuzz/domain"
)

// bugEngines puts bug b's engine into the settings s: its buggy engine with its plant, or, when
// fixed, its fixed engine. It takes the place of the engine of the same name, else of the first.
func bugEngines(d *domain.Domain, s *domain.Settings, b *bench.Bug, fixed bool) error {
	spec := b.Buggy
	if fixed {
		if spec = b.FixedSpec; spec == "" {
			return fmt.Errorf("bug %s has no fixed engine (still open)", b.ID)
		}
	}
	var base domain.Spec
	if len(s.Engines) > 0 {
		base = s.Engines[0]
	}
	base.Fault, base.Version, base.Cmd = "", "", ""
	specs, err := d.EngineArgs([]string{spec}, base)
	if err != nil {
		return fmt.Errorf("bug %s: %w", b.ID, err)
	}
	sp := specs[0]
	if !fixed {
		sp.Fault = b.Fault()
	}
	i := slices.IndexFunc(s.Engines, func(e domain.Spec) bool { return e.Engine == sp.Engine })
	switch {
	case i >= 0:
		s.Engines[i] = sp
	case len(s.Engines) == 0:
		s.Engines = []domain.Spec{sp}
	default:
		s.Engines[0] = sp
	}
	return nil
}

// bugReplay is what replaying a bug's recorded case showed on its buggy and its fixed engine.
type bugReplay struct {
	// Buggy and Fixed say whether the recorded finding reproduced; Fixed is false too when the
	// bug has no fixed engine (HasFixed).
	Buggy, Fixed, HasFixed bool
	// Reached and Triggered say whether a planted bug's canary fired on the buggy replay.
	Reached, Triggered bool
	// BuggyTitle and FixedTitle are the oracle's titles ("" for none).
	BuggyTitle, FixedTitle, Want string
}

// replayBug replays bug b's recorded case (root/b.Case) on its buggy engine and on its fixed one.
func replayBug(ctx context.Context, root string, b *bench.Bug) (*bugReplay, error) {
	dir := filepath.Join(root, filepath.FromSlash(b.Case))
	out := &bugReplay{HasFixed: b.FixedSpec != ""}
	for _, fixed := range []bool{false, true} {
		if fixed && !out.HasFixed {
			break
		}
		rb, _, err := rebuildWith(ctx, dir, false, func(d *domain.Domain, s *domain.Settings) error {
			return bugEngines(d, s, b, fixed)
		})
		if err != nil {
			return nil, err
		}
		res, err := campaign.Replay(ctx, dir, nil, rb.oracle, rb.targets)
		domain.CloseAll(rb.targets)
		if err != nil {
			return nil, err
		}
		out.Want = res.Record.OracleTitle()
		if fixed {
			out.Fixed, out.FixedTitle = res.Original == out.Want, res.Original
			continue
		}
		out.Buggy, out.BuggyTitle = res.Original == out.Want, res.Original
		if res.Finding != nil {
			for _, run := range res.Finding.Runs {
				for _, r := range slices.Concat(run.Setup, run.Results) {
					if r != nil {
						out.Reached = out.Reached || slices.Contains(r.Canaries, b.ID)
						out.Triggered = out.Triggered || slices.Contains(r.Canaries, b.ID+"!")
					}
				}
			}
		}
	}
	return out, nil
}
