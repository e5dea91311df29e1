package oracles

import (
	"sync"

	"github.com/polyfuzz/polyfuzz/fuzz"
)

// Plans measures query plan guidance: it reads the plan of every case's query (role
// "qpg.plan" of [fuzz.QPG]) and notes "new plan" the first time a plan signature is seen in the
// campaign, "seen plan" after. It finds nothing and makes no check; a campaign's notes count the
// distinct plans its queries got. Make one per campaign with [NewPlans].
type Plans struct {
	sig  func(r *fuzz.Result) (string, bool)
	mu   *sync.Mutex
	seen map[string]bool
}

// NewPlans returns a Plans that reads signatures with sig (ok false: no plan).
func NewPlans(sig func(r *fuzz.Result) (string, bool)) Plans {
	return Plans{sig: sig, mu: &sync.Mutex{}, seen: map[string]bool{}}
}

// Name returns "qpg".
func (Plans) Name() string { return "qpg" }

// Check notes whether the plans of c's query are new.
func (o Plans) Check(c *fuzz.Case, runs []fuzz.Run) fuzz.Verdict {
	i := queryIndex(c, fuzz.QPG.Role("plan"))
	if i < 0 || o.sig == nil {
		return fuzz.Verdict{}
	}
	var v fuzz.Verdict
	for _, run := range runs {
		if i >= len(run.Results) || run.Results[i].Failed() {
			v.Notes = append(v.Notes, "no plan")
			continue
		}
		s, ok := o.sig(run.Results[i])
		if !ok {
			v.Notes = append(v.Notes, "no plan")
			continue
		}
		o.mu.Lock()
		fresh := !o.seen[run.Target+"\x00"+s]
		o.seen[run.Target+"\x00"+s] = true
		o.mu.Unlock()
		if fresh {
			v.Notes = append(v.Notes, "new plan")
		} else {
			v.Notes = append(v.Notes, "seen plan")
		}
	}
	return v
}
