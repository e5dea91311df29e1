# A warm Bitwuzla process for polyfuzz: reads SMT-LIB commands on stdin and answers each like
# Bitwuzla's own executable would, through Bitwuzla's Python API (its wheels carry no
# executable), but goes on after an error. Bitwuzla's parser is unusable after an error, so the
# bridge starts a new one and replays the commands that shaped the state since the last reset
# (declarations, assertions, options, push and pop), without their answers. Options only take
# effect before Bitwuzla's solver exists, so a set-option also starts a new parser, options
# first. When the error follows a check-sat, the replay ends with that check-sat, so that
# get-value and get-model go on answering from its model. The caller puts the bitwuzla module's folder on sys.path
# and common.py's functions before this program.
import os
import sys

import bitwuzla

QUIET = ("check-sat", "check-sat-assuming", "get-value", "get-model", "echo", "get-info",
         "get-assertions", "get-option", "exit")


def name(text):
    return text[1:-1].split(None, 1)[0] if text[1:-1].split() else ""


class Bridge:
    def __init__(self):
        self.tm = bitwuzla.TermManager()
        self.options, self.history, self.checked = [], [], None
        self.fresh()

    def fresh(self):
        self.parser = bitwuzla.Parser(self.tm, bitwuzla.Options(), "smt2")

    def replay(self):
        """A new parser in the state the history left: the answers go to /dev/null."""
        self.fresh()
        sys.stdout.flush()
        saved = os.dup(1)
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        try:
            for text in self.options + self.history:
                try:
                    self.parser.parse(text, True, False)  # parse only: no check-sat is run
                except Exception:
                    pass
            if self.checked:
                try:
                    self.parser.parse(self.checked, False, False)
                except Exception:
                    pass
        finally:
            sys.stdout.flush()
            os.dup2(saved, 1)
            os.close(null)
            os.close(saved)

    def run(self, text):
        cmd = name(text)
        if cmd == "reset":
            self.options, self.history, self.checked = [], [], None
            self.fresh()
            return
        if cmd == "set-option":
            self.options.append(text)
            self.replay()
            return
        try:
            self.parser.parse(text, False, False)
        except Exception as e:
            sys.stdout.flush()
            sys.stdout.write(error(e))
            self.replay()
            return
        if cmd in ("check-sat", "check-sat-assuming"):
            self.checked = text
        elif cmd not in QUIET:
            self.history.append(text)
            self.checked = None


def main():
    b = Bridge()
    buf = ""
    for line in sys.stdin:
        cmds, buf = commands(buf + line)
        for text in cmds:
            b.run(text)
        sys.stdout.flush()


main()
