// A minimal 2025-era MCP server over stdio (no dependencies) with two hostile behaviours before `initialize`, for
// the AUTO era detection tests (MCP 2026-07-28 "stdio: backward compatibility"):
//
// Usage: node legacy-stdio.cjs --silent | --exit-on-probe
//   --silent          never answers a request that comes before `initialize` (a `server/discover` probe gets no
//                     answer at all); `initialize` is answered normally
//   --exit-on-probe   exits with status 3 on any request before `initialize` (as some rmcp-based servers do)
//
// After `initialize` both serve: ping, tools/list (one tool `echo {message}`), tools/call echo -> "Echo: <message>";
// anything else -> -32601. Every request method received is written to stderr as "RECEIVED <method>", so a test can
// tell which process saw the probe. Exits when stdin ends.
'use strict';
const readline = require('readline');

const mode = process.argv[2];
if (mode !== '--silent' && mode !== '--exit-on-probe') {
  process.stderr.write('usage: node legacy-stdio.cjs --silent | --exit-on-probe\n');
  process.exit(2);
}
const SUPPORTED = ['2025-11-25', '2025-06-18', '2025-03-26'];
const name = mode === '--silent' ? 'loom-legacy-silent' : 'loom-legacy-exits';
const out = (obj) => process.stdout.write(JSON.stringify(obj) + '\n');
const reply = (id, result) => out({ jsonrpc: '2.0', id, result });
const fail = (id, code, message) => out({ jsonrpc: '2.0', id, error: { code, message } });
const ECHO = {
  name: 'echo',
  description: 'Echoes the message',
  inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
};
let initialized = false;

readline.createInterface({ input: process.stdin }).on('line', (line) => {
  if (!line.trim()) {
    return;
  }
  let msg;
  try {
    msg = JSON.parse(line);
  } catch (e) {
    fail(null, -32700, 'Parse error');
    return;
  }
  if (msg.method === undefined || msg.id === undefined) {
    return; // responses and notifications need no answer
  }
  process.stderr.write(`RECEIVED ${msg.method}\n`);
  if (!initialized && msg.method !== 'initialize') {
    if (mode === '--exit-on-probe') {
      process.stderr.write(`${name}: a request before initialize (${msg.method}): exiting\n`);
      process.exit(3);
    }
    return; // --silent: no answer at all
  }
  const params = msg.params || {};
  switch (msg.method) {
    case 'initialize': {
      initialized = true;
      const asked = params.protocolVersion;
      reply(msg.id, {
        protocolVersion: SUPPORTED.includes(asked) ? asked : SUPPORTED[0],
        capabilities: { tools: {} },
        serverInfo: { name, version: '0.0.1' },
      });
      break;
    }
    case 'ping':
      reply(msg.id, {});
      break;
    case 'tools/list':
      reply(msg.id, { tools: [ECHO] });
      break;
    case 'tools/call':
      if (params.name !== 'echo') {
        fail(msg.id, -32602, `Unknown tool: ${params.name}`);
      } else {
        reply(msg.id, { content: [{ type: 'text', text: `Echo: ${(params.arguments || {}).message}` }] });
      }
      break;
    default:
      fail(msg.id, -32601, 'Method not found');
  }
}).on('close', () => process.exit(0));
