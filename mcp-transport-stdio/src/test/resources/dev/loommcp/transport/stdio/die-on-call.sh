#!/bin/sh
# An MCP server in plain POSIX sh that answers initialize, leaves every tools/call unanswered, answers other requests
# with "method not found", and exits with code 3 when the tool "die" is called (every call still pending then fails
# with the exit).
while IFS= read -r line || [ -n "$line" ]; do
  case "$line" in
    *'"id":'*) ;;
    *) continue ;;
  esac
  id=${line#*\"id\":}
  id=${id%%[,\}]*}
  case "$line" in
    *'"method":"initialize"'*)
      printf '{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"die","version":"1"}}}\n' "$id" ;;
    *'"name":"die"'*)
      exit 3 ;;
    *'"method":"tools/call"'*) ;;
    *'"method":'*)
      printf '{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"method not found"}}\n' "$id" ;;
  esac
done
