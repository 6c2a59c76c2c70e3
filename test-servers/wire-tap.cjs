// A stdio wire tap for tests (no dependencies): runs an MCP server as its child and appends every line the client
// sends (client -> server) to a log file, one JSON-RPC message per line, before passing it on. The server's stdout
// and stderr pass through unchanged. A test reads the log to see what went over the wire, for example the
// notifications/cancelled of an interrupted call.
//
// Usage: node wire-tap.cjs LOGFILE COMMAND [ARGS...]
// Exits with the server's status when the server exits; ends the server's stdin when its own stdin ends; passes
// SIGTERM and SIGINT on to the server.
'use strict';
const { spawn } = require('child_process');
const fs = require('fs');
const readline = require('readline');

const [logFile, command, ...args] = process.argv.slice(2);
if (!logFile || !command) {
  process.stderr.write('usage: node wire-tap.cjs LOGFILE COMMAND [ARGS...]\n');
  process.exit(2);
}
const child = spawn(command, args, { stdio: ['pipe', 'inherit', 'inherit'] });
child.on('error', (e) => {
  process.stderr.write(`wire-tap: cannot start ${command}: ${e.message}\n`);
  process.exit(127);
});
child.on('exit', (code, signal) => process.exit(code === null ? 128 + (signal === 'SIGKILL' ? 9 : 15) : code));
for (const sig of ['SIGTERM', 'SIGINT']) {
  process.on(sig, () => child.kill(sig));
}
readline.createInterface({ input: process.stdin }).on('line', (line) => {
  fs.appendFileSync(logFile, line + '\n');
  child.stdin.write(line + '\n');
}).on('close', () => child.stdin.end());
