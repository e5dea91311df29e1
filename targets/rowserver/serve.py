# The part of the protocol every Python row server shares (see package rowserver): StartPython
# puts it before the server's own program, which defines how to answer one program and calls
# serve.
import os
import sys

# ESCAPES escapes a field or message: backslash, tab, newline and carriage return.
ESCAPES = str.maketrans({"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"})


def serve(hello, answer, failed, errors="replace"):
    """Greets with hello, then answers each request (a line with a length, then that many bytes)
    with answer(program), the rows and "OK" or an "E" line. An exception that escapes answer is
    the engine itself failing: "failed: ..." goes to standard error and the process exits with
    status 70, which the Go side reports as a crash."""
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    stdout.write((hello + "\n").encode())
    stdout.flush()
    while True:
        line = stdin.readline()
        if not line:
            return
        if not line.strip():
            continue
        prog = stdin.read(int(line)).decode("utf-8", "replace")
        try:
            out = answer(prog)
        except BaseException as e:
            sys.stderr.write("%s: %s: %s\n" % (failed, type(e).__name__, e))
            sys.stderr.flush()
            os._exit(70)
        stdout.write(out.encode("utf-8", errors))
        stdout.flush()

