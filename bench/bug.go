package bench

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/polyfuzz/polyfuzz/targets/fault"
)

// bugFiles are the registry: bugs/<domain>-real.json and bugs/<domain>-planted.json, each a JSON
// array of bugs.
//
//go:embed bugs/*.json
var bugFiles embed.FS

// Origins of bugs.
const (
	Real    = "real"    // a bug of a released engine version
	Planted = "planted" // a fault planted in a correct engine (targets/fault), modelled on a real bug class
)

// Domains are the domains a bug may belong to.
var Domains = []string{"sql", "smt", "graph", "datalog"}

// Bug is one entry of the benchmark.
type Bug struct {
	// ID names the bug: letters, digits and '-', unique across domains.
	ID     string `json:"id"`
	Domain string `json:"domain"`
	Origin string `json:"origin"`
	// Class is the kind of wrong answer: soundness, invalid-model, wrong-rows, missing-rows,
	// extra-rows, crash, error, ...
	Class string `json:"class"`
	// Engine is the engine as its domain names it; Version the exact version that has the bug;
	// Fixed the first version checked to be without it ("" while it is open).
	Engine  string `json:"engine"`
	Version string `json:"version"`
	Fixed   string `json:"fixed,omitempty"`
	// Buggy and FixedSpec are engine specs, as the domain's engine flag takes them, with and
	// without the bug. For a planted bug both name the same correct engine; the bug is Plant.
	Buggy     string `json:"buggy"`
	FixedSpec string `json:"fixed_spec,omitempty"`
	// Install lists what the engines need installed: "pypi:PACKAGE==VERSION", ...
	Install []string `json:"install,omitempty"`
	// Trigger says in words what a case must do to trigger the bug.
	Trigger string `json:"trigger"`
	// Ref is the public reference: the issue of a real bug, the real bug class a planted one is
	// modelled on.
	Ref string `json:"ref"`
	// Case is the recorded case, a finding directory relative to the repository root; Oracle the
	// oracle whose finding it gives.
	Case   string `json:"case"`
	Oracle string `json:"oracle"`
	// Signature tells a real bug apart from the other bugs its fixed release fixes (the
	// fixed-release check alone credits every one of them with each finding): a finding is this
	// bug's only when its title matches Signature.Title and one of its case's texts
	// Signature.Case (regular expressions; an empty Case matches anything). Every real bug has one.
	Signature *Signature `json:"signature,omitempty"`
	// Options are campaign flags a trial on this bug needs (a share of tactics, say).
	Options []string `json:"options,omitempty"`
	// Plant is a planted bug's fault.
	Plant *fault.Plant `json:"plant,omitempty"`
	// Notes say what a reader must know (how the fix was attributed, why a version).
	Notes string `json:"notes,omitempty"`
	// given is the fault spec of a bug given to a command (GivenFault).
	given string
}

// Signature is what a real bug's findings look like (see [Bug.Signature]).
type Signature struct {
	Title string `json:"title,omitempty"`
	Case  string `json:"case,omitempty"`
}

// Matches reports whether a finding with this title and case texts has the bug's signature (always,
// when the bug has none).
func (b *Bug) Matches(title string, texts []string) bool {
	if b.Signature == nil {
		return true
	}
	if b.Signature.Title != "" && !regexp.MustCompile(b.Signature.Title).MatchString(title) {
		return false
	}
	if b.Signature.Case == "" {
		return true
	}
	re := regexp.MustCompile(b.Signature.Case)
	return slices.ContainsFunc(texts, re.MatchString)
}

// Fault returns the fault spec that plants the bug ("" for a real bug).
func (b *Bug) Fault() string { return Faults([]Bug{*b}) }

// Faults returns the --fault value that plants the planted bugs among bugs, stacked in order, each
// with its id as its canary ("" for none). A bug given as a fault spec (GivenFault) is planted as
// given.
func Faults(bugs []Bug) string {
	var ps []fault.Plant
	for _, b := range bugs {
		switch {
		case b.given != "":
			return b.given
		case b.Plant != nil:
			p := *b.Plant
			p.ID = b.ID
			ps = append(ps, p)
		}
	}
	if len(ps) == 0 {
		return ""
	}
	return fault.EncodePlants(ps)
}

var idPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)

// check reports what is wrong with an entry.
func (b *Bug) check() error {
	var missing []string
	for _, f := range []struct{ name, v string }{{"domain", b.Domain}, {"origin", b.Origin}, {"class", b.Class},
		{"engine", b.Engine}, {"version", b.Version}, {"buggy", b.Buggy}, {"trigger", b.Trigger}, {"ref", b.Ref},
		{"case", b.Case}, {"oracle", b.Oracle}} {
		if strings.TrimSpace(f.v) == "" {
			missing = append(missing, f.name)
		}
	}
	switch {
	case !idPattern.MatchString(b.ID):
		return fmt.Errorf("bug id %q: want lower-case letters, digits and '-'", b.ID)
	case len(missing) > 0:
		return fmt.Errorf("bug %s: missing %s", b.ID, strings.Join(missing, ", "))
	case !slices.Contains(Domains, b.Domain):
		return fmt.Errorf("bug %s: unknown domain %q (want %s)", b.ID, b.Domain, strings.Join(Domains, ", "))
	case b.Origin == Planted && b.Plant == nil:
		return fmt.Errorf("bug %s: a planted bug needs its plant", b.ID)
	case b.Origin == Real && b.Plant != nil:
		return fmt.Errorf("bug %s: a real bug has no plant", b.ID)
	case b.Origin != Real && b.Origin != Planted:
		return fmt.Errorf("bug %s: origin %q: want %s or %s", b.ID, b.Origin, Real, Planted)
	case b.Origin == Real && (b.Signature == nil || b.Signature.Title == ""):
		return fmt.Errorf("bug %s: a real bug needs a signature with a title pattern (what its findings look like)", b.ID)
	case b.Origin == Real && b.Fixed != "" && b.FixedSpec == "":
		return fmt.Errorf("bug %s: fixed in %s but no fixed_spec names that engine", b.ID, b.Fixed)
	}
	if sig := b.Signature; sig != nil {
		for _, re := range []string{sig.Title, sig.Case} {
			if _, err := regexp.Compile(re); err != nil {
				return fmt.Errorf("bug %s: signature: %w", b.ID, err)
			}
		}
	}
	if b.Plant != nil && !b.Plant.Own() {
		p := *b.Plant
		p.ID = b.ID
		if _, err := p.Spec(); err != nil {
			return err
		}
	}
	return nil
}

// ExtraEnv names an environment variable that lists bug files (JSON arrays of bugs, separated by
// the path list separator) to read beside the registry: a bug can be tried before it is added.
const ExtraEnv = "POLYFUZZ_BENCH_BUGS"

// All returns every bug of the registry and of the files $POLYFUZZ_BENCH_BUGS names, checked,
// sorted by domain, origin and id.
func All() ([]Bug, error) {
	names, err := bugFiles.ReadDir("bugs")
	if err != nil {
		return nil, err
	}
	type file struct {
		name string
		data []byte
	}
	var files []file
	for _, n := range names {
		b, err := bugFiles.ReadFile(path.Join("bugs", n.Name()))
		if err != nil {
			return nil, err
		}
		files = append(files, file{"bench/bugs/" + n.Name(), b})
	}
	for _, p := range filepath.SplitList(os.Getenv(ExtraEnv)) {
		if p == "" {
			continue
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", ExtraEnv, err)
		}
		files = append(files, file{p, b})
	}
	var out []Bug
	seen := map[string]string{}
	for _, f := range files {
		var bugs []Bug
		dec := json.NewDecoder(bytes.NewReader(f.data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&bugs); err != nil {
			return nil, fmt.Errorf("%s: %w", f.name, err)
		}
		for _, bug := range bugs {
			if err := bug.check(); err != nil {
				return nil, fmt.Errorf("%s: %w", f.name, err)
			}
			if other, ok := seen[bug.ID]; ok {
				return nil, fmt.Errorf("%s: bug %s is also in %s", f.name, bug.ID, other)
			}
			seen[bug.ID] = f.name
			out = append(out, bug)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Domain != b.Domain {
			return a.Domain < b.Domain
		}
		if a.Origin != b.Origin {
			return a.Origin < b.Origin
		}
		return a.ID < b.ID
	})
	return out, nil
}

// Select returns the bugs of domain named by set: "all", "real", "planted", or a comma-separated
// list of ids and of those words.
func Select(domain, set string) ([]Bug, error) {
	all, err := All()
	if err != nil {
		return nil, err
	}
	var out []Bug
	picked := map[string]bool{}
	for _, w := range strings.Split(set, ",") {
		w = strings.TrimSpace(w)
		n := 0
		for _, b := range all {
			if b.Domain != domain || picked[b.ID] {
				continue
			}
			if w == "all" || w == b.Origin || w == b.ID {
				picked[b.ID] = true
				out = append(out, b)
				n++
			}
		}
		if n == 0 && !slices.ContainsFunc(all, func(b Bug) bool { return b.ID == w && b.Domain == domain }) {
			return nil, fmt.Errorf("--bugs %s: no %s bug is %q (give all, real, planted or ids; polyfuzz bench list --domain %s lists them)",
				set, domain, w, domain)
		}
	}
	return out, nil
}

// GivenFault is a bug planted with a fault spec as --fault takes it (KIND:REGEXP or a domain's
// own KIND:ARG), in the first engine of a campaign; its Fault is the spec itself.
func GivenFault(spec string) Bug {
	return Bug{ID: "fault", Origin: Planted, Plant: &fault.Plant{}, Trigger: spec, given: spec}
}
