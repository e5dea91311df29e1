# A warm cvc5 process for polyfuzz: reads SMT-LIB commands on stdin and answers each like cvc5's
# own executable (sat/unsat, models, (error "...") without dying), through cvc5's Python API,
# for wheels that carry no executable. The caller puts the cvc5 module's folder on sys.path.
import sys

import cvc5

tm = cvc5.TermManager()
out = sys.stdout


def fresh():
    s = cvc5.Solver(tm)
    s.setOption("incremental", "true")
    return s, cvc5.SymbolManager(tm)


def commands(text):
    """Splits text into top-level S-expressions; returns them and the unfinished rest."""
    cmds, depth, start, i, n = [], 0, None, 0, len(text)
    while i < n:
        c = text[i]
        if c == ";":
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif c == '"':
            i += 1
            while i < n and not (text[i] == '"' and not (i + 1 < n and text[i + 1] == '"')):
                i += 2 if text[i] == '"' else 1
        elif c == "|":
            j = text.find("|", i + 1)
            i = n if j < 0 else j
        elif c == "(":
            if depth == 0:
                start = i
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0 and start is not None:
                cmds.append(text[start : i + 1])
                start = None
            depth = max(depth, 0)
        i += 1
    return cmds, (text[start:] if start is not None else "")


def error(e):
    return '(error "%s")\n' % str(e).replace('"', "'").replace("\n", " ")


solver, sm = fresh()
buf = ""
for line in sys.stdin:
    cmds, buf = commands(buf + line)
    for text in cmds:
        if " ".join(text[1:-1].split()) == "reset":
            solver, sm = fresh()  # (reset) forgets the logic, options and every declaration
            continue
        p = cvc5.InputParser(solver, sm)
        p.setStringInput(cvc5.InputLanguage.SMT_LIB_2_6, text, "stdin")
        try:
            cmd = p.nextCommand()
            res = "" if cmd.isNull() else cmd.invoke(solver, sm)
        except Exception as e:
            res = error(e)
        if res:
            out.write(res if res.endswith("\n") else res + "\n")
    out.flush()
