#!/bin/sh
# Never reads its stdin: once the pipe is full, writes to it block.
echo '{"jsonrpc":"2.0","method":"notifications/hello"}'
exec sleep 1000
