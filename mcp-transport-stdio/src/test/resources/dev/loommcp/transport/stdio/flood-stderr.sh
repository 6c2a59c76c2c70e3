#!/bin/sh
# Writes 100 MB to stderr, then a message on stdout, then reads stdin to its end.
yes 'stderr flood: a line of log output that the transport must drain without keeping all of it' \
  | head -c 100000000 >&2
echo '{"jsonrpc":"2.0","method":"notifications/flooded"}'
cat > /dev/null
