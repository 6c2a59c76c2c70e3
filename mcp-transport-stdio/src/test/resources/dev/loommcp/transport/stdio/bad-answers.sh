#!/bin/sh
# An MCP server in plain POSIX sh that answers initialize and ping properly, server/discover with a result that is not
# valid JSON (in a response of the usual form: a legacy server that answers the probe badly), and tools/call badly,
# by tool name:
# "both" answers with result and error at once, "badresult" with a result that is not valid JSON (in a response of
# the usual form), "strcode" with an error whose code is a string, "stranger" answers
# request id 9999 (never sent) and then properly, "good" properly; "deep" answers with valid JSON nested 600 levels
# deep (over the parser's limit of 500) and its id after the nesting, "longnum" with an integer of 1200 digits (over
# the parser's limit of 1000).
deep=$(printf '%0600d' 0 | tr 0 '[')$(printf '%0600d' 0 | tr 0 ']')
longnum=$(printf '%01200d' 0 | tr 0 7)
while IFS= read -r line || [ -n "$line" ]; do
  case "$line" in
    *'"id":'*) ;;
    *) continue ;;
  esac
  id=${line#*\"id\":}
  id=${id%%[,\}]*}
  case "$line" in
    *'"method":"server/discover"'*)
      printf '{"jsonrpc":"2.0","id":%s,"result":{"supportedVersions":NaN}}\n' "$id" ;;
    *'"method":"initialize"'*)
      printf '{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"bad","version":"1"}}}\n' "$id" ;;
    *'"name":"both"'*)
      printf '{"jsonrpc":"2.0","id":%s,"result":{"content":[]},"error":{"code":-1,"message":"x"}}\n' "$id" ;;
    *'"name":"badresult"'*)
      printf '{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":NaN}]}}\n' "$id" ;;
    *'"name":"deep"'*)
      printf '{"jsonrpc":"2.0","result":{"content":[],"structuredContent":{"a":%s}},"id":%s}\n' "$deep" "$id" ;;
    *'"name":"longnum"'*)
      printf '{"jsonrpc":"2.0","result":{"content":[],"structuredContent":{"n":%s}},"id":%s}\n' "$longnum" "$id" ;;
    *'"name":"strcode"'*)
      printf '{"jsonrpc":"2.0","id":%s,"error":{"code":"oops","message":"x"}}\n' "$id" ;;
    *'"name":"stranger"'*)
      printf '{"jsonrpc":"2.0","id":9999,"result":{"content":[]}}\n'
      printf '{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":"ok"}]}}\n' "$id" ;;
    *'"method":"tools/call"'*|*'"method":"ping"'*)
      printf '{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":"ok"}]}}\n' "$id" ;;
    *'"method":'*)
      printf '{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"method not found"}}\n' "$id" ;;
  esac
done
