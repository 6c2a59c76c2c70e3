#!/bin/sh
# A minimal MCP server for load tests, in plain POSIX sh: answers initialize and tools/call (any tool: "pong <pid>"),
# answers other requests with "method not found", ignores notifications and exits at the end of its input. The tool
# "stop" is answered with "stopping", after which the server never reads its stdin again (once the pipe is full,
# writes to it block). The tool "hang" is never answered; the tool "die" makes the server exit with code 3 (every
# call still pending then fails with the exit).
while IFS= read -r line || [ -n "$line" ]; do
  case "$line" in
    *'"id":'*) ;;
    *) continue ;;
  esac
  id=${line#*\"id\":}
  id=${id%%[,\}]*}
  case "$line" in
    *'"method":"initialize"'*)
      printf '{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"tiny","version":"1"}}}\n' "$id" ;;
    *'"name":"hang"'*) ;;
    *'"name":"die"'*)
      exit 3 ;;
    *'"name":"stop"'*)
      printf '{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":"stopping"}]}}\n' "$id"
      exec sleep 1000 ;;
    *'"method":"tools/call"'*)
      printf '{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":"pong %s"}]}}\n' "$id" "$$" ;;
    *'"method":'*)
      printf '{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"method not found"}}\n' "$id" ;;
  esac
done
