# The part of the protocol every Python row server shares (see package rowserver): StartPython
# puts it before the server's own program, which defines how to answer one program and calls
# serve.
import os
import sys

# ESCAPES escapes a field or message: backslash, tab, newline and carriage return.
ESCAPES = str.maketrans({"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"})

# RESET is the program of a target's Reset (rowserver.ResetProgram): serve answers it by calling
# the server's reset function.
RESET = "\x00reset"


def missing(name, e):
    """Greets with "polyfuzz-NAME-missing" and the ImportError e, which StartPython turns into an
    error that names the fix, and exits."""
    print("polyfuzz-%s-missing %s" % (name, e), flush=True)
    sys.exit(3)


def failure(code, msg):
    """The answer of an engine error: "E", a tab, code, a raw tab and the escaped message (see
    Server.ExecRows)."""
    return "E\t" + code + "\t" + msg.strip().translate(ESCAPES) + "\n"


def answer_rows(rows):
    """The answer of rows, each a sequence of tagged values escaped already: an "R" line for each,
    then "OK"."""
    return "".join(["R" + "".join(["\t" + v for v in row]) + "\n" for row in rows]) + "OK\n"


def serve(hello, answer, failed, errors="replace", reset=None):
    """Greets with hello, then answers each request (a line with a length, then that many bytes)
    with answer(program), the rows and "OK" or an "E" line; the program RESET calls reset (when
    given) and answers "OK". An exception that escapes answer or reset is the engine itself
    failing: "failed: ..." goes to standard error and the process exits with status 70, which the
    Go side reports as a crash."""
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
            if reset is not None and prog == RESET:
                reset()
                out = "OK\n"
            else:
                out = answer(prog)
        except BaseException as e:
            sys.stderr.write("%s: %s: %s\n" % (failed, type(e).__name__, e))
            sys.stderr.flush()
            os._exit(70)
        stdout.write(out.encode("utf-8", errors))
        stdout.flush()
