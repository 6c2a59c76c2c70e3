#!/bin/sh
# Ignores SIGTERM, and so does its grandchild (an ignored signal stays ignored across fork and exec); never reads
# stdin. Only SIGKILL ends it.
trap '' TERM
sleep 1000 &
echo "GRANDCHILD $!" >&2
echo '{"jsonrpc":"2.0","method":"notifications/hello"}'
while :; do sleep 1; done
