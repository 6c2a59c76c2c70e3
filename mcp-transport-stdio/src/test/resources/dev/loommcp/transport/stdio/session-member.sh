#!/bin/sh
# Double-forks a process that moves to a process group of its own (setpgrp) but stays in this server's session, and
# closes its pipes: it is neither a descendant nor in the group once its parent exited, only in the session. It
# prints "MEMBER <pid>" on stderr first. The server itself says hello and exits at the end of its input.
( perl -e 'setpgrp(0, 0); print STDERR "MEMBER $$\n"; close STDIN; close STDOUT; close STDERR; exec "sleep", "1000"' & )
echo '{"jsonrpc":"2.0","method":"notifications/hello"}'
while IFS= read -r line; do :; done
