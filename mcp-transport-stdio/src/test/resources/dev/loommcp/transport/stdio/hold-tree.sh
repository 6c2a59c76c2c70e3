#!/bin/sh
# Starts a grandchild, reports its pid on stderr, announces itself on stdout, then waits for the grandchild
# (it never reads stdin and never exits on its own).
sleep 1000 &
echo "GRANDCHILD $!" >&2
echo '{"jsonrpc":"2.0","method":"notifications/hello"}'
wait
