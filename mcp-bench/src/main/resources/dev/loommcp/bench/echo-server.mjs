// The Node twin of EchoServer.java, kept to compare the two servers' cost per call (the harness runs it with
// --server node). Newline JSON-RPC on stdin/stdout; initialize, ping, tools/list, tools/call echo/sleep/stats.
// Answers are queued and written once per turn of the event loop, like the Java server writes once per read.
const TOOLS = {tools: [
  {name: 'echo', description: 'Returns its text argument', inputSchema: {type: 'object',
    properties: {text: {type: 'string'}}, required: ['text']}},
  {name: 'sleep', description: 'Answers after ms milliseconds', inputSchema: {type: 'object',
    properties: {ms: {type: 'integer', minimum: 0}}, required: ['ms']}}]};
let queue = [];
let scheduled = false;
let pending = 0;
let maxPending = 0;
function send(msg) {
  queue.push(JSON.stringify(msg));
  if (!scheduled) {
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      const out = queue.join('\n') + '\n';
      queue = [];
      process.stdout.write(out);
    });
  }
}
const text = (id, t) => ({jsonrpc: '2.0', id, result: {content: [{type: 'text', text: t}]}});
function handle(line) {
  let m;
  try { m = JSON.parse(line); } catch { send({jsonrpc: '2.0', id: null, error: {code: -32700, message: 'Parse error'}}); return; }
  if (m.id === undefined || m.id === null || m.method === undefined) return;
  const p = m.params || {};
  switch (m.method) {
    case 'initialize':
      send({jsonrpc: '2.0', id: m.id, result: {protocolVersion: p.protocolVersion || '2025-06-18',
        capabilities: {tools: {}}, serverInfo: {name: 'loom-mcp-bench-echo', version: '1.0'}}});
      return;
    case 'ping': send({jsonrpc: '2.0', id: m.id, result: {}}); return;
    case 'tools/list': send({jsonrpc: '2.0', id: m.id, result: TOOLS}); return;
    case 'tools/call': {
      const a = p.arguments || {};
      if (p.name === 'echo') { send(text(m.id, a.text)); return; }
      if (p.name === 'sleep') {
        pending++; maxPending = Math.max(maxPending, pending);
        setTimeout(() => { pending--; send(text(m.id, 'slept ' + a.ms + ' ms')); }, a.ms);
        return;
      }
      if (p.name === 'stats') {
        const s = JSON.stringify({pending, maxPending});
        if (a.reset) maxPending = pending;
        send(text(m.id, s));
        return;
      }
      send({jsonrpc: '2.0', id: m.id, error: {code: -32602, message: 'Unknown tool'}});
      return;
    }
    default: send({jsonrpc: '2.0', id: m.id, error: {code: -32601, message: 'Method not found'}});
  }
}
let rest = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', chunk => {
  const lines = (rest + chunk).split('\n');
  rest = lines.pop();
  for (const l of lines) if (l.trim()) handle(l);
});
process.stdin.on('end', () => process.exit(0));
