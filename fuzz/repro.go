package fuzz

import (
	"slices"
	"strconv"
	"strings"
	"time"
)

// ReproInfo is what a finding's reproducer (repro.sh) needs to know besides its case, so that the
// script can judge its own output: which engines and versions the finding was seen on, which
// oracle saw what, and whether the bug was planted. A reproducer exits 0 when the bug
// reproduces, 1 when it does not, and 2 when it cannot tell (a client is missing, a server is
// unreachable, the oracle cannot be judged in a shell, or the bug was planted by polyfuzz), so that
// it can serve as the interestingness test of a reducer such as C-Reduce or ddSMT.
type ReproInfo struct {
	// Header is written at the top of the script as comment lines: the title, the seed, the
	// expected and actual answers, the replay command line.
	Header string
	// Roles are the queries of the case the finding is about; nil means all.
	Roles []string
	// Targets are the engines the finding was seen on, with their versions, in campaign order.
	Targets []ReproTarget
	// Blamed names the engines the finding's title blames (a subset of Targets' names).
	Blamed []string
	// Kind and Oracle say what the oracle saw: a wrong result of "norec", a crash of "error", ...
	Kind   Kind
	Oracle string
	// Expected and Actual are the oracle's lines on this case.
	Expected, Actual string
	// Fault is the fault spec polyfuzz planted in the first engine, "" for a finding of the
	// engine itself. A planted fault lives in polyfuzz's wrapper of the engine, so the engine's own
	// client cannot reproduce it.
	Fault string
	// Timeout is the statement timeout of the campaign (a hang is a statement over it); zero
	// when unknown.
	Timeout time.Duration
}

// ReproTarget names one engine of a finding and its version.
type ReproTarget struct {
	Name    string
	Version string
}

// Version returns the recorded version of the engine named name, "" if it has none.
func (in *ReproInfo) Version(name string) string {
	for _, t := range in.Targets {
		if t.Name == name {
			return t.Version
		}
	}
	return ""
}

// ReproExitDoc explains a reproducer's exit statuses, as comment lines for its top.
const ReproExitDoc = `#
# Runs the case with each engine's own client and judges the answers as the oracle did.
# Exit status: 0 the bug reproduces, 1 it does not, 2 this script cannot tell (a client is
# missing, a server unreachable, a query failed, a planted fault, or an oracle a shell cannot judge).
`

// ReproHelpers are the bash functions every reproducer starts with, after "set -u": tmp, a
// scratch directory removed on exit; cannot REASON, which says why the finding cannot be judged
// and exits 2; version NAME RECORDED RUNNING, which prints the version that runs and warns on
// stderr when the finding was recorded on another; limit SECONDS CMD..., which runs CMD under
// timeout(1) when there is one (exit status 124 when it ran over).
const ReproHelpers = `tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
# cannot says why the bug cannot be judged here and exits 2.
cannot() { echo "repro.sh: cannot judge: $*" >&2; exit 2; }
# version NAME RECORDED RUNNING prints the version that runs and warns when the finding was recorded on another.
version() {
	echo "== $1: $3"
	case "$3" in *"$2"*) ;; *) echo "repro.sh: warning: the finding was recorded on $1 $2; this is $3" >&2 ;; esac
}
# limit SECONDS CMD... runs CMD, killed after SECONDS when timeout(1) is there (exit status 124).
limit() { if command -v timeout >/dev/null; then timeout "$@"; else shift; "$@"; fi; }
`

// ShellQuote quotes s for bash, in single quotes.
func ShellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// ReproLimit returns the time limit, in seconds as shell text, that a reproducer of in gives an
// engine: for a hang twice the campaign's statement timeout (10 s when unknown) and 2 s more, so
// that a run past it reproduces the hang; otherwise $POLYFUZZ_REPRO_TIMEOUT, 300 s by default.
func (in *ReproInfo) ReproLimit() string {
	if in.Kind != KindHang {
		return "${POLYFUZZ_REPRO_TIMEOUT:-300}"
	}
	t := in.Timeout
	if t <= 0 {
		t = 10 * time.Second
	}
	return strconv.Itoa(int(2*t.Seconds() + 2))
}

// PlantedExit returns the lines that say a finding of a planted fault cannot be reproduced by the
// engine's own client and exit 2; "" when in has no fault.
func (in *ReproInfo) PlantedExit() string {
	if in.Fault == "" {
		return ""
	}
	engine := "the first engine"
	if len(in.Targets) > 0 {
		engine = in.Targets[0].Name
	}
	return "\necho " + ShellQuote("repro.sh: this finding came from the fault polyfuzz planted in "+engine+" ("+in.Fault+
		"): polyfuzz's wrapper corrupted the engine's answers, so the engine's own client cannot reproduce it; "+
		"run the replay line above instead") + " >&2\nexit 2\n"
}

// WriteReproHeader writes a reproducer's first lines: the shebang, header as comment lines and
// ReproExitDoc.
func WriteReproHeader(b *strings.Builder, header string) {
	b.WriteString("#!/usr/bin/env bash\n")
	for _, line := range strings.Split(strings.TrimRight(header, "\n"), "\n") {
		b.WriteString("# " + line + "\n")
	}
	b.WriteString(ReproExitDoc)
}

// ErrorMessage returns the engine's message in an error finding's actual line ("CODE: message (in
// the query)"): its first line without the code and the scope, cut to at most 60 bytes (at a
// character boundary) after trim has removed what changes when the case is reduced (nil: nothing).
func (in *ReproInfo) ErrorMessage(trim func(string) string) string {
	msg, _, _ := strings.Cut(in.Actual, "\n")
	for _, scope := range []string{" (in the query)", " (in the setup)"} {
		if m, ok := strings.CutSuffix(msg, scope); ok {
			msg = m
			if _, rest, ok := strings.Cut(msg, ": "); ok {
				msg = rest
			}
		}
	}
	msg = strings.TrimSpace(msg)
	if trim != nil {
		msg = trim(msg)
	}
	if len(msg) > 60 {
		msg = strings.ToValidUTF8(msg[:60], "")
	}
	return msg
}

// BlamedOf returns the engines of engines that the finding blames, all of them when it blames
// none of them.
func (in *ReproInfo) BlamedOf(engines []string) []string {
	var out []string
	for _, e := range engines {
		if slices.Contains(in.Blamed, e) {
			out = append(out, e)
		}
	}
	if len(out) == 0 {
		return engines
	}
	return out
}

// KindJudge names how a reproducer judges a finding by its kind alone: "crash", "hang" or "error"
// (an unexpected error); "" for a wrong result or an invalid model, which the oracle's relation
// judges.
func (in *ReproInfo) KindJudge() string {
	switch in.Kind {
	case KindCrash:
		return "crash"
	case KindHang:
		return "hang"
	case KindUnexpectedError:
		return "error"
	}
	return ""
}
