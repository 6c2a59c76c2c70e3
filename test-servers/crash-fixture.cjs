// A minimal 2025-era MCP server over stdio (no dependencies) that crashes on purpose, for the host registry tests
// (mcp-hosts restarts a crashed stdio server).
//
// Usage: node crash-fixture.cjs [--crash-after N] [--exit-after-list] [--malformed]
//   --crash-after N     after answering its N-th tools/call, the process exits with status 1 (default 2; 0: never)
//   --exit-after-list   exits with status 1 right after answering tools/list (every start dies)
//   --malformed         also lists the tool `malformed`, whose result breaks the protocol (content is a string)
//
// Serves: initialize (capabilities: tools with listChanged), ping, tools/list, tools/call:
//   echo {message}  -> "Echo: <message>"
//   calls {}        -> "calls: <k>", the number of tools/call this process has answered, this one included
//   grow {}         -> adds the tool `extra` ({} -> "extra") and sends notifications/tools/list_changed
//   die {stderr}    -> (not listed) writes <stderr> to stderr and exits with status 3 without answering
// anything else -> -32601. Exits when stdin ends. Writes "PID <pid>" to stderr when it starts.
'use strict';
const readline = require('readline');

let crashAfter = 2;
const at = process.argv.indexOf('--crash-after');
if (at >= 0) {
  crashAfter = Number(process.argv[at + 1]);
  if (!Number.isInteger(crashAfter) || crashAfter < 0) {
    process.stderr.write('usage: node crash-fixture.cjs [--crash-after N]\n');
    process.exit(2);
  }
}
const exitAfterList = process.argv.includes('--exit-after-list');
process.stderr.write(`PID ${process.pid}\n`);
const SUPPORTED = ['2025-11-25', '2025-06-18', '2025-03-26'];
const out = (obj) => process.stdout.write(JSON.stringify(obj) + '\n');
const reply = (id, result) => out({ jsonrpc: '2.0', id, result });
const fail = (id, code, message) => out({ jsonrpc: '2.0', id, error: { code, message } });
const text = (t) => ({ content: [{ type: 'text', text: t }] });
const object = { type: 'object' };
const tools = [
  { name: 'echo', description: 'Echoes the message',
    inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] } },
  { name: 'calls', description: 'How many tool calls this process answered', inputSchema: object },
  { name: 'grow', description: 'Adds the tool extra and announces the change', inputSchema: object },
];
if (process.argv.includes('--malformed')) {
  tools.push({ name: 'malformed', description: 'Answers a result whose content is not a list', inputSchema: object });
}
let calls = 0;
let dying = false;

// the request on a line, or null for a blank line, a notification or a response (none needs an answer)
function requestOf(line) {
  if (dying || line.trim() === '') return null;
  try {
    const msg = JSON.parse(line);
    return msg.method !== undefined && msg.id !== undefined ? msg : null;
  } catch (e) {
    fail(null, -32700, 'Parse error');
    return null;
  }
}

readline.createInterface({ input: process.stdin }).on('line', (line) => {
  const msg = requestOf(line);
  if (msg === null) return;
  const params = msg.params || {};
  switch (msg.method) {
    case 'initialize': {
      const asked = params.protocolVersion;
      reply(msg.id, {
        protocolVersion: SUPPORTED.includes(asked) ? asked : SUPPORTED[0],
        capabilities: { tools: { listChanged: true } },
        serverInfo: { name: 'loom-crash-fixture', version: '1.0.0' },
      });
      return;
    }
    case 'ping':
      reply(msg.id, {});
      return;
    case 'tools/list':
      reply(msg.id, { tools });
      if (exitAfterList) {
        dying = true;
        process.stdout.write('', () => process.exit(1));
      }
      return;
    case 'tools/call': {
      calls++;
      const args = params.arguments || {};
      switch (params.name) {
        case 'echo':
          reply(msg.id, text(`Echo: ${args.message}`));
          break;
        case 'calls':
          reply(msg.id, text(`calls: ${calls}`));
          break;
        case 'grow':
          if (!tools.some((t) => t.name === 'extra')) {
            tools.push({ name: 'extra', description: 'Added by grow', inputSchema: object });
          }
          reply(msg.id, text('grown'));
          out({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
          break;
        case 'extra':
          reply(msg.id, text('extra'));
          break;
        case 'malformed':
          reply(msg.id, { content: 'not a list' });
          break;
        case 'die':
          dying = true;
          process.stderr.write(`${args.stderr || 'dying'}\n`, () => process.exit(3));
          return;
        default:
          fail(msg.id, -32602, `Unknown tool: ${params.name}`);
      }
      if (crashAfter > 0 && calls >= crashAfter) {
        dying = true;
        process.stderr.write(`crash-fixture: crashing after ${calls} calls\n`);
        process.stdout.write('', () => process.exit(1));
      }
      return;
    }
    default:
      fail(msg.id, -32601, `Method not found: ${msg.method}`);
  }
});
