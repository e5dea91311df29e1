# A warm Boolector process for polyfuzz: reads SMT-LIB commands on stdin and answers each like
# Boolector's own executable would, through pyboolector (its wheels carry no executable), but
# goes on after an error. pyboolector parses SMT-LIB only as whole files, into a solver that
# cannot be reused after them, so at each command that answers (check-sat, get-value, ...) the
# bridge runs the commands since the last reset in a new solver and prints only the new part of
# its output: earlier answers are the same each time, since the solver is deterministic. A
# command Boolector rejects is answered with (error "...") and left out of later runs. The caller
# puts the pyboolector module's folder on sys.path and common.py's functions before this program.
import ctypes
import os
import re
import sys
import tempfile

import pyboolector

LOUD = ("check-sat", "check-sat-assuming", "get-value", "get-model", "get-assignment", "echo",
        "get-info", "get-option", "get-unsat-core", "get-unsat-assumptions")
LIBC = ctypes.CDLL(None)
LINE = re.compile(r":(\d+):\d+:")


def name(text):
    return text[1:-1].split(None, 1)[0] if text[1:-1].split() else ""


class Bridge:
    def __init__(self):
        fd, self.path = tempfile.mkstemp(suffix=".smt2")
        os.close(fd)
        self.reset()

    def reset(self):
        self.cmds, self.printed = [], 0

    def solve(self, cmds):
        """Runs cmds in a new Boolector; returns its output and its error (or None)."""
        with open(self.path, "w") as f:
            f.write("\n".join(c.replace("\n", " ") for c in cmds) + "\n")
        b = pyboolector.Boolector()
        opts = {o.lng: i for i, o in enumerate(b.Options())}
        b.Set_opt(opts["incremental"], 1)
        b.Set_opt(opts["model-gen"], 1)
        # Boolector prints to the C library's stdout: catch fd 1 in a file for the run.
        sys.stdout.flush()
        saved = os.dup(1)
        with tempfile.TemporaryFile() as out:
            os.dup2(out.fileno(), 1)
            try:
                _, _, err = b.Parse(self.path)
            except Exception as e:
                err = str(e)
            finally:
                LIBC.fflush(None)
                os.dup2(saved, 1)
                os.close(saved)
            out.seek(0)
            return out.read().decode(errors="replace"), err

    def run(self, text):
        cmd = name(text)
        if cmd == "exit":
            sys.exit(0)
        if cmd == "reset":
            self.reset()
            return
        self.cmds.append(text)
        if cmd not in LOUD:
            return
        while True:
            out, err = self.solve(self.cmds)
            if err is None:
                sys.stdout.write(out[self.printed:])
                self.printed = len(out)
                return
            # The file has one command per line: the error's line names the command to drop.
            m = LINE.search(err)
            bad = int(m.group(1)) - 1 if m else len(self.cmds) - 1
            bad = min(max(bad, 0), len(self.cmds) - 1)
            sys.stdout.write(error(err.replace(self.path, "stdin")))
            del self.cmds[bad]
            if bad == len(self.cmds):  # the answering command itself was bad
                return


def main():
    b = Bridge()
    buf = ""
    try:
        for line in sys.stdin:
            cmds, buf = commands(buf + line)
            for text in cmds:
                b.run(text)
            sys.stdout.flush()
    finally:
        os.unlink(b.path)


main()
