// Package domain describes each testing domain once: its generator and options, its engines, its
// oracles, its reducer, its case format and its own flags. The commands that fuzz, replay, reduce,
// report and compare are written once against this description (cmd/polyfuzz); each domain fills
// one [Domain] in a package of its own below this one (sqldom, smtdom, dldom, graphdom).
package domain

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/polyfuzz/polyfuzz/campaign"
	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/targets/fault"
	"github.com/polyfuzz/polyfuzz/targets/isolated"
	"github.com/polyfuzz/polyfuzz/targets/redact"
)

// Domain is one row of the domain table: everything the commands need to test one kind of engine.
type Domain struct {
	// Name is the command and the domain of its cases: "sql", "smt", "datalog", "graph".
	Name string
	// Summary is the domain's line in polyfuzz's usage; Synopsis its command's --help text.
	Summary, Synopsis string
	// Unit names one test in flag help ("test cases", "instances"); Owns what each worker owns.
	Unit, Owns string
	// EngineFlag is the flag that names engines ("dbms", "engine", "solver"); every command also
	// accepts --engine.
	EngineFlag string
	// Engines are the engines the domain can test, in the order help lists them.
	Engines []Engine
	// DefaultEngine runs when no engine is given.
	DefaultEngine string
	// Oracles are the domain's oracles, in the order help lists them; DefaultOracles the logic
	// oracles a campaign runs when --oracle is not given.
	Oracles        []OracleInfo
	DefaultOracles []string
	// Timeout is the default per-statement timeout; TimeoutHelp explains what running over it is.
	Timeout     time.Duration
	TimeoutHelp string
	// FaultExample is a --fault spec to show in help.
	FaultExample string
	// Faults are the domain's own planted faults, beside targets/fault's kinds: faults that need
	// to understand a statement (a Datalog relation at a given stratum), given as KIND:ARG.
	Faults []Fault
	// GenDefault returns the default generator options in their text form, for --gen's help.
	GenDefault func() string
	// Styles are the domain's generator styles (queryFuzz's and DLSmith's in Datalog), the first
	// the default; --style picks one, and compare can put several head to head. Empty: one style.
	Styles []Style
	// Flags registers the domain's own flags; the function it returns applies them to the
	// settings of a campaign after parsing, base being the shared settings of every engine (nil:
	// no flags of its own).
	Flags func(fs *flag.FlagSet) func(s *Settings, base Spec) error
	// Build makes what a campaign, replay, reduction or comparison needs from settings; log
	// receives progress lines worth showing.
	Build func(ctx context.Context, s *Settings, log func(string)) (*Setup, error)
	// Commands are the domain's own subcommands ("polyfuzz smt selfcheck").
	Commands []Command
	// ReplayWorker is the worker number replay and reduce open engines for; nil means a number
	// apart from a campaign's workers.
	ReplayWorker func() int
}

// Engine is one engine a domain can test.
type Engine struct {
	Name string
	// Env names the environment variable that holds a server's default DSN or URL ("" for an
	// embedded engine or a local process); Example is a DSN to show in help and errors.
	Env, Example string
	// Cmd says the engine is a command line given by the spec (--solver-cmd).
	Cmd bool
	// InProcess engines run in polyfuzz's process, or in an isolated child process when the spec
	// asks for it, so that an engine crash is a finding.
	InProcess bool
	// OneWorker says a server offers one namespace, so a campaign on it runs one worker unless
	// the DSN names one per worker ({worker}).
	OneWorker bool
	// Open opens the engine of s (its fault is added by [Open]).
	Open func(ctx context.Context, s Spec) (fuzz.Target, error)
	// Hidden engines are not listed by help or version (a SQL engine that evaluates Datalog is
	// listed by its own domain).
	Hidden bool
	// Versions says which builds NAME@VERSION opens (for help and errors); "" means the engine
	// takes no version.
	Versions string
	// Lib says which library files NAME=lib:PATH opens (for help and errors); "" means the engine
	// takes no library.
	Lib string
}

// OracleInfo is one oracle of a domain as the commands see it.
type OracleInfo struct {
	Name string
	// Aliases are other names --oracle takes ("partition" for tlp-where in graphs).
	Aliases []string
	// Always oracles run in every campaign (error); Multi ones need two engines and are left out
	// with one; Auto ones are added whenever a campaign has two engines (SQL's diff).
	Always, Multi, Auto bool
}

// Fault is a planted fault of a domain's own: Wrap returns inner with the fault of argument arg
// planted, or an error that names what arg should be.
type Fault struct {
	Kind, Help string
	Wrap       func(inner fuzz.Target, arg string) (fuzz.Target, error)
}

// fault returns the domain's own fault of the spec KIND:ARG, if its kind is one.
func (d *Domain) fault(spec string) (*Fault, string, bool) {
	kind, arg, _ := strings.Cut(spec, ":")
	for i := range d.Faults {
		if d.Faults[i].Kind == kind {
			return &d.Faults[i], arg, true
		}
	}
	return nil, "", false
}

// CheckFault reports whether spec is a fault the domain can plant: one of its own kinds with a
// good argument, or one of targets/fault's.
func (d *Domain) CheckFault(spec string) error {
	_, err := d.plantFault(nil, spec)
	return err
}

// canaried is a domain's own planted target that records a canary (fuzz.Result.MarkCanary) once named.
type canaried interface{ SetCanary(id string) }

// plantFault returns inner with the fault spec planted: one of the domain's own kinds, a
// targets/fault KIND:REGEXP, or a JSON list of planted bugs (fault.Plant), stacked in order. With
// a nil inner it only checks the spec.
func (d *Domain) plantFault(inner fuzz.Target, spec string) (fuzz.Target, error) {
	if !fault.IsPlants(spec) {
		if f, arg, ok := d.fault(spec); ok {
			return f.Wrap(inner, arg)
		}
		f, err := fault.Parse(spec)
		if err != nil || inner == nil {
			return nil, err
		}
		return fault.Wrap(inner, f), nil
	}
	plants, err := fault.ParsePlants(spec)
	if err != nil {
		return nil, err
	}
	t := inner
	for _, p := range plants {
		if p.Own() {
			f, _, ok := d.fault(p.Kind + ":")
			if !ok {
				return nil, fmt.Errorf("planted bug %q: unknown fault kind %q of domain %s", p.ID, p.Kind, d.Name)
			}
			if t, err = f.Wrap(t, p.Arg); err != nil {
				return nil, fmt.Errorf("planted bug %q: %w", p.ID, err)
			}
			if c, ok := t.(canaried); ok {
				c.SetCanary(p.ID)
			}
			continue
		}
		f, err := p.Spec()
		if err != nil {
			return nil, err
		}
		if t != nil {
			t = fault.Wrap(t, f)
		}
	}
	return t, nil
}

// Style is one generator style of a domain.
type Style struct {
	Name, Summary string
	// Oracles are the style's default oracles when --oracle is not given (nil: the domain's
	// DefaultOracles).
	Oracles []string
}

// StyleOracles returns the default oracles of style name: its own, or the domain's.
func (d *Domain) StyleOracles(name string) []string {
	for _, s := range d.Styles {
		if s.Name == name && s.Oracles != nil {
			return s.Oracles
		}
	}
	return d.DefaultOracles
}

// StyleNames returns "a (summary), b (summary)" for help.
func (d *Domain) StyleNames() string {
	var out []string
	for _, s := range d.Styles {
		out = append(out, s.Name+" ("+s.Summary+")")
	}
	return strings.Join(out, ", ")
}

// CheckStyle returns an error naming the styles when name is not one of d's.
func (d *Domain) CheckStyle(name string) error {
	for _, s := range d.Styles {
		if s.Name == name {
			return nil
		}
	}
	if len(d.Styles) == 0 {
		return fmt.Errorf("%s has one generator style; leave --style out", d.Name)
	}
	var names []string
	for _, s := range d.Styles {
		names = append(names, s.Name)
	}
	return fmt.Errorf("unknown --style %q; %s has %s", name, d.Name, strings.Join(names, ", "))
}

// Command is a subcommand of a domain.
type Command struct {
	Name, Usage string
	Run         func(ctx context.Context, args []string, stdout, stderr io.Writer) int
}

// Setup is what a campaign, replay or reduction runs, built from settings.
type Setup struct {
	// Gen makes the cases; nil when a stored case cannot be regenerated here (replay then runs
	// the stored case as it is).
	Gen     fuzz.Generator
	Oracles []fuzz.Oracle
	Reducer fuzz.Reducer
	Format  campaign.Format
	// Open opens one worker's engines; nil means every engine of the settings, each with
	// [Domain.Open].
	Open func(ctx context.Context, worker int) ([]fuzz.Target, error)
	// MaxWorkers bounds the workers (0: no bound); WorkersWhy says why, for the error.
	MaxWorkers int
	WorkersWhy string
	// Banner lines are printed when a campaign starts (seed statistics, say).
	Banner []string
	// Prepare runs once before a campaign writes anything else to its output directory.
	Prepare func(out string) error
	// ReduceReport, when set, describes the last reduction (for polyfuzz reduce).
	ReduceReport func() string
}

// Setup builds what a campaign, replay, reduction or comparison runs from settings.
func (d *Domain) Setup(ctx context.Context, s *Settings, log func(string)) (*Setup, error) {
	st, err := d.Build(ctx, s, log)
	if err != nil {
		return nil, err
	}
	if st.Open == nil {
		st.Open = OpenAll(s, d.Open)
	}
	return st, nil
}

// Oracle returns the setup's oracle with the given name.
func (s *Setup) Oracle(name string) (fuzz.Oracle, error) {
	for _, o := range s.Oracles {
		if o.Name() == name {
			return o, nil
		}
	}
	return nil, fmt.Errorf("unknown oracle %q", name)
}

// Spec says how to open one engine: the one engine spec of every domain. It is stored with
// findings (the DSN redacted) so that replay opens the same engine.
type Spec struct {
	Engine string `json:"engine"`
	// Version names a build of the engine other than the default one (NAME@VERSION): an old
	// release from a registry, for example. Empty: the engine's default build.
	Version string `json:"version,omitempty"`
	// DSN locates a server (a SQL DSN, a Bolt or Redis URL); empty for an embedded engine.
	DSN string `json:"dsn,omitempty"`
	// Lib is the path of a library file that holds the engine (NAME=lib:PATH): a build other than
	// the one polyfuzz embeds. Empty: the embedded build.
	Lib string `json:"lib,omitempty"`
	// Cmd is the command line of an engine given as one (--solver-cmd).
	Cmd     string        `json:"cmd,omitempty"`
	Timeout time.Duration `json:"timeout,omitempty"`
	// Fault is a fault planted in this engine (targets/fault).
	Fault string `json:"fault,omitempty"`
	// Force lets polyfuzz work in a database that holds objects it did not create.
	Force bool `json:"force,omitempty"`
	// Isolate runs an in-process engine in a child process.
	Isolate bool `json:"isolate,omitempty"`
	// Worker numbers the worker whose namespace the engine works in.
	Worker int `json:"worker,omitempty"`
}

// Settings are a campaign's engine settings: what rebuilds its engines, oracles and generator.
// They are stored with every finding (DSNs redacted) as the campaign's options.
type Settings struct {
	Engines []Spec `json:"engines"`
	// Oracles are the campaign's oracles, Always ones included; their layouts shape the cases.
	Oracles []string `json:"oracles,omitempty"`
	// Seeds is the SMT seed folder ("" for the project's own seeds); Ref the reference solver.
	Seeds string `json:"seeds,omitempty"`
	Ref   string `json:"ref,omitempty"`
	// Unsteered turns the graph catalogue of known differences off (--known=false).
	Unsteered bool `json:"unsteered,omitempty"`
	// Gen is the generator options' text; stored as the finding's own gen, not here.
	Gen string `json:"-"`
	// Style is the generator style (--style); empty for the domain's default. A stored Gen
	// names its generator, so the style is not stored.
	Style string `json:"-"`
	// Replay says the settings come from a stored finding: a generator that cannot be rebuilt
	// (its seeds are gone) is left out, and replay runs the stored case as it is.
	Replay bool `json:"-"`
	// Plain asks a guided reducer to reduce without guidance (polyfuzz reduce --plain).
	Plain bool `json:"-"`
}

// Names returns the engines' names, in order.
func (s *Settings) Names() []string {
	var out []string
	for _, e := range s.Engines {
		out = append(out, e.Engine)
	}
	return out
}

// AddReference adds the domain's reference engine ("ref", with the shared settings of base) to
// the engines of s when with and it is not there yet; it is the only engine when none was given.
func (s *Settings) AddReference(base Spec, with bool) {
	base.Engine, base.DSN = "ref", ""
	if len(s.Engines) == 0 {
		s.Engines = []Spec{base}
		return
	}
	if with && !slices.Contains(s.Names(), "ref") {
		base.Fault = ""
		s.Engines = append(s.Engines, base)
	}
}

// Fault returns the fault planted in the first engine, "" for none.
func (s *Settings) Fault() string {
	if len(s.Engines) == 0 {
		return ""
	}
	return s.Engines[0].Fault
}

// Encode returns the settings as stored with findings, every DSN redacted.
func (s *Settings) Encode() json.RawMessage {
	c := *s
	c.Engines = slices.Clone(s.Engines)
	for i := range c.Engines {
		c.Engines[i].DSN = Redact(c.Engines[i].DSN)
		c.Engines[i].Worker = 0
	}
	b, _ := json.Marshal(c)
	return b
}

// Decode reads stored settings; the options of findings stored before settings were typed (a
// map of strings) are read too. A server's DSN comes from its environment variable when it is
// set, since the stored one has no password.
func (d *Domain) Decode(raw json.RawMessage, gen string) (*Settings, error) {
	s := &Settings{Gen: gen}
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(raw, &probe); err != nil {
		return nil, fmt.Errorf("finding's options: %w", err)
	}
	if _, typed := probe["engines"]; typed && probe["engines"][0] == '[' {
		if err := json.Unmarshal(raw, s); err != nil {
			return nil, fmt.Errorf("finding's options: %w", err)
		}
	} else {
		var m map[string]string
		if err := json.Unmarshal(raw, &m); err != nil {
			return nil, fmt.Errorf("finding's options: %w", err)
		}
		if err := s.fromLegacy(m); err != nil {
			return nil, err
		}
	}
	for i := range s.Engines {
		if e, ok := d.Engine(s.Engines[i].Engine); ok && e.Env != "" {
			if v := serverDSN(e, s.Engines[i].Version); v != "" {
				s.Engines[i].DSN = v
			}
		}
	}
	return s, nil
}

// VersionEnv names the environment variable that holds the DSN of a server of one version, after
// the engine's own variable: POLYFUZZ_FALKORDB_URL_4_14_2 for falkordb@4.14.2.
func VersionEnv(env, version string) string {
	return env + "_" + strings.NewReplacer(".", "_", "-", "_").Replace(version)
}

// serverDSN returns the DSN of engine e's server of version from the environment: the version's
// variable, else the engine's.
func serverDSN(e Engine, version string) string {
	if version != "" {
		if v := os.Getenv(VersionEnv(e.Env, version)); v != "" {
			return v
		}
	}
	return os.Getenv(e.Env)
}

// fromLegacy reads the string map of options that findings stored before settings were typed.
func (s *Settings) fromLegacy(m map[string]string) error {
	var timeout time.Duration
	if t := m["timeout"]; t != "" {
		d, err := time.ParseDuration(t)
		if err != nil {
			return fmt.Errorf("bad timeout %q in finding: %w", t, err)
		}
		timeout = d
	}
	var names []string
	switch {
	case m["dbms"] != "":
		names = strings.Split(m["dbms"], ",")
	case m["engines"] != "":
		names = strings.Split(m["engines"], ",")
	case m["solvers"] != "":
		names = strings.Split(m["solvers"], ";")
	}
	for i, n := range names {
		sp := Spec{Engine: n, Timeout: timeout, DSN: m["dsn."+n], Force: m["force"] == "true",
			Isolate: m["dbms"] != "" && m["isolate"] != "false"}
		if c, ok := strings.CutPrefix(n, "cmd:"); ok {
			sp.Engine, sp.Cmd = "cmd", c
		}
		if i == 0 {
			sp.Fault = m["fault"]
		}
		s.Engines = append(s.Engines, sp)
	}
	if v := m["variants"]; v != "" {
		s.Oracles = strings.Split(v, ",")
	}
	s.Seeds, s.Ref, s.Unsteered = m["seeds"], m["ref"], m["known"] == "false"
	return nil
}

// Engine returns the domain's engine of that name.
func (d *Domain) Engine(name string) (Engine, bool) {
	for _, e := range d.Engines {
		if e.Name == name {
			return e, true
		}
	}
	return Engine{}, false
}

// EngineNames lists the engines help shows, comma-separated.
func (d *Domain) EngineNames() string {
	var out []string
	for _, e := range d.Engines {
		if !e.Hidden {
			out = append(out, e.Name)
		}
	}
	return strings.Join(out, ", ")
}

// VersionNotes lists, one per line, the engines that take NAME@VERSION or NAME=lib:PATH and which
// builds they open; "" when none does.
func (d *Domain) VersionNotes() string {
	var b strings.Builder
	for _, e := range d.Engines {
		if !e.Hidden && e.Versions != "" {
			fmt.Fprintf(&b, "\n      %s@VERSION: %s", e.Name, e.Versions)
		}
		if !e.Hidden && e.Lib != "" {
			fmt.Fprintf(&b, "\n      %s=lib:PATH: %s", e.Name, e.Lib)
		}
	}
	return b.String()
}

// OracleNames lists the domain's oracles, comma-separated.
func (d *Domain) OracleNames() string {
	var out []string
	for _, o := range d.Oracles {
		out = append(out, o.Name)
	}
	return strings.Join(out, ", ")
}

// Open opens the engine of s with its fault, if any.
func (d *Domain) Open(ctx context.Context, s Spec) (fuzz.Target, error) {
	e, ok := d.Engine(s.Engine)
	if !ok {
		return nil, fmt.Errorf("unknown --%s %q (known: %s)", d.EngineFlag, s.Engine, d.EngineNames())
	}
	if e.Env != "" && s.DSN == "" {
		return nil, fmt.Errorf("--%s %s needs a server: give --%s %s=%s or set %s", d.EngineFlag, s.Engine,
			d.EngineFlag, s.Engine, e.Example, e.Env)
	}
	if s.Fault != "" {
		if err := d.CheckFault(s.Fault); err != nil {
			return nil, err
		}
	}
	if s.Isolate && e.InProcess {
		// The child opens the engine with its fault, so that a planted crash kills the child.
		b, _ := json.Marshal(childSpec{Domain: d.Name, Spec: s})
		timeout := s.Timeout
		if timeout <= 0 {
			timeout = 10 * time.Second
		}
		return isolated.Open(ctx, isolated.Options{Spec: string(b), Timeout: timeout})
	}
	t, err := e.Open(ctx, s)
	if err != nil || s.Fault == "" {
		return t, err
	}
	ft, err := d.plantFault(t, s.Fault)
	if err != nil {
		t.Close()
	}
	return ft, err
}

// childSpec is what an isolated child is told to open.
type childSpec struct {
	Domain string `json:"domain"`
	Spec   Spec   `json:"spec"`
}

// ServeChild is the main of an isolated child: it opens the engine its parent names, of one of
// the domains, and serves it.
func ServeChild(domains []*Domain) {
	isolated.Serve(func(text string) (fuzz.Target, error) {
		var cs childSpec
		if err := json.Unmarshal([]byte(text), &cs); err != nil {
			return nil, fmt.Errorf("bad isolated target spec %q: %w", text, err)
		}
		for _, d := range domains {
			if d.Name == cs.Domain {
				cs.Spec.Isolate, cs.Spec.Timeout = false, 0 // the parent kills a child that runs over
				return d.Open(context.Background(), cs.Spec)
			}
		}
		return nil, fmt.Errorf("isolated target of unknown domain %q", cs.Domain)
	})
}

// OpenAll returns a Setup's Open for settings: each worker opens every engine, closing what it
// opened when one fails. open opens one spec (d.Open, or a domain's own wrapper of it).
func OpenAll(s *Settings, open func(ctx context.Context, sp Spec) (fuzz.Target, error)) func(ctx context.Context, worker int) ([]fuzz.Target, error) {
	specs := slices.Clone(s.Engines)
	return func(ctx context.Context, worker int) ([]fuzz.Target, error) {
		var ts []fuzz.Target
		for _, sp := range specs {
			sp.Worker = worker
			t, err := open(ctx, sp)
			if err != nil {
				CloseAll(ts)
				return nil, err
			}
			ts = append(ts, t)
		}
		return ts, nil
	}
}

// CloseAll closes every target.
func CloseAll(ts []fuzz.Target) {
	for _, t := range ts {
		t.Close()
	}
}

// Versions prints "name version" of every target, comma-separated.
func Versions(ts []fuzz.Target) string {
	var parts []string
	for _, t := range ts {
		parts = append(parts, t.Name()+" "+t.Version())
	}
	return strings.Join(parts, ", ")
}

// ResolveOracles turns the names given to --oracle into the campaign's oracles: aliases resolved,
// unknown names an error, Multi oracles left out with fewer than two engines, Always oracles added,
// and Auto ones with two engines or more.
func (d *Domain) ResolveOracles(given []string, engines int) ([]string, error) {
	var out []string
	add := func(n string) {
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	for _, g := range given {
		o, ok := d.oracle(g)
		if !ok {
			return nil, fmt.Errorf("unknown --oracle %q (known: %s)", g, d.OracleNames())
		}
		if o.Multi && engines < 2 || o.Always {
			continue
		}
		add(o.Name)
	}
	for _, o := range d.Oracles {
		if o.Always || o.Auto && engines >= 2 {
			add(o.Name)
		}
	}
	return out, nil
}

// HasOracle reports whether name is one of the domain's oracles or their aliases.
func (d *Domain) HasOracle(name string) bool {
	_, ok := d.oracle(name)
	return ok
}

// HasStyle reports whether name is one of the domain's generator styles.
func (d *Domain) HasStyle(name string) bool {
	return slices.ContainsFunc(d.Styles, func(s Style) bool { return s.Name == name })
}

func (d *Domain) oracle(name string) (OracleInfo, bool) {
	for _, o := range d.Oracles {
		if o.Name == name || slices.Contains(o.Aliases, name) {
			return o, true
		}
	}
	return OracleInfo{}, false
}

// EngineArgs turns the engines given to the engine flag (NAME, NAME=DSN, NAME@VERSION or
// NAME=lib:PATH) into specs with the shared settings of base: a server's DSN from NAME=DSN or its
// environment variable, the fault in the first engine only. An engine given twice, a DSN for an
// embedded engine, a server without a DSN, and a library for an engine that takes none or that is
// not a file are errors.
func (d *Domain) EngineArgs(vals []string, base Spec) ([]Spec, error) {
	var out []Spec
	seen := map[string]bool{}
	flagName := "--" + d.EngineFlag
	for i, v := range vals {
		name, dsn, hasDSN := strings.Cut(v, "=")
		name, version, hasVersion := strings.Cut(name, "@")
		e, ok := d.Engine(name)
		if !ok && strings.ContainsAny(name, ":/") {
			// A DSN given without NAME=: the name cut at its '@' holds the password.
			return nil, fmt.Errorf("%s %q names no engine: give NAME=DSN (known: %s)", flagName, Redact(v), d.EngineNames())
		}
		if !ok {
			return nil, fmt.Errorf("unknown engine %q (known: %s)", name, d.EngineNames())
		}
		lib, hasLib := strings.CutPrefix(dsn, "lib:")
		hasLib = hasLib && hasDSN
		if !hasLib {
			lib = "" // CutPrefix gives back the whole DSN, password and all
		}
		if hasLib {
			if err := checkLib(flagName, name, e, lib); err != nil {
				return nil, err
			}
			dsn, hasDSN = "", false
		}
		switch {
		case hasLib && hasVersion:
			return nil, fmt.Errorf("%s %s: give a version (%s@VERSION) or a library (%s=lib:PATH), not both", flagName, name, name, name)
		case hasVersion && version == "":
			return nil, fmt.Errorf("%s %s@ names no version: give NAME@VERSION (%s)", flagName, name, versionsHelp(e))
		case hasVersion && e.Versions == "":
			return nil, fmt.Errorf("%s %s takes no version (got %q): give %s %s", flagName, name, version, flagName, name)
		}
		key := name
		if hasVersion {
			key += "@" + version
		}
		if hasLib {
			key += "=lib:" + lib
		}
		if seen[key] {
			return nil, fmt.Errorf("%s %s is given twice; each engine may run once", flagName, key)
		}
		seen[key] = true
		if hasDSN && e.Env == "" {
			return nil, fmt.Errorf("%s %s is embedded and takes no DSN (got %q)", flagName, name, Redact(dsn))
		}
		if !hasDSN && e.Env != "" {
			if dsn = serverDSN(e, version); dsn == "" {
				return nil, fmt.Errorf("%s %s needs a server: give %s %s=%s or set %s", flagName, name, flagName, name, e.Example, e.Env)
			}
		}
		sp := base
		sp.Engine, sp.Version, sp.DSN, sp.Lib = name, version, dsn, lib
		if i > 0 {
			sp.Fault = ""
		}
		out = append(out, sp)
	}
	return out, nil
}

// checkLib reports a library that engine e cannot open: e takes none, or the file is not there.
func checkLib(flagName, name string, e Engine, lib string) error {
	if e.Lib == "" {
		return fmt.Errorf("%s %s takes no library (got lib:%s)", flagName, name, lib)
	}
	st, err := os.Stat(lib)
	switch {
	case lib == "":
		return fmt.Errorf("%s %s=lib: names no file: give %s=lib:PATH (%s)", flagName, name, name, e.Lib)
	case err != nil:
		return fmt.Errorf("%s %s=lib:%s: no such file: give %s=lib:PATH (%s)", flagName, name, lib, name, e.Lib)
	case st.IsDir():
		return fmt.Errorf("%s %s=lib:%s is a directory: give %s=lib:PATH (%s)", flagName, name, lib, name, e.Lib)
	}
	return nil
}

// versionsHelp says which versions engine e takes.
func versionsHelp(e Engine) string {
	if e.Versions == "" {
		return "it takes none"
	}
	return e.Versions
}

// Redact removes the password from a DSN, URL or a command line that holds one.
func Redact(s string) string { return redact.Text(s) }

// SortedKeys returns the keys of m, sorted.
func SortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// TopReasons lists the n most frequent reasons (all when n is 0) with their counts, most frequent
// first: "syntax 3, floating-point 2".
func TopReasons(m map[string]int64, n int) string {
	keys := SortedKeys(m)
	sort.SliceStable(keys, func(i, j int) bool { return m[keys[i]] > m[keys[j]] })
	var parts []string
	for i, k := range keys {
		if n > 0 && i == n {
			break
		}
		parts = append(parts, fmt.Sprintf("%s %d", k, m[k]))
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, ", ")
}

// OracleRow is one row of a domain's oracle table: the oracle as the commands see it and how to
// make it from E, what the domain builds its oracles from (the dialect's expected errors, whether a
// catalogue explains differences).
type OracleRow[E any] struct {
	OracleInfo
	New func(env E) fuzz.Oracle
}

// OracleTable is a domain's oracle table: adding an oracle is its file and one row.
type OracleTable[E any] []OracleRow[E]

// Infos returns the oracles as the commands see them.
func (t OracleTable[E]) Infos() []OracleInfo {
	out := make([]OracleInfo, len(t))
	for i, r := range t {
		out[i] = r.OracleInfo
	}
	return out
}

// Make returns the oracles of the table that names lists, in table order.
func (t OracleTable[E]) Make(names []string, env E) []fuzz.Oracle {
	var out []fuzz.Oracle
	for _, r := range t {
		if slices.Contains(names, r.Name) {
			out = append(out, r.New(env))
		}
	}
	return out
}

// GenOptions returns def when text is empty, else the generator options text parses to.
func GenOptions[O any](text string, def O, parse func(string) (O, error)) (O, error) {
	if text == "" {
		return def, nil
	}
	o, err := parse(text)
	if err != nil {
		return o, fmt.Errorf("--gen: %w", err)
	}
	return o, nil
}
