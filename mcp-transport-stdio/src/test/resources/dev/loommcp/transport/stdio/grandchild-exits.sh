#!/bin/sh
# Starts a grandchild that outlives this script (it keeps stdout and stderr open), reports its pid, then exits.
sleep 1000 &
echo "GRANDCHILD $!" >&2
echo '{"jsonrpc":"2.0","method":"notifications/hello"}'
exit 0
