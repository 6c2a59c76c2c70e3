#!/bin/sh
# Fails at startup: two lines on stderr, exit code 7.
echo "fatal: cannot load the configuration" >&2
echo "hint: check config.json" >&2
exit 7
