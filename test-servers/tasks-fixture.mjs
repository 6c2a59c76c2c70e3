// loom-mcp's test server for the tasks extension (io.modelcontextprotocol/tasks) of MCP 2026-07-28.
// Dependency-free: Node's standard library only (no npm package serves the extension; see MODERN-ERA.md).
//
// Usage: node tasks-fixture.mjs --stdio | --http [PORT]  [--poll-ms N] [--ttl-ms N] [--forget-after-ms N]
//                                                        [--keepalive-ms N] [--rate-limit]
//   --stdio           one connection over stdin/stdout (one JSON-RPC message per line); exits when stdin ends
//   --http [PORT]     Streamable HTTP at http://127.0.0.1:PORT/mcp (127.0.0.1 only; without PORT: the environment's
//                     PORT, else 0 = ephemeral). Once listening, the first line on stdout is the endpoint.
//   --poll-ms N       the pollIntervalMs of new tasks (default 200; a tool's `pollMs` argument overrides it)
//   --ttl-ms N        the ttlMs of new tasks (default 600000; a tool's `ttlMs` argument overrides it)
//   --forget-after-ms N  a task is forgotten (tasks/get -> -32602) N ms after its TTL passed, whatever its status
//                     (default 10000: a client's own TTL backstop acts first)
//   --keepalive-ms N  HTTP: the interval of the keep-alive comments on a listen stream (default 15000)
//   --rate-limit      a tasks/get that comes sooner than half the task's pollIntervalMs after its previous accepted
//                     tasks/get (or its creation) is refused: JSON-RPC error -32000 "rate limit: ..." (HTTP 429)
//
// Modern core (every request): HTTP headers MCP-Protocol-Version, Mcp-Method and (tools/call, prompts/get,
// resources/read, tasks/get|update|cancel) Mcp-Name, incl. =?base64?...?= values: missing or unequal -> -32020/400;
// params._meta needs protocolVersion and clientCapabilities (-32602/400); a version other than 2026-07-28 -> -32022/400
// (also `initialize`, a 2025-era opening); unknown methods (ping, tasks/result, tasks/list, ...) -> -32601/404;
// GET/DELETE -> 405; notifications -> 202; a POST needs Content-Type application/json (415) and an Accept listing
// application/json and text/event-stream (406), at most 4 MB (413); batches and posted responses -> -32600/400.
// Application errors (unknown tool or task, bad arguments) -> -32602/200.
//
// Tools (names as the conformance suite's tasks-* server scenarios expect). "task" = answered with a flat
// CreateTaskResult when the request declares the extension in _meta clientCapabilities; "task-only" = -32021 without it.
// Every task tool takes optional `pollMs` (its pollIntervalMs), `pollMsLater` (the interval reported from its first
// tasks/get on: a server that changes its mind) and `ttlMs`.
//   greet {name}                 sync: "Hello, <name>!"
//   slow_compute {seconds}       task (sync without the extension: answers after the delay): completes after `seconds`
//                                with "computed after <ms> ms"; tasks/cancel settles it to cancelled
//   quick_task {ms?, n?}         task (sync without): completes after ms (default 50) with "quick <n>"
//   failing_job {seconds?}       task-only: completes (not failed) after seconds (default 1) with isError:true
//   protocol_error_job {seconds?} task-only: ends failed with error {code:-32603, message:"simulated internal error"}
//   confirm_delete {filename}    task-only: working, then input_required with one elicitation/create ("confirm-<id>",
//                                {confirm: boolean}); accept + confirm:true -> "deleted <filename>", otherwise
//                                completed with isError "kept <filename>"
//   multi_input {}               task-only: input_required with two keys at once ("name-<id>" {name: string} and
//                                "confirm-<id>" {confirm: boolean}); a partial tasks/update keeps it input_required
//                                without the answered key; both answered -> "name=<name> confirm=<confirm>"
//   test_tool_with_task {}       task-only (and needs elicitation): MRTR round 1 -> input_required asking "user_name"
//                                (with a requestState that must come back unchanged); round 2 -> CreateTaskResult; the
//                                task completes with "Hello, <name>! (gathered before the task)" (name = the first
//                                string in the answer's content)
//   poll_stats {}                sync: JSON text {tasks, polls, early, limited}: tasks created, tasks/get calls, gets
//                                that came sooner than the task's reported pollIntervalMs after its previous get (or
//                                its creation; 10% tolerance), and gets refused by --rate-limit
// tasks/get, tasks/update, tasks/cancel: -32021 without the extension; unknown taskId -> -32602; update and cancel
// answer {resultType:"complete"} (also on a terminal task); unknown inputResponses keys are ignored. Terminal states
// never change. subscriptions/listen {notifications:{taskIds}} (-32021 without the extension): acknowledges the ids of
// known tasks with notifications/subscriptions/acknowledged, sends each one's current state, then every status change
// as notifications/tasks (the DetailedTask + _meta subscriptionId); stdio: ended by notifications/cancelled naming it;
// HTTP: an SSE stream with keep-alive comments, ended by closing it (on SIGTERM the server ends it with a result).
// Tasks are per process: over HTTP every client sees every task, and a task outlives the client that started it
// (resume after a client restart); over stdio a task lives as long as that connection's process.
import { createServer } from 'node:http';
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';

const VERSION = '2026-07-28';
const EXT = 'io.modelcontextprotocol/tasks';
const META_VERSION = 'io.modelcontextprotocol/protocolVersion';
const META_CAPS = 'io.modelcontextprotocol/clientCapabilities';
const META_SERVER = 'io.modelcontextprotocol/serverInfo';
const META_SUB = 'io.modelcontextprotocol/subscriptionId';
const SERVER_INFO = { name: 'loom-tasks-fixture', version: '0.0.1' };
const TERMINAL = new Set(['completed', 'failed', 'cancelled']);
const MAX_BODY = 4 * 1024 * 1024;

function usage(problem) {
  process.stderr.write(`tasks-fixture: ${problem}\nusage: node tasks-fixture.mjs --stdio | --http [PORT] `
    + '[--poll-ms N] [--ttl-ms N] [--forget-after-ms N] [--keepalive-ms N] [--rate-limit]\n');
  process.exit(2);
}

function parseArgs(argv) {
  const opts = { transport: null, port: null, pollMs: 200, ttlMs: 600000, forgetAfterMs: 10000, keepAliveMs: 15000,
    rateLimit: false };
  const number = (flag, v, min) => {
    if (!/^\d+$/.test(v ?? '') || Number(v) < min) {
      usage(`${flag} needs an integer >= ${min}, got ${v}`);
    }
    return Number(v);
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--stdio') {
      opts.transport = 'stdio';
    } else if (a === '--http') {
      opts.transport = 'http';
      if (/^\d+$/.test(argv[i + 1] ?? '')) {
        opts.port = Number(argv[++i]);
      }
    } else if (a === '--poll-ms') {
      opts.pollMs = number(a, argv[++i], 1);
    } else if (a === '--ttl-ms') {
      opts.ttlMs = number(a, argv[++i], 1);
    } else if (a === '--rate-limit') {
      opts.rateLimit = true;
    } else if (a === '--forget-after-ms') {
      opts.forgetAfterMs = number(a, argv[++i], 0);
    } else if (a === '--keepalive-ms') {
      opts.keepAliveMs = number(a, argv[++i], 1);
    } else {
      usage(`unknown argument ${a}`);
    }
  }
  if (!opts.transport) {
    usage('choose --stdio or --http');
  }
  if (opts.port === null) {
    opts.port = process.env.PORT ? Number(process.env.PORT) : 0;
  }
  if (!Number.isInteger(opts.port) || opts.port < 0 || opts.port > 65535) {
    usage(`bad port ${opts.port}`);
  }
  return opts;
}

const opts = parseArgs(process.argv.slice(2));

// ------------------------------------------------------------------------------------------------ errors and results

/** A JSON-RPC error to answer with; `status` is the HTTP status. */
class RpcError extends Error {
  constructor(code, message, data, status) {
    super(message);
    this.code = code;
    this.data = data;
    this.status = status ?? (code === -32601 ? 404 : code === -32603 ? 500 : 400);
  }
}
/** -32602 about the request's content (unknown task or tool, bad arguments): HTTP 200. */
const invalidParams = (message) => new RpcError(-32602, message, undefined, 200);
const needsTasks = (what) => new RpcError(-32021, `${what} needs the ${EXT} extension in the request's `
  + 'clientCapabilities', { requiredCapabilities: { extensions: { [EXT]: {} } } });

const text = (t) => ({ type: 'text', text: t });
const complete = (fields) => ({ ...fields, resultType: 'complete', _meta: { [META_SERVER]: SERVER_INFO } });
const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);

// ------------------------------------------------------------------------------------------------ tasks

const tasks = new Map();
const stats = { tasks: 0, polls: 0, early: 0, limited: 0 };
/** Open listen streams: { id, taskIds: Set, send(message) }. */
const listens = new Set();

function now() {
  return new Date().toISOString();
}

function taskOptions(args) {
  const int = (name, fallback) => {
    const v = args[name];
    if (v === undefined) {
      return fallback;
    }
    if (!Number.isInteger(v) || v < 1 || v > 86400000) {
      throw invalidParams(`argument ${name} must be an integer from 1 to 86400000, got ${JSON.stringify(v)}`);
    }
    return v;
  };
  return { pollMs: int('pollMs', opts.pollMs), pollMsLater: int('pollMsLater', undefined),
    ttlMs: int('ttlMs', opts.ttlMs) };
}

/** Creates and stores a task (stored before the CreateTaskResult goes out); `work(task)` starts its work. */
function createTask(tool, args, work) {
  const o = taskOptions(args);
  const at = now();
  const task = {
    taskId: randomUUID(), tool, status: 'working', createdAt: at, lastUpdatedAt: at, ttlMs: o.ttlMs,
    pollIntervalMs: o.pollMs, pollMsLater: o.pollMsLater, inputRequests: {}, onInput: null, result: undefined,
    error: undefined, timers: new Set(), lastSeen: Date.now(),
  };
  tasks.set(task.taskId, task);
  stats.tasks++;
  const forget = setTimeout(() => {
    clearTimers(task);
    tasks.delete(task.taskId);
  }, o.ttlMs + opts.forgetAfterMs);
  forget.unref();
  work(task);
  return { ...taskView(task, false), resultType: 'task', _meta: { [META_SERVER]: SERVER_INFO } };
}

function later(task, ms, fn) {
  const t = setTimeout(() => {
    task.timers.delete(t);
    fn();
  }, ms);
  task.timers.add(t);
}

function clearTimers(task) {
  for (const t of task.timers) {
    clearTimeout(t);
  }
  task.timers.clear();
}

/** The Task (or, with `detailed`, the DetailedTask) of a task. */
function taskView(task, detailed) {
  const v = { taskId: task.taskId, status: task.status };
  if (task.statusMessage !== undefined) {
    v.statusMessage = task.statusMessage;
  }
  Object.assign(v, { createdAt: task.createdAt, lastUpdatedAt: task.lastUpdatedAt, ttlMs: task.ttlMs,
    pollIntervalMs: task.pollIntervalMs });
  if (detailed) {
    if (task.status === 'input_required') {
      v.inputRequests = { ...task.inputRequests };
    } else if (task.status === 'completed') {
      v.result = task.result;
    } else if (task.status === 'failed') {
      v.error = task.error;
    }
  }
  return v;
}

/** Moves a task to a new status (a terminal one is final) and tells the listen streams that follow it. */
function setStatus(task, status, fields = {}) {
  if (TERMINAL.has(task.status)) {
    return;
  }
  Object.assign(task, fields, { status, lastUpdatedAt: now() });
  if (TERMINAL.has(status)) {
    clearTimers(task);
    task.inputRequests = {};
    task.onInput = null;
  }
  for (const l of listens) {
    if (l.taskIds.has(task.taskId)) {
      pushTask(l, task);
    }
  }
}

function pushTask(listen, task) {
  listen.send({ jsonrpc: '2.0', method: 'notifications/tasks',
    params: { ...taskView(task, true), _meta: { [META_SUB]: listen.id } } });
}

function completeWith(task, result) {
  setStatus(task, 'completed', { result });
}

/** Parks a task in input_required with the given requests; `onInput(key, response)` takes each answer. */
function askInput(task, requests, onInput) {
  task.onInput = onInput;
  setStatus(task, 'input_required', { inputRequests: requests });
}

function elicit(message, properties) {
  return { method: 'elicitation/create', params: { mode: 'form', message,
    requestedSchema: { type: 'object', properties, required: Object.keys(properties) } } };
}

function findTask(params, method) {
  if (typeof params.taskId !== 'string') {
    throw invalidParams(`${method} needs params.taskId (a string)`);
  }
  const task = tasks.get(params.taskId);
  if (!task) {
    throw invalidParams(`unknown or expired task ${params.taskId}`);
  }
  return task;
}

function tasksGet(params) {
  const task = findTask(params, 'tasks/get');
  stats.polls++;
  const gap = Date.now() - task.lastSeen;
  if (opts.rateLimit && gap < task.pollIntervalMs / 2) {
    stats.limited++;
    throw new RpcError(-32000, `rate limit: poll task ${task.taskId} at most every ${task.pollIntervalMs} ms `
      + `(this one came ${gap} ms after the previous accepted poll or the creation)`, undefined, 429);
  }
  if (gap < task.pollIntervalMs * 0.9) {
    stats.early++;
  }
  task.lastSeen = Date.now();
  if (task.pollMsLater !== undefined) {
    task.pollIntervalMs = task.pollMsLater;
  }
  return complete(taskView(task, true));
}

function tasksUpdate(params) {
  const task = findTask(params, 'tasks/update');
  if (!isObject(params.inputResponses)) {
    throw invalidParams('tasks/update needs params.inputResponses (an object)');
  }
  if (task.status === 'input_required') {
    for (const [key, response] of Object.entries(params.inputResponses)) {
      if (key in task.inputRequests && task.status === 'input_required') {
        delete task.inputRequests[key];
        task.onInput(key, isObject(response) ? response : {});
      }
    }
  }
  return complete({});
}

function tasksCancel(params) {
  const task = findTask(params, 'tasks/cancel');
  setStatus(task, 'cancelled', { statusMessage: 'cancelled by tasks/cancel' });
  return complete({});
}

// ------------------------------------------------------------------------------------------------ tools

const schema = (properties, required = []) => ({ type: 'object', properties, required });
const TASK_ARGS = {
  pollMs: { type: 'integer', description: "this task's pollIntervalMs" },
  pollMsLater: { type: 'integer', description: 'the pollIntervalMs reported from the first tasks/get on' },
  ttlMs: { type: 'integer', description: "this task's ttlMs" },
};
const TOOLS = [
  { name: 'greet', description: 'Greets (synchronous)', inputSchema: schema({ name: { type: 'string' } }) },
  { name: 'slow_compute', description: 'Computes for `seconds` (a task when the extension is declared)',
    inputSchema: schema({ seconds: { type: 'number' }, label: { type: 'string' }, ...TASK_ARGS }, ['seconds']) },
  { name: 'quick_task', description: 'A task that completes after `ms` (default 50)',
    inputSchema: schema({ ms: { type: 'integer' }, n: { type: 'integer' }, ...TASK_ARGS }) },
  { name: 'failing_job', description: 'Task-only: completes with isError:true',
    inputSchema: schema({ seconds: { type: 'number' }, ...TASK_ARGS }) },
  { name: 'protocol_error_job', description: 'Task-only: ends failed with a -32603 error',
    inputSchema: schema({ seconds: { type: 'number' }, ...TASK_ARGS }) },
  { name: 'confirm_delete', description: 'Task-only: asks to confirm (one elicitation) before deleting',
    inputSchema: schema({ filename: { type: 'string' }, ...TASK_ARGS }, ['filename']) },
  { name: 'multi_input', description: 'Task-only: asks two questions at once',
    inputSchema: schema({ ...TASK_ARGS }) },
  { name: 'test_tool_with_task', description: 'Task-only: asks a name (MRTR), then runs a task with it',
    inputSchema: schema({ ...TASK_ARGS }) },
  { name: 'poll_stats', description: 'Counts of tasks, tasks/get calls and early polls', inputSchema: schema({}) },
];
const TOOL_NAMES = new Set(TOOLS.map((t) => t.name));

function seconds(args, fallback, max = 3600) {
  const v = args.seconds ?? fallback;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > max) {
    throw invalidParams(`argument seconds must be a number from 0 to ${max}, got ${JSON.stringify(args.seconds)}`);
  }
  return Math.round(v * 1000);
}

/** What a tools/call answers: a result, or a promise of one (synchronous work). */
function callTool(params, ctx) {
  if (typeof params.name !== 'string') {
    throw invalidParams('tools/call needs params.name (a string)');
  }
  if (!TOOL_NAMES.has(params.name)) {
    throw invalidParams(`unknown tool ${params.name}`);
  }
  if (params.arguments !== undefined && !isObject(params.arguments)) {
    throw invalidParams('tools/call params.arguments must be an object');
  }
  const args = params.arguments ?? {};
  const name = params.name;
  const taskOnly = (what) => {
    if (!ctx.tasks) {
      throw needsTasks(`tool ${what}`);
    }
  };
  switch (name) {
    case 'greet':
      return complete({ content: [text(`Hello, ${typeof args.name === 'string' ? args.name : 'World'}!`)] });
    case 'poll_stats':
      return complete({ content: [text(JSON.stringify(stats))], structuredContent: { ...stats } });
    case 'slow_compute': {
      const ms = seconds(args, undefined);
      const done = () => ({ content: [text(`computed after ${ms} ms`)] });
      if (!ctx.tasks) {
        return ctx.delay(ms).then(() => complete(done()));
      }
      return createTask(name, args, (task) => later(task, ms, () => completeWith(task, done())));
    }
    case 'quick_task': {
      const ms = args.ms ?? 50;
      if (!Number.isInteger(ms) || ms < 0 || ms > 3600000) {
        throw invalidParams(`argument ms must be an integer from 0 to 3600000, got ${JSON.stringify(args.ms)}`);
      }
      const done = () => ({ content: [text(`quick ${args.n ?? 0}`)] });
      if (!ctx.tasks) {
        return ctx.delay(ms).then(() => complete(done()));
      }
      return createTask(name, args, (task) => later(task, ms, () => completeWith(task, done())));
    }
    case 'failing_job': {
      taskOnly(name);
      const ms = seconds(args, 1);
      return createTask(name, args, (task) => later(task, ms, () => completeWith(task,
        { content: [text('the job failed (a tool error)')], isError: true })));
    }
    case 'protocol_error_job': {
      taskOnly(name);
      const ms = seconds(args, 0.5);
      return createTask(name, args, (task) => later(task, ms, () => setStatus(task, 'failed',
        { error: { code: -32603, message: 'simulated internal error' } })));
    }
    case 'confirm_delete': {
      taskOnly(name);
      if (typeof args.filename !== 'string') {
        throw invalidParams('argument filename must be a string');
      }
      const file = args.filename;
      return createTask(name, args, (task) => later(task, 20, () => askInput(task, {
        [`confirm-${randomUUID()}`]: elicit(`Delete ${file}?`, { confirm: { type: 'boolean' } }),
      }, (key, answer) => {
        const yes = answer.action === 'accept' && answer.content?.confirm === true;
        setStatus(task, 'working');
        later(task, 20, () => completeWith(task, yes ? { content: [text(`deleted ${file}`)] }
          : { content: [text(`kept ${file}`)], isError: true }));
      })));
    }
    case 'multi_input': {
      taskOnly(name);
      const id = randomUUID();
      const nameKey = `name-${id}`;
      return createTask(name, args, (task) => later(task, 20, () => {
        const answers = {};
        askInput(task, {
          [nameKey]: elicit('Your name?', { name: { type: 'string' } }),
          [`confirm-${id}`]: elicit('Go ahead?', { confirm: { type: 'boolean' } }),
        }, (key, answer) => {
          answers[key === nameKey ? 'name' : 'confirm'] = answer.content?.[key === nameKey ? 'name' : 'confirm'];
          if (Object.keys(task.inputRequests).length === 0) {
            setStatus(task, 'working');
            later(task, 20, () => completeWith(task,
              { content: [text(`name=${answers.name} confirm=${answers.confirm}`)] }));
          } else {
            task.lastUpdatedAt = now();
          }
        });
      }));
    }
    case 'test_tool_with_task':
      taskOnly(name);
      return mrtrThenTask(params, args, ctx);
    default:
      throw invalidParams(`unknown tool ${name}`);
  }
}

// MRTR state travels in requestState: the gathered key, signed with a per-process secret (the server keeps nothing).
const SECRET = randomBytes(32);
const sign = (payload) => createHmac('sha256', SECRET).update(payload).digest('base64url');

function mrtrThenTask(params, args, ctx) {
  if (!isObject(ctx.caps.elicitation)) {
    throw new RpcError(-32021, 'test_tool_with_task asks for input: it needs the elicitation capability',
      { requiredCapabilities: { elicitation: { form: {} }, extensions: { [EXT]: {} } } });
  }
  const key = 'user_name';
  const answer = isObject(params.inputResponses) ? params.inputResponses[key] : undefined;
  if (answer === undefined) {
    const payload = Buffer.from(JSON.stringify({ tool: 'test_tool_with_task', key, at: Date.now() }))
      .toString('base64url');
    return { resultType: 'input_required',
      inputRequests: { [key]: elicit('What is your name?', { name: { type: 'string' } }) },
      requestState: `${payload}.${sign(payload)}`, _meta: { [META_SERVER]: SERVER_INFO } };
  }
  const state = typeof params.requestState === 'string' ? params.requestState.split('.') : [];
  const expected = state.length === 2 ? Buffer.from(sign(state[0])) : null;
  if (!expected || expected.length !== Buffer.byteLength(state[1])
      || !timingSafeEqual(expected, Buffer.from(state[1]))) {
    throw invalidParams('test_tool_with_task: requestState is missing or was changed (it must come back as sent)');
  }
  if (!isObject(answer) || answer.action !== 'accept' || !isObject(answer.content)) {
    return complete({ content: [text(`no name was given (action: ${answer?.action})`)], isError: true });
  }
  const gathered = Object.values(answer.content).find((v) => typeof v === 'string') ?? '';
  return createTask('test_tool_with_task', args, (task) => later(task, 50, () => completeWith(task,
    { content: [text(`Hello, ${gathered}! (gathered before the task)`)] })));
}

// ------------------------------------------------------------------------------------------------ dispatch

const NAMED = { 'tools/call': 'name', 'prompts/get': 'name', 'resources/read': 'uri', 'tasks/get': 'taskId',
  'tasks/update': 'taskId', 'tasks/cancel': 'taskId' };

function decodeHeader(value) {
  const m = /^=\?base64\?([A-Za-z0-9+/]*={0,2})\?=$/.exec(value);
  if (!m) {
    return value;
  }
  const bytes = Buffer.from(m[1], 'base64');
  if (bytes.toString('base64').replace(/=+$/, '') !== m[1].replace(/=+$/, '')) {
    throw new RpcError(-32020, `malformed base64 header value ${value}`);
  }
  return bytes.toString('utf8');
}

/** The HTTP header checks (SEP-2243) of one request. */
function checkHeaders(headers, method, params) {
  const version = headers['mcp-protocol-version'];
  if (version === undefined) {
    throw new RpcError(-32020, 'missing MCP-Protocol-Version header');
  }
  const headerMethod = headers['mcp-method'];
  if (headerMethod === undefined) {
    throw new RpcError(-32020, 'missing Mcp-Method header');
  }
  if (headerMethod !== method) {
    throw new RpcError(-32020, `Mcp-Method header ${headerMethod} does not match the body's method ${method}`);
  }
  const field = NAMED[method];
  if (field && typeof params?.[field] === 'string') {
    const name = headers['mcp-name'];
    if (name === undefined) {
      throw new RpcError(-32020, `missing Mcp-Name header (${method} needs params.${field} in it)`);
    }
    if (decodeHeader(name) !== params[field]) {
      throw new RpcError(-32020, `Mcp-Name header does not match params.${field} of ${method}`);
    }
  }
  return version;
}

/** The per-request envelope: _meta keys and the protocol version. Returns the client's capabilities. */
function checkEnvelope(params, headerVersion) {
  const meta = params?._meta;
  const missing = [META_VERSION, META_CAPS].filter((k) => !isObject(meta) || meta[k] === undefined);
  if (missing.length > 0) {
    throw new RpcError(-32602, `params._meta lacks ${missing.join(' and ')}`);
  }
  if (!isObject(meta[META_CAPS])) {
    throw new RpcError(-32602, `params._meta["${META_CAPS}"] must be an object`);
  }
  const version = meta[META_VERSION];
  if (headerVersion !== undefined && headerVersion !== version) {
    throw new RpcError(-32020, `MCP-Protocol-Version header ${headerVersion} does not match _meta protocolVersion`);
  }
  if (version !== VERSION) {
    throw new RpcError(-32022, `unsupported protocol version ${JSON.stringify(version)}`,
      { supported: [VERSION], requested: String(version) });
  }
  return meta[META_CAPS];
}

/**
 * Handles one JSON-RPC request. Returns a result, a promise of one, or {listen: params} for subscriptions/listen
 * (the transport streams it); throws RpcError. `headers` is undefined over stdio.
 */
function handleRequest(msg, headers, transportCtx) {
  const { method } = msg;
  const params = msg.params === undefined ? {} : msg.params;
  if (!isObject(params)) {
    throw new RpcError(-32602, 'params must be an object');
  }
  if (method === 'initialize') {
    throw new RpcError(-32022, 'this server speaks MCP 2026-07-28 only (no initialize handshake)',
      { supported: [VERSION], requested: String(params.protocolVersion ?? '') });
  }
  const headerVersion = headers ? checkHeaders(headers, method, params) : undefined;
  const caps = checkEnvelope(params, headerVersion);
  const ctx = { ...transportCtx, caps, tasks: isObject(caps.extensions) && caps.extensions[EXT] !== undefined };
  switch (method) {
    case 'server/discover':
      return complete({ supportedVersions: [VERSION], capabilities: { tools: {}, extensions: { [EXT]: {} } },
        instructions: 'loom-mcp tasks fixture: tools greet, slow_compute, quick_task, failing_job, '
          + 'protocol_error_job, confirm_delete, multi_input, test_tool_with_task, poll_stats.',
        ttlMs: 0, cacheScope: 'public' });
    case 'tools/list':
      return complete({ tools: TOOLS, ttlMs: 0, cacheScope: 'public' });
    case 'tools/call':
      return callTool(params, ctx);
    case 'tasks/get':
    case 'tasks/update':
    case 'tasks/cancel':
      if (!ctx.tasks) {
        throw needsTasks(method);
      }
      return method === 'tasks/get' ? tasksGet(params) : method === 'tasks/update' ? tasksUpdate(params)
        : tasksCancel(params);
    case 'subscriptions/listen': {
      if (!isObject(params.notifications)) {
        throw invalidParams('subscriptions/listen needs params.notifications (an object)');
      }
      const ids = params.notifications.taskIds;
      if (ids !== undefined) {
        if (!Array.isArray(ids) || ids.some((i) => typeof i !== 'string')) {
          throw invalidParams('notifications.taskIds must be an array of strings');
        }
        if (!ctx.tasks) {
          throw needsTasks('subscriptions/listen with taskIds');
        }
      }
      // only task ids are served (the tools never change): the ack holds what was asked for of them, if anything
      return { listen: ids === undefined ? null : ids.filter((i) => tasks.has(i)) };
    }
    default:
      throw new RpcError(-32601, `method not found: ${method}`);
  }
}

/**
 * Opens a listen stream: acknowledges (the known ones of the requested task ids; null = none requested), sends the
 * current state of each task, then follows them.
 */
function openListen(id, taskIds, send) {
  const listen = { id, taskIds: new Set(taskIds ?? []), send };
  listens.add(listen);
  send({ jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged',
    params: { notifications: taskIds === null ? {} : { taskIds }, _meta: { [META_SUB]: id } } });
  for (const t of listen.taskIds) {
    pushTask(listen, tasks.get(t));
  }
  return listen;
}

/** Classifies one parsed message: 'request', 'notification', or throws RpcError (-32600). */
function kind(msg) {
  if (Array.isArray(msg)) {
    throw new RpcError(-32600, 'batches are not supported');
  }
  if (!isObject(msg) || msg.jsonrpc !== '2.0') {
    throw new RpcError(-32600, 'not a JSON-RPC 2.0 message');
  }
  if (typeof msg.method !== 'string') {
    throw new RpcError(-32600, 'a client may send only requests and notifications (there are no server requests)');
  }
  if (!('id' in msg)) {
    return 'notification';
  }
  if (!(typeof msg.id === 'string' || Number.isInteger(msg.id))) {
    throw new RpcError(-32600, 'the request id must be a string or an integer');
  }
  return 'request';
}

const errorBody = (id, e) => {
  const error = { code: e.code, message: e.message };
  if (e.data !== undefined) {
    error.data = e.data;
  }
  return { jsonrpc: '2.0', id: id ?? null, error };
};

function asRpcError(e) {
  if (e instanceof RpcError) {
    return e;
  }
  process.stderr.write(`tasks-fixture: ${e?.stack ?? e}\n`);
  return new RpcError(-32603, `internal error: ${e?.message ?? e}`);
}

// ------------------------------------------------------------------------------------------------ stdio

function serveStdio() {
  const write = (m) => process.stdout.write(`${JSON.stringify(m)}\n`);
  /** In-flight requests that notifications/cancelled can end: id (JSON) -> cancel(). */
  const cancellable = new Map();
  const onLine = (line) => {
    if (line.trim() === '') {
      return;
    }
    let msg;
    try {
      msg = JSON.parse(line);
    } catch (e) {
      write(errorBody(null, new RpcError(-32700, `parse error: ${e.message}`)));
      return;
    }
    let k;
    try {
      k = kind(msg);
    } catch (e) {
      write(errorBody(isObject(msg) ? msg.id : null, e));
      return;
    }
    if (k === 'notification') {
      if (msg.method === 'notifications/cancelled' && isObject(msg.params)) {
        cancellable.get(JSON.stringify(msg.params.requestId))?.();
      }
      return;
    }
    const key = JSON.stringify(msg.id);
    const ctx = {
      delay: (ms) => new Promise((resolve) => {
        const timer = setTimeout(resolve, ms);
        cancellable.set(key, () => {
          clearTimeout(timer);
          cancellable.delete(key);
        });
      }),
    };
    let out;
    try {
      out = handleRequest(msg, undefined, ctx);
    } catch (e) {
      write(errorBody(msg.id, asRpcError(e)));
      return;
    }
    if (out && 'listen' in out) {
      const listen = openListen(msg.id, out.listen, write);
      cancellable.set(key, () => {
        listens.delete(listen);
        cancellable.delete(key);
      });
      return;
    }
    if (!(out instanceof Promise)) {
      write({ jsonrpc: '2.0', id: msg.id, result: out });
      return;
    }
    // synchronous work (a tool without a task): notifications/cancelled drops it, and no answer goes out
    out.then((result) => {
      if (cancellable.delete(key)) {
        write({ jsonrpc: '2.0', id: msg.id, result });
      }
    }, (e) => write(errorBody(msg.id, asRpcError(e))));
  };
  let buf = '';
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk) => {
    buf += chunk;
    let nl;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      onLine(line);
    }
    if (buf.length > MAX_BODY) {
      buf = '';
      write(errorBody(null, new RpcError(-32700, `a message longer than ${MAX_BODY} bytes`)));
    }
  });
  process.stdin.on('end', () => {
    if (buf.trim() !== '') {
      onLine(buf);
    }
    process.exit(0);
  });
  process.stdout.on('error', () => process.exit(0));
}

// ------------------------------------------------------------------------------------------------ HTTP

function serveHttp() {
  const sendJson = (res, status, body) => {
    const data = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) });
    res.end(data);
  };
  const streams = new Set();
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/mcp') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    if (req.method !== 'POST') {
      sendJson(res, 405, errorBody(null, new RpcError(-32000, `method ${req.method} not allowed (POST only)`)));
      return;
    }
    const type = req.headers['content-type'] ?? '';
    if (!/^application\/json\b/i.test(type)) {
      sendJson(res, 415, errorBody(null, new RpcError(-32000, `Content-Type must be application/json, got ${type}`)));
      return;
    }
    const accept = req.headers.accept ?? '';
    if (!/application\/json|\*\/\*/i.test(accept) || !/text\/event-stream|\*\/\*/i.test(accept)) {
      sendJson(res, 406, errorBody(null,
        new RpcError(-32000, `Accept must list application/json and text/event-stream, got ${accept}`)));
      return;
    }
    const chunks = [];
    let size = 0;
    req.on('data', (c) => {
      size += c.length;
      if (size > MAX_BODY) {
        sendJson(res, 413, errorBody(null, new RpcError(-32000, `body larger than ${MAX_BODY} bytes`)));
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => {
      if (size <= MAX_BODY) {
        onBody(req, res, Buffer.concat(chunks).toString('utf8'));
      }
    });
  });

  const onBody = (req, res, body) => {
    let msg;
    try {
      msg = JSON.parse(body);
    } catch (e) {
      sendJson(res, 400, errorBody(null, new RpcError(-32700, `parse error: ${e.message}`)));
      return;
    }
    let k;
    try {
      k = kind(msg);
    } catch (e) {
      sendJson(res, e.status, errorBody(isObject(msg) ? msg.id : null, e));
      return;
    }
    if (k === 'notification') {
      res.writeHead(202).end();
      return;
    }
    let closed = false;
    let timer;
    res.on('close', () => {
      closed = true;
      clearTimeout(timer);
    });
    const ctx = { delay: (ms) => new Promise((resolve) => { timer = setTimeout(resolve, ms); }) };
    let out;
    try {
      out = handleRequest(msg, req.headers, ctx);
    } catch (e) {
      const err = asRpcError(e);
      sendJson(res, err.status, errorBody(msg.id, err));
      return;
    }
    if (out && 'listen' in out) {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache',
        'x-accel-buffering': 'no' });
      res.flushHeaders();
      const write = (m) => res.write(`event: message\ndata: ${JSON.stringify(m)}\n\n`);
      const listen = openListen(msg.id, out.listen, write);
      const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), opts.keepAliveMs);
      const stream = {
        end: () => {
          write({ jsonrpc: '2.0', id: msg.id, result: { resultType: 'complete', _meta: { [META_SUB]: msg.id } } });
          res.end();
        },
      };
      streams.add(stream);
      res.on('close', () => {
        clearInterval(keepAlive);
        listens.delete(listen);
        streams.delete(stream);
      });
      return;
    }
    Promise.resolve(out).then((result) => {
      if (!closed) {
        sendJson(res, 200, { jsonrpc: '2.0', id: msg.id, result });
      }
    }, (e) => {
      if (!closed) {
        const err = asRpcError(e);
        sendJson(res, err.status, errorBody(msg.id, err));
      }
    });
  };

  // Idle keep-alive connections stay open longer than the JDK HTTP client keeps them (30 s): with Node's default of 5 s
  // the server closed a connection at the instant the client reused it ("header parser received no bytes") under load
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.listen(opts.port, '127.0.0.1', () => {
    process.stdout.write(`http://127.0.0.1:${server.address().port}/mcp\n`);
  });
  const stop = () => {
    for (const s of [...streams]) {
      s.end();
    }
    server.close();
    server.closeIdleConnections?.();
    setTimeout(() => process.exit(0), 200).unref();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

if (opts.transport === 'stdio') {
  serveStdio();
} else {
  serveHttp();
}
