// Package childproc starts the processes polyfuzz runs engines in (solvers, Datalog engines,
// the isolated child of an in-process engine) so that none of them outlives polyfuzz, and gives
// their users one way to talk to them, kill them and tell how they ended.
//
// # Lifetime
//
// [Start] puts the child in a process group of its own (so that a Ctrl-C at the terminal reaches
// polyfuzz only, and a kill reaches every process of the child's group: a wrapper script and the
// solver it runs) and asks the kernel to SIGKILL the child when polyfuzz dies
// (SysProcAttr.Pdeathsig). Pdeathsig reaches the child only, not what the child started, so
// Start also registers the group with a keeper: one small shell process per polyfuzz process,
// started on first use, that reads group ids on a pipe and, when the pipe reaches its end (polyfuzz
// exited, however it died, even by SIGKILL), kills every group still registered. A group leaves the
// keeper's list when its leader has been reaped. Without /bin/sh the keeper is missing and only
// the direct child dies with polyfuzz.
//
// When the child exits or is killed, its group is killed too before the child is reaped, so a
// wrapper's hanging grandchild never outlives the wrapper, and the group id cannot have been
// reused by then. The kernel sends Pdeathsig when the thread that started the child ends, not the
// process; Start therefore starts every child from one goroutine locked to a thread that never
// ends.
//
// # Talking to a child
//
// [StartPiped] connects the child's standard input and output to blocking pipes (a read blocks in
// the kernel and wakes at once, faster than the runtime's poller for one round trip at a time).
// [Tail] keeps the end of what a child wrote to stderr; [CrashAt], [OneLine] and [LastLines] find
// and format the message of a crash; [Exit] says how a child ended, in one format for every
// engine ("exited with status 3", "exited with status 139 (signal 11, segmentation fault)").
//
// This package imports only the standard library and runs on Linux.
package childproc

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"
)

// Process is a running (or ended) child. Its methods may be called from any goroutine.
type Process struct {
	// Stdin and Stdout are the parent's ends of the child's standard input and output when
	// StartPiped started it, nil after Start. Stdout stays readable after the child has ended
	// (what it printed before it died is still there) until Close.
	Stdin, Stdout *os.File

	cmd    *exec.Cmd
	pid    int
	done   chan struct{} // closed when the child has been reaped
	exit   Exit          // valid once done is closed
	closed atomic.Bool

	mu     sync.Mutex
	exited bool // the child has exited and its group been killed: Kill does nothing
}

// Start starts cmd in a process group of its own that dies with polyfuzz (see the package doc).
// It adds Setpgid and Pdeathsig to cmd.SysProcAttr, keeping the rest. cmd.Wait must not be
// called: the Process reaps the child.
func Start(cmd *exec.Cmd) (*Process, error) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	cmd.SysProcAttr.Pgid = 0
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
	if cmd.WaitDelay == 0 {
		cmd.WaitDelay = time.Second // a process that left the group may hold a stderr pipe open
	}
	var err error
	onSpawnThread(func() { err = cmd.Start() })
	if err != nil {
		return nil, err
	}
	p := &Process{cmd: cmd, pid: cmd.Process.Pid, done: make(chan struct{})}
	keep(p.pid)
	go p.reap()
	return p, nil
}

// StartPiped starts cmd like Start, with its standard input and output connected to new
// blocking pipes, whose parent ends are p.Stdin and p.Stdout. cmd.Stdin and cmd.Stdout must be
// nil.
func StartPiped(cmd *exec.Cmd) (*Process, error) {
	inR, inW, err := Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	cmd.Stdin, cmd.Stdout = inR, outW
	p, err := Start(cmd)
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, err
	}
	p.Stdin, p.Stdout = inW, outR
	return p, nil
}

// Run runs cmd to its end like Start, killing its group when ctx is done first, and returns how
// it ended. The error is Start's, or ctx's when ctx ended the run. Set cmd.Stdout and cmd.Stderr
// to collect the output.
func Run(ctx context.Context, cmd *exec.Cmd) (Exit, error) {
	if err := ctx.Err(); err != nil {
		return Exit{Code: -1}, err
	}
	p, err := Start(cmd)
	if err != nil {
		return Exit{Code: -1}, err
	}
	stop := context.AfterFunc(ctx, p.Kill)
	e := p.Wait()
	if !stop() && ctx.Err() != nil {
		return e, ctx.Err()
	}
	return e, nil
}

// CombinedOutput runs cmd like Run and returns what it wrote to its standard output and error.
// An exit with a status other than 0 is an error that says how it ended.
func CombinedOutput(ctx context.Context, cmd *exec.Cmd) ([]byte, error) {
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	e, err := Run(ctx, cmd)
	if err == nil && e.Code != 0 {
		err = errors.New(e.String())
	}
	return out.Bytes(), err
}

// reap waits until the child has exited, kills what is left of its group while the child's
// zombie still holds the group id, then reaps the child and takes the group off the keeper's list.
func (p *Process) reap() {
	waitExited(p.pid)
	p.mu.Lock()
	syscall.Kill(-p.pid, syscall.SIGKILL)
	p.exited = true
	p.mu.Unlock()
	p.cmd.Wait()
	p.exit = exitOf(p.cmd.ProcessState)
	release(p.pid)
	close(p.done)
}

// Pid returns the child's process id, which is also its group's id.
func (p *Process) Pid() int { return p.pid }

// Done returns a channel that is closed when the child has ended and been reaped.
func (p *Process) Done() <-chan struct{} { return p.done }

// Kill sends SIGKILL to the child's process group. It is safe to call more than once, from any
// goroutine, and after the child has ended.
func (p *Process) Kill() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.exited { // after that the group is dead, and once reaped its id may be someone else's
		syscall.Kill(-p.pid, syscall.SIGKILL)
	}
}

// Wait waits for the child to end and returns how it ended.
func (p *Process) Wait() Exit {
	<-p.done
	return p.exit
}

// Await waits up to d for the child to end by itself, kills its group if it has not, and
// returns how it ended. d <= 0 kills at once.
func (p *Process) Await(d time.Duration) Exit {
	if d > 0 {
		t := time.NewTimer(d)
		select {
		case <-p.done:
		case <-t.C:
		}
		t.Stop()
	}
	p.Kill()
	return p.Wait()
}

// Close kills the child's group, reaps the child and closes Stdin and Stdout. It is safe to call
// more than once.
func (p *Process) Close() error {
	p.Await(0)
	if !p.closed.Swap(true) {
		if p.Stdin != nil {
			p.Stdin.Close()
		}
		if p.Stdout != nil {
			p.Stdout.Close()
		}
	}
	return nil
}

// Exit says how a child ended.
type Exit struct {
	// Code is the exit status, or 128 plus the signal that killed the child (a shell's
	// convention); -1 when the status is unknown.
	Code int
	// Signal is the signal that killed the child, 0 when it exited.
	Signal syscall.Signal
}

// Signaled reports whether a signal killed the child.
func (e Exit) Signaled() bool { return e.Signal != 0 }

// String describes the end: "exited with status 3", "exited with status 139 (signal 11,
// segmentation fault)", or "ended" when the status is unknown.
func (e Exit) String() string {
	switch {
	case e.Signal != 0:
		return fmt.Sprintf("exited with status %d (signal %d, %s)", e.Code, int(e.Signal), e.Signal)
	case e.Code < 0:
		return "ended"
	}
	return fmt.Sprintf("exited with status %d", e.Code)
}

func exitOf(ps *os.ProcessState) Exit {
	if ps == nil {
		return Exit{Code: -1}
	}
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return Exit{Code: 128 + int(ws.Signal()), Signal: ws.Signal()}
	}
	return Exit{Code: ps.ExitCode()}
}

// Pipe returns a pipe whose ends block in the kernel (they are not registered with the runtime's
// poller, so closing one does not wake a reader blocked on it; the writer's end does by closing).
// Both ends are closed on exec.
func Pipe() (r, w *os.File, err error) {
	var fds [2]int
	if err := syscall.Pipe2(fds[:], syscall.O_CLOEXEC); err != nil {
		return nil, nil, fmt.Errorf("pipe: %w", err)
	}
	return os.NewFile(uintptr(fds[0]), "pipe-r"), os.NewFile(uintptr(fds[1]), "pipe-w"), nil
}

// waitExited blocks until the process pid has exited, without reaping it (waitid with WNOWAIT).
func waitExited(pid int) {
	const pPid, wExited, wNowait = 1, 4, 0x01000000
	var info [128]byte // siginfo_t
	for {
		_, _, e := syscall.Syscall6(syscall.SYS_WAITID, pPid, uintptr(pid), uintptr(unsafe.Pointer(&info[0])), wExited|wNowait, 0, 0)
		if e != syscall.EINTR {
			return
		}
	}
}

// spawn is the goroutine, locked to its thread for good, that starts every child: the kernel
// sends Pdeathsig when the thread that forked the child ends.
var spawn struct {
	once sync.Once
	reqs chan func()
}

func onSpawnThread(f func()) {
	spawn.once.Do(func() {
		spawn.reqs = make(chan func())
		go func() {
			runtime.LockOSThread() // never unlocked: the thread lives as long as the process
			for f := range spawn.reqs {
				f()
			}
		}()
	})
	done := make(chan struct{})
	spawn.reqs <- func() { defer close(done); f() }
	<-done
}
