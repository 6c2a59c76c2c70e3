// The TypeScript SDK's client (@modelcontextprotocol/sdk 1.32.2, pinned in package.json) as one client of loom-mcp's
// benchmark (mcp-bench). The harness starts it instead of a client JVM and reads its result the same way: one line
// "RESULT {json}" on stdout, with the same fields as dev.loommcp.bench.ClientRun prints (progress goes to stderr).
//
// Usage: node bench-ts-client.mjs --client ts|ts-http|ts-http-sse --warmup-ms N --seq-ms N --flight-ms N
//          --sleep-ms N --ready-repeats N --cold-calls N -- SERVER_ARGV...
//   ts            Client over StdioClientTransport: SERVER_ARGV is the echo server's command line
//   ts-http       Client over StreamableHTTPClientTransport: this script starts SERVER_ARGV --http, reads
//                 "LISTENING <port>" from its first stdout line and talks to http://127.0.0.1:<port>/mcp
//   ts-http-sse   the same with --http --sse (the server answers each request as an SSE stream of one event)
//
// The phases, in ClientRun's order: connect (ready, cold), the cold phase (cold-calls sequential echo calls before any
// warm-up), a check call, warm-up, sequential echo (rate, p50/p99, CPU per call), echo with 64 and 512 in flight,
// sleep(10) with 64 and 512 in flight, then ready-repeats fresh connects (ready, warm). In flight = that many calls
// outstanding at once on the event loop, each answer followed by the next call until the phase ends (the closed loop
// the Java harness keeps with a semaphore). CPU: process.cpuUsage() (the whole Node process); server CPU: the
// descendants' utime + stime from /proc; peak RSS: process.resourceUsage().maxRSS. Heap allocation per call is not
// measured (no counter in Node): omitted, so the report prints n/a.
import { spawn } from 'node:child_process';
import { setMaxListeners } from 'node:events';
import { readFileSync, readdirSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

// the SDK's HTTP transport adds an abort listener per request in flight to one AbortSignal: with 512 in flight Node
// would print a listener-leak warning per request past its default limit (a warning, not a leak: they are removed)
setMaxListeners(0);

const MAX_ERRORS_SHOWN = 5;
const DRAIN_MIN_MS = 5000;
const COLD_LIMIT_MS = 60000;

const opts = { client: null, warmupMs: 300, seqMs: 200, flightMs: 200, sleepMs: 150, readyRepeats: 1, coldCalls: 200 };
let serverArgv = [];
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  const num = () => Number.parseInt(argv[++i], 10);
  switch (a) {
    case '--client': opts.client = argv[++i]; break;
    case '--warmup-ms': opts.warmupMs = num(); break;
    case '--seq-ms': opts.seqMs = num(); break;
    case '--flight-ms': opts.flightMs = num(); break;
    case '--sleep-ms': opts.sleepMs = num(); break;
    case '--ready-repeats': opts.readyRepeats = num(); break;
    case '--cold-calls': opts.coldCalls = num(); break;
    case '--': serverArgv = argv.slice(i + 1); i = argv.length; break;
    default: throw new Error(`unknown argument ${a}`);
  }
}
if (!['ts', 'ts-http', 'ts-http-sse'].includes(opts.client) || serverArgv.length === 0) {
  throw new Error('usage: bench-ts-client.mjs --client ts|ts-http|ts-http-sse [phases] -- SERVER_ARGV...');
}
const http = opts.client !== 'ts';
const sse = opts.client.endsWith('-sse');
const name = opts.client;

let failed = 0;
let errorCount = 0;
const errorsShown = [];
function fail(e) {
  failed++;
  if (++errorCount <= MAX_ERRORS_SHOWN) {
    const what = `${e?.name ?? 'Error'}: ${e?.message ?? String(e)}`;
    errorsShown.push(what);
    process.stderr.write(`[${name}] call failed: ${what}\n`);
  }
}

/** Starts the echo server's HTTP mode as a child; resolves with it and its endpoint once it says its port. */
function startHttpServer() {
  const args = [...serverArgv.slice(1), '--http', ...(sse ? ['--sse'] : [])];
  const child = spawn(serverArgv[0], args, { stdio: ['pipe', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.once('line', (line) => {
      lines.close();
      const m = /^LISTENING (\d+)/.exec(line);
      if (!m) {
        child.kill('SIGKILL');
        reject(new Error(`the HTTP echo server did not say its port: ${line}`));
      } else {
        resolve({ child, url: new URL(`http://127.0.0.1:${m[1]}/mcp`) });
      }
    });
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the HTTP echo server ended with ${code}`)));
  });
}

/** Connects a fresh Client (and, over HTTP, a fresh server); resolves when initialize and initialized are done. */
async function connect() {
  const client = new Client({ name: 'loom-mcp-bench-ts', version: '1.0' });
  let server = null;
  if (http) {
    server = await startHttpServer();
    server.child.removeAllListeners('exit');
    await client.connect(new StreamableHTTPClientTransport(server.url));
  } else {
    await client.connect(new StdioClientTransport({ command: serverArgv[0], args: serverArgv.slice(1),
      stderr: 'inherit' }));
  }
  return {
    client,
    async close() {
      await client.close();
      if (server) {
        const gone = new Promise((resolve) => server.child.once('exit', resolve));
        server.child.stdin.end();
        const timer = setTimeout(() => server.child.kill('SIGKILL'), 5000);
        await gone;
        clearTimeout(timer);
      }
    },
  };
}

async function tool(conn, toolName, args) {
  const result = await conn.client.callTool({ name: toolName, arguments: args });
  if (result.isError) {
    throw new Error('tool answered isError');
  }
  return result.content[0].text;
}

const echo = (conn, text) => tool(conn, 'echo', { text });
const sleep = (conn, ms) => tool(conn, 'sleep', { ms });

async function check(conn) {
  const text = 'check "quoted" \\ \u00e9\u4e2d';
  if ((await echo(conn, text)) !== text) {
    fail(new Error('echo answered a different text'));
  }
}

const nowNs = () => process.hrtime.bigint();
const cpuUs = () => { const u = process.cpuUsage(); return u.user + u.system; };

/** Sequential echo for durationMs or maxCalls calls, whichever first: rate, p50/p99 µs, CPU µs per call. */
async function sequential(conn, durationMs, maxCalls) {
  const cpu0 = cpuUs();
  const start = nowNs();
  const end = start + BigInt(durationMs) * 1_000_000n;
  const lat = [];
  let now = start;
  let n = 0;
  while (now < end && n < maxCalls) {
    const text = `m${n}`;
    try {
      if ((await echo(conn, text)) !== text) {
        fail(new Error('echo answered a different text'));
      }
    } catch (e) {
      fail(e);
    }
    const after = nowNs();
    lat.push(Number(after - now));
    now = after;
    n++;
  }
  const seconds = Number(now - start) / 1e9;
  lat.sort((a, b) => a - b);
  return {
    seconds, calls: n, perSecond: n / seconds,
    p50us: n === 0 ? 0 : lat[Math.floor(n * 0.5)] / 1e3,
    p99us: n === 0 ? 0 : lat[Math.min(n - 1, Math.floor(n * 0.99))] / 1e3,
    cpuUsPerCall: (cpuUs() - cpu0) / Math.max(1, n),
  };
}

/** Keeps width calls outstanding for durationMs, then waits for the last answers (bounded); rate and CPU per call. */
async function inFlight(conn, width, durationMs, sleeping) {
  const cpu0 = cpuUs();
  const start = nowNs();
  const end = start + BigInt(durationMs) * 1_000_000n;
  let issued = 0;
  let outstanding = 0;
  async function lane() {
    while (nowNs() < end) {
      const text = `f${issued}`;
      const expected = sleeping ? 'slept 10 ms' : text;
      issued++;
      outstanding++;
      try {
        const got = sleeping ? await sleep(conn, 10) : await echo(conn, text);
        if (got !== expected) {
          fail(new Error(`answer differs from ${expected}`));
        }
      } catch (e) {
        fail(e);
      } finally {
        outstanding--;
      }
    }
  }
  const lanes = Promise.all(Array.from({ length: width }, lane));
  const drainLimit = Math.max(DRAIN_MIN_MS, 2 * durationMs);
  let timer;
  const limit = new Promise((resolve) => { timer = setTimeout(() => resolve('late'), durationMs + drainLimit); });
  if ((await Promise.race([lanes, limit])) === 'late') {
    for (let i = 0, stuck = outstanding; i < stuck; i++) {
      fail(new Error(`${stuck} call(s) still unanswered ${drainLimit} ms after the phase ended`));
    }
  }
  clearTimeout(timer);
  const seconds = Number(nowNs() - start) / 1e9;
  process.stderr.write(`[${name}] ${width} in flight, ${sleeping ? 'sleep(10)' : 'echo'}: ${issued} calls in `
    + `${seconds.toFixed(2)} s\n`);
  return { calls: issued, seconds, perSecond: issued / seconds, cpuUsPerCall: (cpuUs() - cpu0) / Math.max(1, issued) };
}

/** CPU time (µs) of every live descendant of this process (the server), from /proc; 10 ms resolution. */
function childrenCpuUs() {
  const parent = new Map();
  const ticks = new Map();
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parent.set(Number(pid), Number(f[1]));
      ticks.set(Number(pid), Number(f[11]) + Number(f[12]));
    } catch {
      // gone
    }
  }
  let sum = 0;
  for (const [pid, t] of ticks) {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) {
      if (p === process.pid) {
        sum += t;
        break;
      }
    }
  }
  return sum * 10_000;
}

function median(values) {
  const v = values.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
  if (v.length === 0) return NaN;
  const mid = Math.floor(v.length / 2);
  return v.length % 2 === 1 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
}

async function profile() {
  const r = { client: name };
  const t0 = nowNs();
  const conn = await connect();
  r.readyColdMs = Number(nowNs() - t0) / 1e6;
  process.stderr.write(`[${name}] ready in ${r.readyColdMs.toFixed(1)} ms\n`);
  try {
    r.cold = await sequential(conn, COLD_LIMIT_MS, opts.coldCalls);
    await check(conn);
    await sequential(conn, opts.warmupMs / 3, Infinity);
    await inFlight(conn, 512, opts.warmupMs / 3, false);
    await inFlight(conn, 64, opts.warmupMs / 6, true);
    await inFlight(conn, 512, opts.warmupMs / 6, true);
    const failedInWarmup = failed;
    const cpu0 = cpuUs();
    const srv0 = childrenCpuUs();
    const seq = await sequential(conn, opts.seqMs, Infinity);
    const echo64 = await inFlight(conn, 64, opts.flightMs, false);
    const echo512 = await inFlight(conn, 512, opts.flightMs, false);
    const echoCalls = seq.calls + echo64.calls + echo512.calls;
    r.cpuUsPerEcho = (cpuUs() - cpu0) / echoCalls;
    r.serverCpuUsPerEcho = (childrenCpuUs() - srv0) / echoCalls;
    r.seq = seq;
    r.echo64 = echo64;
    r.echo512 = echo512;
    r.sleep64 = await inFlight(conn, 64, opts.sleepMs, true);
    r.sleep512 = await inFlight(conn, 512, opts.sleepMs, true);
    r.failedInWarmup = failedInWarmup;
  } finally {
    await conn.close();
  }
  const warm = [];
  for (let i = 0; i < opts.readyRepeats; i++) {
    const s = nowNs();
    const again = await connect();
    try {
      warm.push(Number(nowNs() - s) / 1e6);
      await check(again);
    } finally {
      await again.close();
    }
  }
  r.readyWarmMs = median(warm);
  r.failed = failed;
  r.peakRssMb = process.resourceUsage().maxRSS / 1024;
  r.node = process.version;
  r.errorsShown = errorsShown;
  return r;
}

try {
  const result = await profile();
  process.stdout.write(`RESULT ${JSON.stringify(result)}\n`, () => process.exit(0));
} catch (e) {
  process.stderr.write(`[${name}] did not complete: ${e?.stack ?? e}\n`);
  process.exit(2);
}
