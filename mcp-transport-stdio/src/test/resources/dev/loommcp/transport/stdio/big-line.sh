#!/bin/sh
# Writes one line of $1 bytes on stdout (ended by a newline unless $2 is "nonl"), then reads stdin to its end.
head -c "$1" /dev/zero | tr '\0' 'x'
[ "$2" = nonl ] || echo
cat > /dev/null
