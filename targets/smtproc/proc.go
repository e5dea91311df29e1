package smtproc

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync/atomic"
	"syscall"
	"time"
)

// proc is one running solver process.
type proc struct {
	cmd    *exec.Cmd
	pid    int
	w      *os.File      // the solver's stdin
	r      *os.File      // the solver's stdout
	br     *bufio.Reader // over r
	efd    int           // the read end of the solver's stderr, non-blocking
	errR   *os.File      // owns efd
	stderr *ring         // what drainStderr read from efd
	done   chan struct{} // closed when the process has been reaped

	// timer kills the process when a statement runs past its deadline; it is created once and
	// re-armed per statement.
	timer  *time.Timer
	killed atomic.Bool
}

// startProc starts argv with the solver's stdin and stdout on blocking pipes (a read blocks in
// the kernel and wakes at once, which is faster than the runtime's poller for a round trip).
func startProc(argv, env []string) (*proc, error) {
	inR, inW, err := blockingPipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := blockingPipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	errR, errW, err := blockingPipe()
	if err != nil {
		inR.Close()
		inW.Close()
		outR.Close()
		outW.Close()
		return nil, err
	}
	// stderr is not read by a goroutine but drained after every answer, so that what the solver
	// wrote there before it answered is always seen with that answer. A larger pipe keeps a
	// chatty solver from blocking on it in between (best effort: 1 MiB is Linux's default cap).
	syscall.Syscall(syscall.SYS_FCNTL, errR.Fd(), fSetPipeSize, 1<<20)
	syscall.SetNonblock(int(errR.Fd()), true)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	p := &proc{cmd: cmd, w: inW, r: outR, efd: int(errR.Fd()), errR: errR, stderr: &ring{max: 8 << 10},
		done: make(chan struct{})}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if len(env) > 0 {
		cmd.Env = append(os.Environ(), env...)
	}
	err = cmd.Start()
	inR.Close()
	outW.Close()
	errW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		errR.Close()
		return nil, err
	}
	p.pid = cmd.Process.Pid
	p.br = bufio.NewReaderSize(outR, 64<<10)
	p.timer = time.AfterFunc(time.Hour, p.kill)
	p.timer.Stop()
	go func() { cmd.Wait(); close(p.done) }()
	return p, nil
}

// kill kills the process group. It is safe to call more than once and from any goroutine.
func (p *proc) kill() {
	if p.killed.Swap(true) {
		return
	}
	syscall.Kill(-p.pid, syscall.SIGKILL)
	p.cmd.Process.Kill()
}

// stop kills the process, reaps it and closes the pipes.
func (p *proc) stop() {
	p.timer.Stop()
	p.kill()
	<-p.done
	p.w.Close()
	p.r.Close()
	p.errR.Close()
}

// fSetPipeSize is Linux's F_SETPIPE_SZ fcntl.
const fSetPipeSize = 1031

// drainStderr reads what the solver has written to stderr so far into the ring and returns how
// many bytes the ring had received before.
func (p *proc) drainStderr() int64 {
	before := p.stderr.total
	var buf [4096]byte
	for {
		n, err := syscall.Read(p.efd, buf[:])
		if n > 0 {
			p.stderr.Write(buf[:n])
		}
		if err == syscall.EINTR {
			continue
		}
		if n <= 0 || err != nil {
			return before
		}
	}
}

// arm starts the deadline for the next answer; d <= 0 means none.
func (p *proc) arm(d time.Duration) {
	if d > 0 {
		p.timer.Reset(d)
	}
}

// disarm stops the deadline. It returns false when the deadline has fired (or is firing), in
// which case the process is being killed.
func (p *proc) disarm(d time.Duration) bool {
	if d <= 0 {
		return true
	}
	return p.timer.Stop()
}

// exitStatus waits up to wait for the process to end (killing it after that), and describes
// how it ended: "exited with status 3", "exited with status 139 (signal 11, segmentation
// fault)". normal is true for an exit (not a signal) with the returned code.
func (p *proc) exitStatus(wait time.Duration) (desc string, code int, normal bool) {
	select {
	case <-p.done:
	case <-time.After(wait):
		p.kill()
		<-p.done
	}
	p.drainStderr()
	ps := p.cmd.ProcessState
	if ps == nil {
		return "ended", -1, false
	}
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		sig := ws.Signal()
		return fmt.Sprintf("exited with status %d (signal %d, %s)", 128+int(sig), int(sig), sig), 128 + int(sig), false
	}
	return fmt.Sprintf("exited with status %d", ps.ExitCode()), ps.ExitCode(), true
}

// write sends b to the solver. A large b is written by a goroutine, so that a solver that
// answers while it still reads cannot block both sides on full pipes; wait for the returned
// channel before reusing b.
func (p *proc) write(b []byte) <-chan struct{} {
	if len(b) <= 32<<10 {
		p.w.Write(b) // an error means the process is gone, which the read sees as EOF
		return nil
	}
	done := make(chan struct{})
	go func() { p.w.Write(b); close(done) }()
	return done
}

// readUntil reads stdout up to the line that ends with marker (bare or quoted) and appends the
// output before it to out. found is false when stdout ended first.
func (p *proc) readUntil(marker []byte, out []byte) (_ []byte, found bool) {
	for {
		line, err := p.br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			out = append(out, line...)
			continue
		}
		if len(line) > 0 && err == nil {
			if i := markerAt(line, marker); i >= 0 {
				if pre := bytes.TrimSpace(line[:i]); len(pre) > 0 {
					out = append(out, pre...)
					out = append(out, '\n')
				}
				return out, true
			}
		}
		out = append(out, line...)
		if err != nil {
			return out, false
		}
	}
}

// markerAt returns where the marker (or its quoted form) starts in line, which ends the line
// apart from a quote and trailing blanks, or -1.
func markerAt(line, marker []byte) int {
	e := len(line)
	for e > 0 && (line[e-1] == '\n' || line[e-1] == '\r' || line[e-1] == ' ' || line[e-1] == '\t') {
		e--
	}
	quoted := e > 0 && line[e-1] == '"'
	if quoted {
		e--
	}
	if e < len(marker) || !bytes.Equal(line[e-len(marker):e], marker) {
		return -1
	}
	s := e - len(marker)
	if quoted {
		if s == 0 || line[s-1] != '"' {
			return -1
		}
		s--
	}
	return s
}

// ring keeps the last max bytes written to it and counts all of them. Only the target's
// goroutine uses it.
type ring struct {
	buf   []byte
	max   int
	total int64
}

func (r *ring) Write(b []byte) (int, error) {
	r.buf = append(r.buf, b...)
	if len(r.buf) > r.max {
		r.buf = append(r.buf[:0], r.buf[len(r.buf)-r.max:]...)
	}
	r.total += int64(len(b))
	return len(b), nil
}

// since returns the bytes written after the first n (as far as the ring still holds them).
func (r *ring) since(n int64) []byte {
	k := r.total - n
	if k <= 0 {
		return nil
	}
	k = min(k, int64(len(r.buf)))
	return r.buf[int64(len(r.buf))-k:]
}

// all returns what the ring holds.
func (r *ring) all() []byte { return r.buf }

var _ io.Writer = (*ring)(nil)

func blockingPipe() (r, w *os.File, err error) {
	var p [2]int
	if err := syscall.Pipe2(p[:], syscall.O_CLOEXEC); err != nil {
		return nil, nil, fmt.Errorf("pipe: %w", err)
	}
	return os.NewFile(uintptr(p[0]), "pipe-r"), os.NewFile(uintptr(p[1]), "pipe-w"), nil
}

var errClosed = errors.New("smtproc: target is closed")
