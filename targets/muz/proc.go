package muz

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"syscall"
)

// proc is one running z3 process reading SMT-LIB on stdin.
type proc struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	out    *os.File // the read end of z3's stdout
	stdout *bufio.Reader
	stderr *tail
	done   chan struct{} // closed when the process has been reaped
	killed atomic.Bool
}

// startProc starts argv in its own process group.
func startProc(argv []string) (*proc, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	p := &proc{cmd: cmd, stderr: &tail{max: 4 << 10}, done: make(chan struct{})}
	cmd.Stderr = p.stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	// stdout is a pipe of our own, not cmd.StdoutPipe, which Wait closes: what z3 printed
	// before it died stays readable.
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd.Stdout = w
	err = cmd.Start()
	w.Close()
	if err != nil {
		r.Close()
		return nil, err
	}
	p.stdin, p.out, p.stdout = in, r, bufio.NewReaderSize(r, 64<<10)
	go func() { cmd.Wait(); close(p.done) }()
	return p, nil
}

// kill kills the process group; it is safe to call more than once, from any goroutine.
func (p *proc) kill() {
	if p.killed.Swap(true) {
		return
	}
	syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
	p.cmd.Process.Kill()
}

// stop kills the process and waits for it.
func (p *proc) stop() {
	p.kill()
	p.stdin.Close()
	<-p.done
	p.out.Close()
}

// exit waits for the process to end and describes how it ended; crashed is false for an exit
// with status 0, or 1, which z3 uses after it printed an error.
func (p *proc) exit() (desc string, crashed bool) {
	<-p.done
	ps := p.cmd.ProcessState
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return fmt.Sprintf("exited with signal %d (%s)", int(ws.Signal()), ws.Signal()), true
	}
	return fmt.Sprintf("exited with status %d", ps.ExitCode()), ps.ExitCode() > 1
}

// tail keeps the last max bytes written to it.
type tail struct {
	mu  sync.Mutex
	buf []byte
	max int
}

func (t *tail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if len(t.buf) > t.max {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-t.max:]...)
	}
	return len(b), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}
