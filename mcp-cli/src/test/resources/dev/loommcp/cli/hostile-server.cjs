// A tiny MCP server over stdio (newline-delimited JSON-RPC) for the CLI's tests: everything it sends back is full
// of terminal control sequences, and its error message is huge. Written for these tests only.
'use strict';
const readline = require('node:readline');

const ESC = '\u001b';
const ansi = `red ${ESC}[31mtext${ESC}[0m\r\nsecond line\u009b2J with DEL\u007f and BEL\u0007 and\ttab`;
const huge = `${ESC}[2Jno such prompt ` + 'x'.repeat(5000 - 19);

process.stderr.write(`starting ${ESC}]0;pwned${ESC}\\ up\n`);

function send(message) {
  process.stdout.write(JSON.stringify(message) + '\n');
}

const rl = readline.createInterface({ input: process.stdin });
rl.on('line', (line) => {
  let m;
  try {
    m = JSON.parse(line);
  } catch (e) {
    return;
  }
  if (m.id === undefined || m.id === null) {
    return; // a notification
  }
  const ok = (result) => send({ jsonrpc: '2.0', id: m.id, result });
  switch (m.method) {
    case 'initialize':
      return ok({
        protocolVersion: m.params.protocolVersion,
        capabilities: { tools: {}, prompts: {} },
        serverInfo: { name: `hostile${ESC}[5m`, version: '1.0' },
        instructions: `be ${ESC}[8mcareful`,
      });
    case 'ping':
      return ok({});
    case 'tools/list':
      return ok({
        tools: [
          { name: 'ansi', description: `prints ${ESC}[31mred${ESC}[0m text`, inputSchema: { type: 'object' } },
          { name: 'crash', description: 'writes to stderr and exits', inputSchema: { type: 'object' } },
        ],
      });
    case 'tools/call':
      if (m.params.name === 'crash') {
        process.stderr.write(`dying ${ESC}[2J\u009b now\n`, () => process.exit(9));
        return;
      }
      return ok({ content: [{ type: 'text', text: ansi }] });
    case 'prompts/get':
      return send({ jsonrpc: '2.0', id: m.id, error: { code: -32602, message: huge } });
    default:
      return send({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: `no method ${m.method}` } });
  }
});
rl.on('close', () => process.exit(0));
