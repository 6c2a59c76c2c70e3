// A scriptable stand-in for an MCP server over stdio, for the transport's tests.
// Usage: node fake-server.cjs MODE [--hello] [--stay]
//   echo     answer each request with {"method", "params"} as its result
//   garbage  before each answer write a non-JSON line, blank lines, JSON that is not JSON-RPC, and end the answer
//            with CRLF
//   reverse  collect five requests, then answer them in reverse order
//   batch    answer each request with a batch: the response and a notification
// A request for the method "hang" is never answered. --hello writes a notification at start.
// On the end of stdin the server exits, unless --stay is given (then it keeps running until signalled).
'use strict';
const readline = require('readline');
const mode = process.argv[2] || 'echo';
const flags = process.argv.slice(3);
const out = (obj) => process.stdout.write(JSON.stringify(obj) + '\n');
if (flags.includes('--hello')) {
  out({ jsonrpc: '2.0', method: 'notifications/hello' });
}
const held = [];
const rl = readline.createInterface({ input: process.stdin });
rl.on('line', (line) => {
  if (!line.trim()) {
    return;
  }
  const msg = JSON.parse(line);
  if (msg.id === undefined || msg.method === 'hang') {
    return;
  }
  const reply = { jsonrpc: '2.0', id: msg.id, result: { method: msg.method, params: msg.params ?? null } };
  switch (mode) {
    case 'garbage':
      process.stdout.write('this is not json, request ' + msg.id + '\n\n   \n{"not":"jsonrpc"}\n[1,2]\n'
          + JSON.stringify(reply) + '\r\n');
      break;
    case 'reverse':
      held.push(reply);
      if (held.length === 5) {
        held.reverse().forEach(out);
        held.length = 0;
      }
      break;
    case 'batch':
      out([reply, { jsonrpc: '2.0', method: 'notifications/after', params: { id: msg.id } }]);
      break;
    default:
      out(reply);
  }
});
rl.on('close', () => {
  if (flags.includes('--stay')) {
    setInterval(() => {}, 1000);
  } else {
    process.exit(0);
  }
});
