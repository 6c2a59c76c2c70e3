#!/bin/sh
# Double-forks a daemon that leaves this server's session and process group (setsid) but keeps its stdout and stderr
# open, as a server that starts a background service may do; the daemon prints "DAEMON <pid>" on stderr and sleeps
# 60 s. The server itself says hello and exits at the end of its input.
( setsid sh -c 'echo "DAEMON $$" >&2; exec sleep 60' & )
echo '{"jsonrpc":"2.0","method":"notifications/hello"}'
while IFS= read -r line; do :; done
