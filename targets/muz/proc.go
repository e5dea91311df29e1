package muz

import (
	"bufio"
	"os/exec"

	"github.com/polyfuzz/polyfuzz/targets/childproc"
)

// proc is one running z3 process reading SMT-LIB on stdin.
type proc struct {
	*childproc.Process
	stdout *bufio.Reader // over Stdout, which stays readable after z3 died
	stderr *childproc.Tail
}

// startProc starts argv (see childproc.StartPiped).
func startProc(argv []string) (*proc, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	p := &proc{stderr: childproc.NewTail(4 << 10)}
	cmd.Stderr = p.stderr
	cp, err := childproc.StartPiped(cmd)
	if err != nil {
		return nil, err
	}
	p.Process, p.stdout = cp, bufio.NewReaderSize(cp.Stdout, 64<<10)
	return p, nil
}

// stop kills the process and waits for it.
func (p *proc) stop() { p.Close() }

// exit waits for the process to end and describes how it ended; crashed is false for an exit
// with status 0, or 1, which z3 uses after it printed an error.
func (p *proc) exit() (desc string, crashed bool) {
	e := p.Wait()
	return e.String(), e.Signaled() || e.Code > 1
}
