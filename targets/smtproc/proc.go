package smtproc

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"os/exec"
	"syscall"
	"time"

	"github.com/polyfuzz/polyfuzz/targets/childproc"
)

// proc is one running solver process.
type proc struct {
	*childproc.Process
	br     *bufio.Reader   // over Stdout
	efd    int             // the read end of the solver's stderr, non-blocking
	errR   *os.File        // owns efd
	stderr *childproc.Tail // what drainStderr read from efd

	// timer kills the process when a statement runs past its deadline; it is created once and
	// re-armed per statement.
	timer *time.Timer
}

// startProc starts argv with the solver's stdin and stdout on blocking pipes (see
// childproc.StartPiped).
func startProc(argv, env []string) (*proc, error) {
	errR, errW, err := childproc.Pipe()
	if err != nil {
		return nil, err
	}
	// stderr is not read by a goroutine but drained after every answer, so that what the solver
	// wrote there before it answered is always seen with that answer. A larger pipe keeps a
	// chatty solver from blocking on it in between (best effort: 1 MiB is Linux's default cap).
	syscall.Syscall(syscall.SYS_FCNTL, errR.Fd(), fSetPipeSize, 1<<20)
	syscall.SetNonblock(int(errR.Fd()), true)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stderr = errW
	if len(env) > 0 {
		cmd.Env = append(os.Environ(), env...)
	}
	cp, err := childproc.StartPiped(cmd)
	errW.Close()
	if err != nil {
		errR.Close()
		return nil, err
	}
	p := &proc{Process: cp, br: bufio.NewReaderSize(cp.Stdout, 64<<10), efd: int(errR.Fd()), errR: errR,
		stderr: childproc.NewTail(8 << 10)}
	p.timer = time.AfterFunc(time.Hour, p.Kill)
	p.timer.Stop()
	return p, nil
}

// stop kills the process, reaps it and closes the pipes.
func (p *proc) stop() {
	p.timer.Stop()
	p.Close()
	p.errR.Close()
}

// fSetPipeSize is Linux's F_SETPIPE_SZ fcntl.
const fSetPipeSize = 1031

// drainStderr reads what the solver has written to stderr so far into the tail and returns how
// many bytes the tail had received before.
func (p *proc) drainStderr() int64 {
	before := p.stderr.Total()
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

// exitStatus waits up to wait for the process to end (killing it after that), drains its
// stderr, and says how it ended.
func (p *proc) exitStatus(wait time.Duration) childproc.Exit {
	e := p.Await(wait)
	p.drainStderr()
	return e
}

// write sends b to the solver. A large b is written by a goroutine, so that a solver that
// answers while it still reads cannot block both sides on full pipes; wait for the returned
// channel before reusing b.
func (p *proc) write(b []byte) <-chan struct{} {
	if len(b) <= 32<<10 {
		p.Stdin.Write(b) // an error means the process is gone, which the read sees as EOF
		return nil
	}
	done := make(chan struct{})
	go func() { p.Stdin.Write(b); close(done) }()
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

// crashText returns the text of b from the first line that holds a crash pattern, on one line
// and trimmed to max bytes, or "".
func crashText(b []byte, max int) string {
	if i := childproc.CrashAt(b, childproc.CrashPatterns); i >= 0 {
		return childproc.OneLine(b[i:], max)
	}
	return ""
}

var errClosed = errors.New("smtproc: target is closed")
