package sqlserver

import (
	"context"
	"fmt"
	"strconv"
	"time"
)

// A worker claims its namespace with a lock on the server, held by the session that works in it
// for as long as it does. Two polyfuzz processes on one server (two campaigns, a campaign and a
// replay, a campaign and the tests) number their workers alike; the lock tells a namespace that a
// live session works in from a leftover of a dead run, and the second process moves on to a name
// of its own: base, then base_2, base_3, ... (see Candidate).

// MaxCandidates bounds the names Claim tries for one worker.
const MaxCandidates = 100

// ReclaimWait bounds how long a target that reconnects waits for the lock on its namespace, which
// its old session holds until the server has ended it.
const ReclaimWait = 5 * time.Second

// lockPoll is how often Reclaim tries a lock again.
const lockPoll = 25 * time.Millisecond

// Candidate returns the k-th name (from 1) a worker whose namespace is base tries: base itself,
// then base_2, base_3, ... A worker name ends in _w<Worker>, so these never meet another worker's
// first choice.
func Candidate(base string, k int) string {
	if k <= 1 {
		return base
	}
	return base + "_" + strconv.Itoa(k)
}

// Claim tries the candidate names of base in order with try, which takes the name's lock in the
// target's session and reports whether the target may work there (false: another live session
// holds the name, or it is someone else's and the target steps past it). It returns the first name
// try takes, or an error once MaxCandidates names are taken. what names the kind of namespace
// ("schema", "database").
func (d *DSN) Claim(what, base string, try func(name string) (bool, error)) (string, error) {
	for k := 1; k <= MaxCandidates; k++ {
		name := Candidate(base, k)
		ok, err := try(name)
		if err != nil {
			return "", err
		}
		if ok {
			return name, nil
		}
	}
	return "", fmt.Errorf("%s at %s: the %ss %s to %s are all in use by other polyfuzz sessions",
		d.Engine, d.Addr(), what, base, Candidate(base, MaxCandidates))
}

// Reclaim takes the lock on a target's namespace (a schema or database called name) again in the
// target's new session, with lock, which tries to take it without waiting. It waits up to
// ReclaimWait while the server ends the old session that held it, and fails when another session
// holds it: polyfuzz leaves that namespace alone.
func (d *DSN) Reclaim(ctx context.Context, what, name string, lock func(ctx context.Context, name string) (bool, error)) error {
	ok, err := waitLock(ctx, ReclaimWait, func(ctx context.Context) (bool, error) { return lock(ctx, name) })
	if err == nil && !ok {
		err = fmt.Errorf("%s at %s: %s %s is now in use by another session (it holds the %s's lock, which this "+
			"target lost when its session ended); polyfuzz leaves it alone", d.Engine, d.Addr(), what, name, what)
	}
	return err
}

// waitLock calls try, which tries to take a lock without waiting, until it takes it, fails, or
// wait has passed; it reports whether it took the lock.
func waitLock(ctx context.Context, wait time.Duration, try func(ctx context.Context) (bool, error)) (bool, error) {
	deadline := time.Now().Add(wait)
	for {
		ok, err := try(ctx)
		if ok || err != nil || !time.Now().Before(deadline) {
			return ok, err
		}
		select {
		case <-ctx.Done():
			return false, ctx.Err()
		case <-time.After(lockPoll):
		}
	}
}
