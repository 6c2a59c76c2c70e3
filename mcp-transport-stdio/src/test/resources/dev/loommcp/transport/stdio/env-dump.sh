#!/bin/sh
# Prints the names of its environment variables and the value of LOOM_TEST_EXTRA on stderr, then exits.
env | sed -n 's/^\([A-Za-z_][A-Za-z0-9_]*\)=.*/NAME \1/p' >&2
echo "EXTRA ${LOOM_TEST_EXTRA-unset}" >&2
exit 0
