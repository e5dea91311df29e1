# A warm cvc5 process for polyfuzz: reads SMT-LIB commands on stdin and answers each like cvc5's
# own executable (sat/unsat, models, (error "...") without dying), through cvc5's Python API,
# for wheels that carry no executable. Like polyfuzz's cvc5 command line, it sets fp-exp, which
# admits floating-point formats other than Float32 and Float64. The caller puts the cvc5 module's folder on sys.path and
# common.py's functions before this program.
import sys

import cvc5

tm = cvc5.TermManager()
out = sys.stdout


def fresh():
    s = cvc5.Solver(tm)
    s.setOption("incremental", "true")
    s.setOption("fp-exp", "true")
    return s, cvc5.SymbolManager(tm)


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
