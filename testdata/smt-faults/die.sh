#!/bin/sh
# A faulty solver for oracle self-tests: z3, except that the process dies of SIGSEGV as soon as
# it reads an assertion that uses mod.
mawk -W interactive -v pid=$$ '/\(assert .*\(mod / { system("kill -SEGV " pid); exit 3 } { print }' | z3 -in -smt2
