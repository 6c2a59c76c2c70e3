// A stdio MCP server for the CLI's timeout test: it answers initialize and tools/list, but a tools/call starts work
// that never answers, and while it works it ignores the end of its input and SIGTERM (only SIGKILL ends it). It writes
// its pid to the file named by its first argument, and appends "call" to it when the call arrives.
const fs = require('fs');
const pidFile = process.argv[2];
fs.writeFileSync(pidFile, String(process.pid) + '\n');
process.on('SIGTERM', () => {});
const out = o => process.stdout.write(JSON.stringify(o) + '\n');
let working = null;
const rl = require('readline').createInterface({input: process.stdin});
rl.on('close', () => {
  if (working === null) {
    process.exit(0);
  }
});
rl.on('line', line => {
  const m = JSON.parse(line);
  if (m.id === undefined || !m.method) {
    return;
  }
  switch (m.method) {
    case 'initialize':
      out({jsonrpc: '2.0', id: m.id, result: {protocolVersion: m.params.protocolVersion, capabilities: {tools: {}},
        serverInfo: {name: 'busy', version: '1'}}});
      break;
    case 'tools/list':
      out({jsonrpc: '2.0', id: m.id, result: {tools: [{name: 'work', inputSchema: {type: 'object'}}]}});
      break;
    case 'tools/call':
      fs.appendFileSync(pidFile, 'call\n');
      working = setInterval(() => {}, 1000);
      break;
    default:
      out({jsonrpc: '2.0', id: m.id, error: {code: -32601, message: 'Method not found: ' + m.method}});
  }
});
