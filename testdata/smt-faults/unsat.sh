#!/bin/sh
# A faulty solver for oracle self-tests: z3, except that every sat answer is turned into unsat.
z3 -in -smt2 | sed -u 's/^sat$/unsat/'
