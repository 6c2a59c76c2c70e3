// A small stdio MCP server for the CLI's tests: it declares the tools capability only (no resources, no prompts),
// lists a tool with a long name and one with a CJK name, and its tool "big" returns structuredContent holding a
// 300,000-character string. Run: node mini-server.js
const out = o => process.stdout.write(JSON.stringify(o) + '\n');
const longName = 'a-tool-whose-name-is-far-longer-than-any-table-column-should-ever-be-allowed-to-grow-' + 'x'.repeat(40);
require('readline').createInterface({input: process.stdin}).on('line', line => {
  const m = JSON.parse(line);
  if (m.id === undefined || !m.method) {
    return;
  }
  let result;
  switch (m.method) {
    case 'initialize':
      result = {protocolVersion: m.params.protocolVersion, capabilities: {tools: {}},
        serverInfo: {name: 'mini', version: '1'}};
      break;
    case 'tools/list':
      result = {tools: [
        {name: longName, description: 'long name', inputSchema: {type: 'object'}},
        {name: '検索', title: '日本語の検索ツール', description: '説明', inputSchema: {type: 'object'}},
        {name: 'big', description: 'big structured content', inputSchema: {type: 'object'}},
      ]};
      break;
    case 'tools/call':
      result = {content: [{type: 'text', text: 'done'}],
        structuredContent: {file: 'data.bin', size: 225000, base64: 'QUJD'.repeat(75000), tags: ['x'.repeat(250), 'short']}};
      break;
    default:
      out({jsonrpc: '2.0', id: m.id, error: {code: -32601, message: 'Method not found: ' + m.method}});
      return;
  }
  out({jsonrpc: '2.0', id: m.id, result});
});
