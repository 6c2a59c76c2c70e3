// loom-mcp's modern-era (MCP 2026-07-28) test server, built on the reference SDK
// (@modelcontextprotocol/server 2.4.0, @modelcontextprotocol/node 2.1.2, zod 4.6.7).
//
// Usage: node modern-fixture.mjs --stdio | --http [PORT] [--legacy serve|reject]
//   --stdio           serve one connection over stdin/stdout (serveStdio); exits when stdin ends
//   --http [PORT]     serve Streamable HTTP at http://127.0.0.1:PORT/mcp (127.0.0.1 only). Without PORT the
//                     environment's PORT is used, else 0 (an ephemeral port). Once listening, the first line on
//                     stdout is the endpoint, e.g. "http://127.0.0.1:39211/mcp".
//   --legacy serve    (default) dual-era: 2026-07-28 clients and 2025-era clients (initialize) from one factory
//   --legacy reject   modern-only: a 2025-era opening is refused with -32022 naming the supported versions
//
// What it serves (the same in both eras; the legacy shim of the SDK answers an input_required return on a 2025
// connection with a real elicitation/create request):
//   tools    echo {message}                -> "Echo: <message>"
//            deploy {env}                  -> MRTR: input_required with one form elicitation "confirm"
//                                             ({confirm: boolean}) and requestState "opaque-state-for-<env>";
//                                             accept + confirm:true -> "Deployed to <env>"; anything else ->
//                                             isError "Deploy to <env> declined"
//            add-note {text}               -> appends to notes://all, then emits notifications/resources/updated
//                                             for it and tools + prompts list_changed; result "saved (<count>)"
//            route {region, count, note?}  -> region is x-mcp-header "Region", count (integer) x-mcp-header
//                                             "Count"; echoes "region=<region> count=<count> note=<note>"
//            bad-header {ratio}            -> an INVALID x-mcp-header (on a number): conforming HTTP clients drop it
//            slow {ms}                     -> answers "slept <ms>" after ms milliseconds (for deadlines/cancel)
//            trace-meta {}                 -> the trace context the request carried in params._meta, as JSON text:
//                                             {"traceparent":..,"tracestate":..,"baggage":..} (absent keys omitted)
//   prompt   greeting {name}               -> one user message "Hello, <name>!"
//   resource notes://all (text/plain)      -> the notes, one per line; subscribable (legacy: resources/subscribe;
//                                             modern: subscriptions/listen resourceSubscriptions)
// Notes are process-wide: over HTTP every client sees every note (and every listen stream its change events);
// over stdio each process has its own.
import { createServer } from 'node:http';
import { McpServer, createMcpHandler, inputRequired, inputResponse } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { toNodeHandler } from '@modelcontextprotocol/node';
import * as z from 'zod';

const NOTES_URI = 'notes://all';

function usage(problem) {
  process.stderr.write(`modern-fixture: ${problem}\n`
    + 'usage: node modern-fixture.mjs --stdio | --http [PORT] [--legacy serve|reject]\n');
  process.exit(2);
}

function parseArgs(argv) {
  const opts = { transport: null, port: null, legacy: 'serve' };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--stdio') {
      opts.transport = 'stdio';
    } else if (a === '--http') {
      opts.transport = 'http';
      if (i + 1 < argv.length && /^\d+$/.test(argv[i + 1])) {
        opts.port = Number(argv[++i]);
      }
    } else if (a === '--legacy') {
      const v = argv[++i];
      if (v !== 'serve' && v !== 'reject') {
        usage(`--legacy needs serve or reject, got ${v}`);
      }
      opts.legacy = v;
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
const modernOnly = opts.legacy === 'reject';
const notes = [];
/** Over HTTP: the handler whose bus feeds every open subscriptions/listen stream. */
let httpHandler = null;
/** Over stdio: the pinned instance of this connection and the URIs a 2025-era client subscribed to. */
let stdioServer = null;
const legacySubscribed = new Set();

const text = (t) => ({ type: 'text', text: t });

function announceChanges() {
  if (httpHandler) {
    httpHandler.notify.resourceUpdated(NOTES_URI);
    httpHandler.notify.toolsChanged();
    httpHandler.notify.promptsChanged();
    return;
  }
  const s = stdioServer;
  if (!s) {
    return;
  }
  // a modern connection routes these onto its open listen streams (filtered per stream); a 2025 connection
  // gets them as plain notifications
  if (s.era === 'modern' || legacySubscribed.has(NOTES_URI)) {
    s.instance.server.sendResourceUpdated({ uri: NOTES_URI }).catch(() => {});
  }
  s.instance.sendToolListChanged();
  s.instance.sendPromptListChanged();
}

function factory(ctx) {
  const server = new McpServer(
    { name: modernOnly ? 'loom-modern-only-fixture' : 'loom-modern-fixture', version: '0.0.1' },
    {
      capabilities: {
        tools: { listChanged: true },
        prompts: { listChanged: true },
        resources: { subscribe: true, listChanged: true },
      },
      instructions: 'loom-mcp test fixture: echo, deploy (asks to confirm), add-note, route (x-mcp-header).',
    });

  server.registerTool('echo', {
    description: 'Echoes the message',
    inputSchema: z.object({ message: z.string() }),
  }, async ({ message }) => ({ content: [text(`Echo: ${message}`)] }));

  server.registerTool('deploy', {
    description: 'Deploys after the user confirms (multi round-trip: an elicitation)',
    inputSchema: z.object({ env: z.string() }),
  }, async ({ env }, c) => {
    const state = `opaque-state-for-${env}`;
    const answer = inputResponse(c.mcpReq.inputResponses, 'confirm');
    if (answer.kind === 'missing') {
      return inputRequired({
        inputRequests: {
          confirm: inputRequired.elicit({
            message: `Deploy to ${env}?`,
            requestedSchema: {
              type: 'object',
              properties: { confirm: { type: 'boolean' } },
              required: ['confirm'],
            },
          }),
        },
        requestState: state,
      });
    }
    if (ctx.era === 'modern') {
      const echoed = typeof c.mcpReq.requestState === 'function' ? c.mcpReq.requestState() : undefined;
      if (echoed !== state) {
        return { content: [text(`requestState was not echoed: ${JSON.stringify(echoed)}`)], isError: true };
      }
    }
    if (answer.kind === 'elicit' && answer.action === 'accept' && answer.content?.confirm === true) {
      return { content: [text(`Deployed to ${env}`)] };
    }
    return { content: [text(`Deploy to ${env} declined`)], isError: true };
  });

  server.registerTool('summarize', {
    description: 'Summarizes a topic with the client\'s model (multi round-trip: a sampling request)',
    inputSchema: z.object({ topic: z.string() }),
  }, async ({ topic }, c) => {
    const answer = inputResponse(c.mcpReq.inputResponses, 'draft');
    if (answer.kind === 'missing') {
      return inputRequired({
        inputRequests: {
          draft: inputRequired.createMessage({
            messages: [{ role: 'user', content: text(`Summarize ${topic}`) }],
            maxTokens: 100,
          }),
        },
      });
    }
    const content = answer.result?.content ?? answer.content;
    return { content: [text(`summary: ${content?.text ?? JSON.stringify(answer)}`)] };
  });

  server.registerTool('add-note', {
    description: `Appends a note to ${NOTES_URI} and announces the change`,
    inputSchema: z.object({ text: z.string() }),
  }, async ({ text: note }) => {
    notes.push(note);
    announceChanges();
    return { content: [text(`saved (${notes.length})`)] };
  });

  server.registerTool('route', {
    description: 'Echoes its routed parameters (Region and Count travel as Mcp-Param-* headers over HTTP)',
    inputSchema: z.object({
      region: z.string().meta({ 'x-mcp-header': 'Region' }),
      count: z.number().int().meta({ 'x-mcp-header': 'Count' }),
      note: z.string().optional(),
    }),
  }, async ({ region, count, note }) => ({
    content: [text(`region=${region} count=${count} note=${note ?? ''}`)],
  }));

  server.registerTool('bad-header', {
    description: 'Carries an invalid x-mcp-header (on a number): conforming HTTP clients never list or call it',
    inputSchema: z.object({ ratio: z.number().meta({ 'x-mcp-header': 'Ratio' }) }),
  }, async ({ ratio }) => ({ content: [text(`ratio=${ratio}`)] }));

  server.registerTool('slow', {
    description: 'Answers after the given number of milliseconds',
    inputSchema: z.object({ ms: z.number().int().min(0).max(600000) }),
  }, async ({ ms }, c) => {
    await new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      c?.mcpReq?.signal?.addEventListener?.('abort', () => { clearTimeout(timer); resolve(); });
    });
    return { content: [text(`slept ${ms}`)] };
  });

  server.registerTool('trace-meta', {
    description: 'Answers with the traceparent, tracestate and baggage its request carried in params._meta',
    inputSchema: z.object({}),
  }, async (_args, c) => {
    const meta = c?.mcpReq?._meta ?? {};
    const seen = {};
    for (const key of ['traceparent', 'tracestate', 'baggage']) {
      if (meta[key] !== undefined) {
        seen[key] = meta[key];
      }
    }
    return { content: [text(JSON.stringify(seen))] };
  });

  server.registerPrompt('greeting', {
    description: 'Greets someone',
    argsSchema: z.object({ name: z.string() }),
  }, ({ name }) => ({
    messages: [{ role: 'user', content: text(`Hello, ${name}!`) }],
  }));

  server.registerResource('notes', NOTES_URI, {
    description: 'Every note added with add-note, one per line',
    mimeType: 'text/plain',
  }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: 'text/plain', text: notes.join('\n') }],
  }));

  if (ctx.era === 'legacy') {
    // 2025-era resource subscriptions (removed in 2026-07-28, where subscriptions/listen replaces them)
    server.server.setRequestHandler('resources/subscribe', async (req) => {
      legacySubscribed.add(req.params.uri);
      return {};
    });
    server.server.setRequestHandler('resources/unsubscribe', async (req) => {
      legacySubscribed.delete(req.params.uri);
      return {};
    });
  }
  if (opts.transport === 'stdio') {
    // serveStdio builds one instance per connection (plus a discarded one per server/discover probe): the last
    // one built is the one that serves; a probe instance never sends anything
    stdioServer = { instance: server, era: ctx.era };
  }
  return server;
}

const onerror = (e) => process.stderr.write(`modern-fixture: ${e?.message ?? e}\n`);

if (opts.transport === 'stdio') {
  serveStdio(factory, { legacy: opts.legacy, onerror });
} else {
  httpHandler = createMcpHandler(factory, { legacy: modernOnly ? 'reject' : 'stateless', onerror });
  const node = toNodeHandler(httpHandler, { onerror });
  const http = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/mcp') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    node(req, res);
  });
  // Idle keep-alive connections stay open longer than the JDK HTTP client keeps them (30 s): with Node's default of 5 s
  // the server closed a connection at the instant the client reused it ("header parser received no bytes") under load
  http.keepAliveTimeout = 65_000;
  http.headersTimeout = 66_000;
  http.listen(opts.port, '127.0.0.1', () => {
    process.stdout.write(`http://127.0.0.1:${http.address().port}/mcp\n`);
  });
  const stop = () => {
    http.close();
    httpHandler.close().finally(() => process.exit(0));
    setTimeout(() => process.exit(0), 1000).unref();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
