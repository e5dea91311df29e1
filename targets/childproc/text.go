package childproc

import (
	"bytes"
	"strings"
	"sync"
)

// Tail keeps the last bytes written to it and counts all of them; it is an io.Writer for a
// child's stderr. It is safe for concurrent use.
type Tail struct {
	mu    sync.Mutex
	buf   []byte
	max   int
	total int64
}

// NewTail returns a Tail that keeps the last max bytes.
func NewTail(max int) *Tail { return &Tail{max: max} }

// Write keeps the end of b.
func (t *Tail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if len(t.buf) > t.max {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-t.max:]...)
	}
	t.total += int64(len(b))
	return len(b), nil
}

// Total returns how many bytes were written.
func (t *Tail) Total() int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.total
}

// Bytes returns a copy of the bytes the tail holds.
func (t *Tail) Bytes() []byte {
	t.mu.Lock()
	defer t.mu.Unlock()
	return bytes.Clone(t.buf)
}

// String returns the bytes the tail holds.
func (t *Tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}

// Since returns a copy of the bytes written after the first n, as far as the tail still holds
// them.
func (t *Tail) Since(n int64) []byte {
	t.mu.Lock()
	defer t.mu.Unlock()
	k := t.total - n
	if k <= 0 {
		return nil
	}
	k = min(k, int64(len(t.buf)))
	return bytes.Clone(t.buf[int64(len(t.buf))-k:])
}

// CrashPatterns are the texts by which native engines (SMT solvers, Datalog engines, the C and
// C++ runtimes and sanitizers under them) announce that they are crashing, matched as
// case-sensitive substrings.
var CrashPatterns = []string{
	"ASSERTION VIOLATION", "Assertion `", "Assertion failed", "Assertion failure", "assertion failed",
	"Fatal failure", "Internal error", "UNREACHABLE", "Failed to verify", "an invalid model was generated",
	"Segmentation fault", "segfault", "NULL pointer was dereferenced", "AddressSanitizer",
	"LeakSanitizer", "UndefinedBehaviorSanitizer", "MemorySanitizer", "ThreadSanitizer",
	"runtime error:", "terminate called", "Unhandled exception", "CAUGHT SIGNAL",
}

// GoCrashPatterns are the texts by which a Go program announces that it is crashing (a panic, a
// fatal runtime error, a signal in C code called through cgo).
var GoCrashPatterns = []string{"panic: ", "fatal error: ", "SIGSEGV", "SIGBUS", "SIGABRT", "SIGILL", "SIGFPE"}

// CrashAt returns the offset of the start of the first line of b that holds one of patterns,
// or -1.
func CrashAt(b []byte, patterns []string) int {
	at := -1
	for _, p := range patterns {
		if i := bytes.Index(b, []byte(p)); i >= 0 && (at < 0 || i < at) {
			at = i
		}
	}
	if at < 0 {
		return -1
	}
	return bytes.LastIndexByte(b[:at], '\n') + 1
}

// CrashAtLineStart is CrashAt for patterns that count only at the start of a line (after
// blanks), for output that may quote the input elsewhere.
func CrashAtLineStart(b []byte, patterns []string) int {
	for start := 0; start < len(b); {
		end := bytes.IndexByte(b[start:], '\n')
		if end < 0 {
			end = len(b)
		} else {
			end += start
		}
		line := bytes.TrimLeft(b[start:end], " \t\r")
		for _, p := range patterns {
			if bytes.HasPrefix(line, []byte(p)) {
				return start
			}
		}
		start = end + 1
	}
	return -1
}

// FirstLine returns the first line of b without surrounding blanks, at most max bytes.
func FirstLine(b []byte, max int) string {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		b = b[:i]
	}
	b = bytes.TrimSpace(b)
	return string(b[:min(len(b), max)])
}

// OneLine joins the non-empty lines of b, without surrounding blanks, with "; " and trims the
// result to max bytes.
func OneLine(b []byte, max int) string {
	var sb strings.Builder
	for len(b) > 0 && sb.Len() < max {
		var l []byte
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			l, b = b[:i], b[i+1:]
		} else {
			l, b = b, nil
		}
		if l = bytes.TrimSpace(l); len(l) == 0 {
			continue
		}
		if sb.Len() > 0 {
			sb.WriteString("; ")
		}
		sb.Write(l)
	}
	s := sb.String()
	return s[:min(len(s), max)]
}

// LastLines returns the last lines of b, at most max bytes, joined with "; " (a line cut by
// the limit is dropped, unless it is the only one).
func LastLines(b []byte, max int) string {
	b = bytes.TrimSpace(b)
	if len(b) > max {
		b = b[len(b)-max:]
		if i := bytes.IndexByte(b, '\n'); i >= 0 && i < len(b)-1 {
			b = b[i+1:]
		}
	}
	return OneLine(b, max)
}
