package childproc

import (
	"os"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
)

// keeperScript is the keeper's program (see the package doc): it reads "+G" (group G started)
// and "-G" (group G reaped) lines and, at the end of its input, kills the groups it still lists.
const keeperScript = `g=' '
while IFS= read -r l; do
	case $l in
	+*) g="$g${l#+} " ;;
	-*) case $g in *" ${l#-} "*) g="${g%% ${l#-} *} ${g#* ${l#-} }" ;; esac ;;
	esac
done
for p in $g; do kill -KILL -$p 2>/dev/null; done
`

var keeper struct {
	once sync.Once
	mu   sync.Mutex
	w    *os.File // the keeper's standard input; nil without a keeper
}

// keep registers the group pgid with the keeper, starting the keeper on first use.
func keep(pgid int) {
	keeper.once.Do(startKeeper)
	tellKeeper('+', pgid)
}

// release takes the group pgid off the keeper's list.
func release(pgid int) { tellKeeper('-', pgid) }

func tellKeeper(op byte, pgid int) {
	keeper.mu.Lock()
	defer keeper.mu.Unlock()
	if keeper.w == nil {
		return
	}
	line := strconv.AppendInt([]byte{op}, int64(pgid), 10)
	if _, err := keeper.w.Write(append(line, '\n')); err != nil {
		keeper.w.Close() // the keeper is gone; Pdeathsig still covers the direct children
		keeper.w = nil
	}
}

// startKeeper starts the keeper in a process group of its own (a Ctrl-C or a kill of polyfuzz's
// group must not reach it) with the read end of a pipe as its input; polyfuzz holds the write
// end, which no other child inherits.
func startKeeper() {
	r, w, err := os.Pipe()
	if err != nil {
		return
	}
	cmd := exec.Command("/bin/sh", "-c", keeperScript)
	cmd.Stdin = r
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	err = cmd.Start()
	r.Close()
	if err != nil {
		w.Close()
		return
	}
	go cmd.Wait() // reap it should it end early
	keeper.w = w
}
