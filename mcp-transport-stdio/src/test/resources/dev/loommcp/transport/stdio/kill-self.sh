#!/bin/sh
# Starts a grandchild that holds stdin, stdout and stderr (it stays in the process group), reports its pid, then
# SIGKILLs itself: the leader is dead while the pipes stay open.
sleep 1000 &
echo "GRANDCHILD $!" >&2
echo '{"jsonrpc":"2.0","method":"notifications/hello"}'
kill -9 $$
