#!/bin/sh
# A faulty solver for oracle self-tests: z3, except that every sat answer is turned into banana,
# an answer that is neither sat, unsat, unknown nor an error.
z3 -in -smt2 | sed -u 's/^sat$/banana/'
