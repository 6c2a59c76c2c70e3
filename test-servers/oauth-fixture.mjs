// loom-mcp's OAuth-protected MCP test server: an MCP server (Streamable HTTP, stateless, the 2025-11-25 wire) behind
// the pinned @modelcontextprotocol/sdk 1.32.2's own authorization server router (mcpAuthRouter: RFC 8414 metadata,
// RFC 9728 protected-resource metadata, dynamic client registration, /authorize, /token with PKCE S256, refresh) and
// its bearer middleware (requireBearerAuth: 401 with resource_metadata, 403 insufficient_scope). The authorization
// endpoint approves at once (no user): it answers 302 to redirect_uri?code=...&state=...&iss=<issuer>, so a client
// that reads or follows the redirect gets a code without a browser.
//
// Usage: node oauth-fixture.mjs --http [PORT] [--access-ttl S] [--no-refresh] [--reuse-detection] [--scope 'A B']
//   --http [PORT]     listen on http://127.0.0.1:PORT (127.0.0.1 only; without PORT: 0 = ephemeral). Once listening,
//                     the first line on stdout is the MCP endpoint http://127.0.0.1:PORT/mcp.
//   --access-ttl S    lifetime of access tokens in seconds (default 3600; expires_in says so, and an expired token is
//                     refused with 401 invalid_token)
//   --no-refresh      issue no refresh tokens (default: every token response has one; refresh rotates it)
//   --reuse-detection a refresh token presented again after it was rotated revokes its whole token family (every
//                     access and refresh token descended from the same authorization; RFC 9700 section 4.14.2), as
//                     authorization servers with reuse detection do: the request fails with invalid_grant and the
//                     family's access tokens are refused from then on (counted in "revocations")
//   --scope 'A B'     scopes the MCP endpoint requires (advertised as scopes_supported; a token without them gets 403
//                     insufficient_scope). Default none.
//
// Issuer: http://127.0.0.1:PORT/ (the SDK's form, with the trailing slash). Token endpoint client authentication:
// client_secret_post or none as the SDK implements it, and also client_secret_basic (translated to the body before
// the SDK's handler). Resource: the authorization and token requests' `resource` must be the MCP endpoint when sent;
// tokens are bound to it (the bearer middleware's expectedResource).
//
// MCP tools: echo {message} -> the message; whoami {} -> "client <client_id> scopes <scopes>".
// Test-only routes (no authentication, loopback only):
//   GET /_stats    {"registrations","authorizations","codeExchanges","refreshes","accepted","rejected","revocations"}
//                  counters
//   GET /_secrets  {"values":[...]}: every secret this process issued or received (client secrets, codes, access
//                  and refresh tokens), for tests that scan their logs for leaked secrets
import { createServer } from 'node:http';
import { randomBytes, randomUUID } from 'node:crypto';
import express from 'express';
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { mcpAuthRouter } from '@modelcontextprotocol/sdk/server/auth/router.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import { InvalidGrantError, InvalidTokenError, InvalidTargetError } from '@modelcontextprotocol/sdk/server/auth/errors.js';

function usage(problem) {
  process.stderr.write(`oauth-fixture: ${problem}\nusage: node oauth-fixture.mjs --http [PORT] [--access-ttl S] `
    + "[--no-refresh] [--reuse-detection] [--scope 'A B']\n");
  process.exit(2);
}

function parseArgs(argv) {
  const opts = { port: null, accessTtl: 3600, refresh: true, reuseDetection: false, scopes: [] };
  let http = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--http') {
      http = true;
      if (/^\d+$/.test(argv[i + 1] ?? '')) {
        opts.port = Number(argv[++i]);
      }
    } else if (a === '--access-ttl') {
      const v = argv[++i];
      if (!/^\d+$/.test(v ?? '') || Number(v) < 1) {
        usage(`--access-ttl needs an integer >= 1, got ${v}`);
      }
      opts.accessTtl = Number(v);
    } else if (a === '--no-refresh') {
      opts.refresh = false;
    } else if (a === '--reuse-detection') {
      opts.reuseDetection = true;
    } else if (a === '--scope') {
      const v = argv[++i];
      if (v === undefined) {
        usage('--scope needs a value');
      }
      opts.scopes = v.split(' ').filter((s) => s.length > 0);
    } else {
      usage(`unknown argument ${a}`);
    }
  }
  if (!http) {
    usage('--http is required');
  }
  return opts;
}

const opts = parseArgs(process.argv.slice(2));
const stats = { registrations: 0, authorizations: 0, codeExchanges: 0, refreshes: 0, accepted: 0, rejected: 0,
  revocations: 0 };
const secrets = new Set();
const token = (prefix) => {
  const t = `${prefix}-${randomBytes(24).toString('base64url')}`;
  secrets.add(t);
  return t;
};

const server = createServer();
// Idle keep-alive connections stay open longer than the JDK HTTP client keeps them (30 s): with Node's default of 5 s
// the server closed a connection at the instant the client reused it ("header parser received no bytes") under load
server.keepAliveTimeout = 65_000;
server.headersTimeout = 66_000;
server.listen(opts.port ?? 0, '127.0.0.1', () => {
  const base = `http://127.0.0.1:${server.address().port}`;
  const mcpUrl = new URL(`${base}/mcp`);
  const issuer = new URL(`${base}/`);
  server.on('request', app(issuer, mcpUrl));
  process.stdout.write(`${mcpUrl.href}\n`);
});

function app(issuer, mcpUrl) {
  const clients = new Map();      // client_id -> client information
  const codes = new Map();        // code -> { clientId, challenge, redirectUri, scopes, resource }
  const accessTokens = new Map(); // token -> { clientId, scopes, expiresAt, resource }
  const refreshTokens = new Map(); // token -> { clientId, scopes, resource, family }
  const rotated = new Map();       // refresh token used once (rotated out) -> its family (--reuse-detection)
  let families = 0;                // a family per authorization code exchange

  const checkResource = (resource) => {
    if (resource && resource.href !== mcpUrl.href) {
      throw new InvalidTargetError(`unknown resource ${resource.href}`);
    }
  };
  const issue = (clientId, scopes, resource, family) => {
    const access = token('at');
    accessTokens.set(access, { clientId, scopes, expiresAt: Date.now() / 1000 + opts.accessTtl, // to the ms
      resource: resource ?? mcpUrl, family });
    const tokens = { access_token: access, token_type: 'Bearer', expires_in: opts.accessTtl };
    if (scopes.length > 0) {
      tokens.scope = scopes.join(' ');
    }
    if (opts.refresh) {
      const refresh = token('rt');
      refreshTokens.set(refresh, { clientId, scopes, resource, family });
      tokens.refresh_token = refresh;
    }
    return tokens;
  };

  const provider = {
    clientsStore: {
      getClient: async (id) => clients.get(id),
      registerClient: async (client) => {
        stats.registrations++;
        if (client.client_secret) {
          secrets.add(client.client_secret);
        }
        clients.set(client.client_id, client);
        return client;
      },
    },
    // approves at once: no user, no consent page
    authorize: async (client, params, res) => {
      checkResource(params.resource);
      stats.authorizations++;
      const code = token('code');
      codes.set(code, { clientId: client.client_id, challenge: params.codeChallenge, redirectUri: params.redirectUri,
        scopes: params.scopes ?? [], resource: params.resource });
      const target = new URL(params.redirectUri);
      target.searchParams.set('code', code);
      if (params.state !== undefined) {
        target.searchParams.set('state', params.state);
      }
      target.searchParams.set('iss', issuer.href);
      res.redirect(302, target.href);
    },
    challengeForAuthorizationCode: async (client, code) => {
      const c = codes.get(code);
      if (!c || c.clientId !== client.client_id) {
        throw new InvalidGrantError('unknown authorization code');
      }
      return c.challenge;
    },
    exchangeAuthorizationCode: async (client, code, _verifier, redirectUri, resource) => {
      const c = codes.get(code);
      codes.delete(code); // one use
      if (!c || c.clientId !== client.client_id) {
        throw new InvalidGrantError('unknown authorization code');
      }
      if (redirectUri !== undefined && redirectUri !== c.redirectUri) {
        throw new InvalidGrantError('redirect_uri differs from the authorization request');
      }
      checkResource(resource);
      stats.codeExchanges++;
      return issue(client.client_id, c.scopes, resource ?? c.resource, ++families);
    },
    exchangeRefreshToken: async (client, refreshToken, scopes, resource) => {
      secrets.add(refreshToken);
      const r = refreshTokens.get(refreshToken);
      if (!r && opts.reuseDetection && rotated.has(refreshToken)) {
        // reuse of a rotated refresh token: the whole family is revoked (everyone holding it must authorize again)
        const family = rotated.get(refreshToken);
        for (const [t, v] of refreshTokens) {
          if (v.family === family) {
            refreshTokens.delete(t);
          }
        }
        for (const [t, v] of accessTokens) {
          if (v.family === family) {
            accessTokens.delete(t);
          }
        }
        stats.revocations++;
        throw new InvalidGrantError('refresh token reused: its token family is revoked');
      }
      if (!r || r.clientId !== client.client_id) {
        throw new InvalidGrantError('unknown refresh token');
      }
      checkResource(resource);
      refreshTokens.delete(refreshToken); // rotation: one use
      if (opts.reuseDetection) {
        rotated.set(refreshToken, r.family);
      }
      stats.refreshes++;
      return issue(client.client_id, scopes ?? r.scopes, resource ?? r.resource, r.family);
    },
    verifyAccessToken: async (t) => {
      const a = accessTokens.get(t);
      if (!a) {
        secrets.add(t);
        stats.rejected++;
        throw new InvalidTokenError('Invalid token');
      }
      if (a.expiresAt < Date.now() / 1000) {
        stats.rejected++;
      } else {
        stats.accepted++;
      }
      return { token: t, clientId: a.clientId, scopes: a.scopes, expiresAt: a.expiresAt, resource: a.resource };
    },
  };

  const e = express();
  e.get('/_stats', (_req, res) => res.json(stats));
  e.get('/_secrets', (_req, res) => res.json({ values: [...secrets] }));
  // client_secret_basic: the SDK's token handler reads the client from the body only
  e.use('/token', express.urlencoded({ extended: false }), (req, _res, next) => {
    const h = req.headers.authorization;
    if (h && h.toLowerCase().startsWith('basic ') && req.body && !req.body.client_id) {
      const decoded = Buffer.from(h.slice(6).trim(), 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon > 0) {
        req.body.client_id = decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' '));
        req.body.client_secret = decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' '));
        secrets.add(req.body.client_secret);
      }
    }
    next();
  });
  e.use(mcpAuthRouter({
    provider,
    issuerUrl: issuer,
    resourceServerUrl: mcpUrl,
    scopesSupported: opts.scopes.length > 0 ? opts.scopes : undefined,
    resourceName: 'loom-mcp OAuth fixture',
    authorizationOptions: { rateLimit: false },
    tokenOptions: { rateLimit: false },
    clientRegistrationOptions: { rateLimit: false },
  }));
  const bearer = requireBearerAuth({
    verifier: provider,
    requiredScopes: opts.scopes,
    resourceMetadataUrl: `${issuer.origin}/.well-known/oauth-protected-resource/mcp`,
    expectedResource: mcpUrl,
  });
  e.post('/mcp', bearer, express.json({ limit: '4mb' }), async (req, res) => {
    const mcp = new McpServer({ name: 'loom-oauth-fixture', version: '0.0.1' });
    mcp.registerTool('echo', { description: 'Echoes the message', inputSchema: { message: z.string() } },
      async ({ message }) => ({ content: [{ type: 'text', text: message }] }));
    mcp.registerTool('whoami', { description: 'The client and scopes of the token used', inputSchema: {} },
      async (_args, extra) => ({ content: [{ type: 'text',
        text: `client ${extra.authInfo?.clientId} scopes ${(extra.authInfo?.scopes ?? []).join(' ')}` }] }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => {
      transport.close();
      mcp.close();
    });
    await mcp.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
  const notAllowed = (_req, res) => res.status(405).set('Allow', 'POST').json({ error: 'method not allowed' });
  e.get('/mcp', bearer, notAllowed);
  e.delete('/mcp', bearer, notAllowed);
  return e;
}

process.on('SIGTERM', () => process.exit(0));
process.on('SIGINT', () => process.exit(0));
