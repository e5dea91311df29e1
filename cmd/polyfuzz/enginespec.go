package main

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/targets/sqlserver"
)

// engineSpec says how to open one engine of a Datalog or graph campaign; it is stored with
// findings (without the DSN's password) so that replay opens the same engine.
type engineSpec struct {
	Engine string
	// DSN locates a server engine (a SQL DSN, a Bolt or Redis URL); empty for an embedded one.
	DSN     string
	Timeout time.Duration
	Fault   string
	// Force lets polyfuzz work in a database that holds data it did not create.
	Force  bool
	Worker int
}

// engineSpecs are the engines of one campaign; the fault, if any, is planted in the first.
type engineSpecs []engineSpec

// names returns the engines' names, in order.
func (ss engineSpecs) names() []string {
	var out []string
	for _, s := range ss {
		out = append(out, s.Engine)
	}
	return out
}

// openWith returns a campaign's Open: each worker, numbered with next, opens every spec with open.
func (ss engineSpecs) openWith(next func() int, open func(context.Context, engineSpec) (fuzz.Target, error)) func(ctx context.Context) ([]fuzz.Target, error) {
	return openWorker(ss, next, func(ctx context.Context, s engineSpec, w int) (fuzz.Target, error) {
		s.Worker = w
		return open(ctx, s)
	})
}

// options returns the specs as campaign options: the engines, each server's DSN without its
// password, and the shared settings.
func (ss engineSpecs) options() map[string]string {
	m := map[string]string{"engines": strings.Join(ss.names(), ","), "timeout": ss[0].Timeout.String()}
	for _, s := range ss {
		if s.DSN != "" {
			m["dsn."+s.Engine] = sqlserver.Redact(s.DSN)
		}
	}
	if ss[0].Fault != "" {
		m["fault"] = ss[0].Fault
	}
	if ss[0].Force {
		m["force"] = "true"
	}
	return m
}

// engineSpecsFromOptions rebuilds the specs of a stored finding for worker. A server's DSN comes
// from its environment variable (env names it; "" for none) when set, since the stored one has
// no password, else from the finding.
func engineSpecsFromOptions(m map[string]string, env func(engine string) string, worker int) (engineSpecs, error) {
	timeout, err := time.ParseDuration(m["timeout"])
	if err != nil {
		return nil, fmt.Errorf("bad timeout %q in finding: %w", m["timeout"], err)
	}
	var ss engineSpecs
	for i, name := range strings.Split(m["engines"], ",") {
		s := engineSpec{Engine: name, Timeout: timeout, Worker: worker, DSN: m["dsn."+name], Force: m["force"] == "true"}
		if e := env(name); e != "" {
			if v := os.Getenv(e); v != "" {
				s.DSN = v
			}
		}
		if i == 0 {
			s.Fault = m["fault"]
		}
		ss = append(ss, s)
	}
	return ss, nil
}

// engineSpecsOf returns one spec per engine of l (ref when none was given), with the reference
// added when withRef and it is not there yet; the fault goes to the first engine. server returns
// an engine's entry for its DSN's environment variable and example.
func engineSpecsOf(l *engineList, base engineSpec, withRef bool, server func(name string) engine) (engineSpecs, error) {
	args, err := l.args("ref", server)
	if err != nil {
		return nil, err
	}
	var ss engineSpecs
	hasRef := false
	for i, a := range args {
		s := base
		s.Engine, s.DSN = a.name, a.dsn
		if i > 0 {
			s.Fault = ""
		}
		hasRef = hasRef || a.name == "ref"
		ss = append(ss, s)
	}
	if withRef && !hasRef {
		s := base
		s.Engine, s.Fault, s.DSN = "ref", "", ""
		ss = append(ss, s)
	}
	return ss, nil
}
