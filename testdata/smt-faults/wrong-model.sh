#!/bin/sh
# A faulty solver for oracle self-tests: z3, except that every non-negative integer in a get-value
# answer gets a digit 7 in front (5 becomes 75), so its models are wrong.
z3 -in -smt2 | sed -u 's/^\(((\| (\)\(.*\) \([0-9][0-9]*\))/\1\2 7\3)/'
