// A small legacy-era (2025) stdio MCP server for the CLI's listen tests. It declares tools and resources with
// listChanged and resources.subscribe, answers resources/subscribe and resources/unsubscribe, and every 200 ms sends
// notifications/tools/list_changed and notifications/resources/updated for each subscribed URI. It appends every
// method it receives to the file named by its first argument (one per line). With a second argument N it exits
// (code 0) after N ticks. Any other request (server/discover among them) gets -32601.
const fs = require('fs');
const log = process.argv[2];
const ticks = process.argv[3] ? Number(process.argv[3]) : Infinity;
const out = o => process.stdout.write(JSON.stringify(o) + '\n');
const subscribed = new Set();
let timer = null;
let ticked = 0;
require('readline').createInterface({input: process.stdin}).on('line', line => {
  const m = JSON.parse(line);
  if (m.method && log) {
    fs.appendFileSync(log, m.method + (m.params && m.params.uri ? ' ' + m.params.uri : '') + '\n');
  }
  if (m.method === 'notifications/initialized' && timer === null) {
    timer = setInterval(() => {
      out({jsonrpc: '2.0', method: 'notifications/tools/list_changed'});
      for (const uri of subscribed) {
        out({jsonrpc: '2.0', method: 'notifications/resources/updated', params: {uri}});
      }
      if (++ticked >= ticks) {
        process.exit(0);
      }
    }, 200);
  }
  if (m.id === undefined || !m.method) {
    return;
  }
  let result;
  switch (m.method) {
    case 'initialize':
      result = {protocolVersion: m.params.protocolVersion,
        capabilities: {tools: {listChanged: true}, resources: {subscribe: true, listChanged: true}},
        serverInfo: {name: 'notifier', version: '1'}};
      break;
    case 'resources/subscribe':
      subscribed.add(m.params.uri);
      result = {};
      break;
    case 'resources/unsubscribe':
      subscribed.delete(m.params.uri);
      result = {};
      break;
    case 'ping':
      result = {};
      break;
    default:
      out({jsonrpc: '2.0', id: m.id, error: {code: -32601, message: 'Method not found: ' + m.method}});
      return;
  }
  out({jsonrpc: '2.0', id: m.id, result});
});
process.stdin.on('end', () => process.exit(0));
