//go:build z3lib

package z3lib

/*
#cgo LDFLAGS: -lz3
#include <stdlib.h>
#include <string.h>
#include <z3.h>

// pf_z3_error is the context's error handler: libz3's default one exits the process. The error
// stays readable with Z3_get_error_code until the next call.
static void pf_z3_error(Z3_context c, Z3_error_code e) { (void)c; (void)e; }

static Z3_context pf_z3_new(void) {
	Z3_config cfg = Z3_mk_config();
	Z3_context c = Z3_mk_context_rc(cfg);
	Z3_del_config(cfg);
	if (c) Z3_set_error_handler(c, pf_z3_error);
	return c;
}

static void pf_z3_version(unsigned *v) { Z3_get_version(&v[0], &v[1], &v[2], &v[3]); }

// pf_z3_fault makes libz3 itself crash: it hands Z3_inc_ref an AST pointer that points
// nowhere, which libz3 dereferences (a segfault inside the library, as a solver bug would cause).
static void pf_z3_fault(Z3_context c) { Z3_inc_ref(c, (Z3_ast)(size_t)16); }
*/
import "C"

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"
	"unsafe"

	"github.com/polyfuzz/polyfuzz/fuzz"
	"github.com/polyfuzz/polyfuzz/targets/smtproc"
)

// Name is the target's name in titles.
const Name = "z3lib"

// Options configure an in-process Z3.
type Options struct {
	// Timeout bounds one statement as for smtproc (see the package doc); 0 means no limit.
	Timeout time.Duration
	// FaultOn, when not empty, makes libz3 segfault on a statement that contains it: the
	// injected crash that tests of crash isolation use.
	FaultOn string
	// HangOn, when not empty, makes the binding block without end on a statement that contains
	// it, as a libz3 call that ignores Z3_interrupt does: the injected hang that tests of the
	// isolated child's timeout use.
	HangOn string
	// FreshContext replaces the context between instances instead of sending it (reset), as a
	// z3 process gets it. It is slower (every theory is set up again) and no closer to the
	// process's models: libz3's (reset) keeps the context's terms (their ids), and a fresh API
	// context finds other models than z3 -in as well.
	FreshContext bool
}

// Target is one Z3 context behind the fuzz.Target contract. It is used by one goroutine.
type Target struct {
	opts         Options
	version      string
	ctx          C.Z3_context
	pendingReset bool // "(reset)" goes in front of the next statement
	fresh        bool // the next statement gets a new context
	closed       bool
	// Contexts counts the contexts made (the first one and one per timeout), for statistics.
	Contexts int
}

var _ fuzz.Target = (*Target)(nil)

// paramMu guards libz3's global parameters, which are not thread-safe.
var paramMu sync.Mutex

// New makes a Z3 context.
func New(o Options) (*Target, error) {
	if o.Timeout > 0 {
		paramMu.Lock()
		k, v := C.CString("timeout"), C.CString(strconv.FormatInt(o.Timeout.Milliseconds(), 10))
		C.Z3_global_param_set(k, v)
		C.free(unsafe.Pointer(k))
		C.free(unsafe.Pointer(v))
		paramMu.Unlock()
	}
	t := &Target{opts: o, version: Version()}
	if err := t.newContext(); err != nil {
		return nil, err
	}
	return t, nil
}

// Version returns libz3's version, "4.8.12".
func Version() string {
	var v [4]C.uint
	C.pf_z3_version(&v[0])
	return fmt.Sprintf("%d.%d.%d", v[0], v[1], v[2])
}

func (t *Target) newContext() error {
	t.delContext()
	paramMu.Lock() // a context reads the global parameters when it is made
	t.ctx = C.pf_z3_new()
	paramMu.Unlock()
	if t.ctx == nil {
		return errors.New("z3lib: libz3 could not make a context")
	}
	t.Contexts++
	t.pendingReset, t.fresh = false, false
	return nil
}

func (t *Target) delContext() {
	if t.ctx != nil {
		C.Z3_del_context(t.ctx)
		t.ctx = nil
	}
}

// Name returns "z3lib".
func (t *Target) Name() string { return Name }

// Version returns libz3's version.
func (t *Target) Version() string { return t.version }

// Reset queues (reset) for the next statement (or, with Options.FreshContext, makes it run on a
// new context).
func (t *Target) Reset(context.Context) error {
	if t.closed {
		return errClosed
	}
	if t.ctx == nil || t.opts.FreshContext {
		t.fresh = true
		return nil
	}
	t.pendingReset = true
	return nil
}

// Exec runs one statement: any sequence of SMT-LIB commands.
func (t *Target) Exec(ctx context.Context, stmt string) (*fuzz.Result, error) {
	if t.closed {
		return nil, errClosed
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if !smtproc.Sendable(stmt) {
		return smtproc.Answer(stmt, nil), nil
	}
	if t.ctx == nil || t.fresh {
		if err := t.newContext(); err != nil {
			return nil, err
		}
	}
	script := stmt
	if t.pendingReset {
		script = "(reset)\n" + stmt
		t.pendingReset = false
	}
	if t.opts.FaultOn != "" && strings.Contains(stmt, t.opts.FaultOn) {
		C.pf_z3_fault(t.ctx)
	}
	if t.opts.HangOn != "" && strings.Contains(stmt, t.opts.HangOn) {
		select {}
	}
	out, interrupted := t.eval(ctx, script)
	if interrupted {
		// An interrupted context stays cancelled: the next statement gets a fresh one.
		t.delContext()
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		return &fuzz.Result{Status: fuzz.StatusTimeout,
			Err: fmt.Sprintf("no answer within %s; %s interrupted", t.hardTimeout(), Name)}, nil
	}
	r := smtproc.Answer(stmt, out)
	if r.Status == fuzz.StatusCrash {
		r.Err = Name + ": " + r.Err
		t.delContext()
	}
	return r, nil
}

// eval runs script on the context and returns what libz3 printed. interrupted says that the
// hard limit or ctx interrupted it.
func (t *Target) eval(ctx context.Context, script string) (out []byte, interrupted bool) {
	var mu sync.Mutex
	running, fired := true, false
	zc := t.ctx
	interrupt := func() {
		mu.Lock()
		defer mu.Unlock()
		if running {
			fired = true
			C.Z3_interrupt(zc)
		}
	}
	if d := t.hardTimeout(); d > 0 {
		timer := time.AfterFunc(d, interrupt)
		defer timer.Stop()
	}
	if ctx.Done() != nil {
		stop := context.AfterFunc(ctx, interrupt)
		defer stop()
	}
	cs := C.CString(script)
	res := C.Z3_eval_smtlib2_string(zc, cs)
	C.free(unsafe.Pointer(cs))
	if res != nil {
		out = C.GoBytes(unsafe.Pointer(res), C.int(C.strlen(res)))
	}
	mu.Lock()
	running = false
	mu.Unlock()
	return out, fired
}

// hardTimeout is the time a statement may take before it is interrupted; 0 means no limit. It
// is smtproc's for the process.
func (t *Target) hardTimeout() time.Duration {
	if t.opts.Timeout <= 0 {
		return 0
	}
	return t.opts.Timeout + t.opts.Timeout/4 + 250*time.Millisecond
}

// Close deletes the context.
func (t *Target) Close() error {
	if !t.closed {
		t.closed = true
		t.delContext()
	}
	return nil
}

var errClosed = errors.New("z3lib: target is closed")
