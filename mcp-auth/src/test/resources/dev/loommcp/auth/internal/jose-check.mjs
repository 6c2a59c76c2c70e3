// Cross-checks loom-mcp's JOSE output with `jose`, the library the MCP conformance suite verifies clients with.
// Usage: node jose-check.mjs <path of jose's dist/webapi/index.js> gen|check
//   gen:   prints {"pkcs8": <PEM>, "spki": <PEM>} of a fresh ES256 key, exported the way the suite does
//   check: reads {"cases":[...]} from stdin, prints {"results":[...]} with one result per case
import { createHash } from 'node:crypto';

const jose = await import(process.argv[2]);
const mode = process.argv[3];
const ALGS = ['ES256', 'ES384', 'ES512', 'RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'EdDSA'];

function norm(u) {
  const t = new URL(u);
  return `${t.protocol}//${t.host}${t.pathname.replace(/\/$/, '')}`;
}

async function assertion(c) {
  const key = await jose.importSPKI(c.spki, c.alg);
  const { payload, protectedHeader } = await jose.jwtVerify(c.jwt, key,
    { audience: [c.audience, `${c.audience}/`], clockTolerance: 30 });
  return { ok: true, iss: payload.iss, sub: payload.sub, alg: protectedHeader.alg };
}

async function dpop(c) {
  const h = jose.decodeProtectedHeader(c.proof);
  if (h.typ !== 'dpop+jwt') return { ok: false, error: 'typ must be dpop+jwt' };
  if (!h.alg || !ALGS.includes(h.alg)) return { ok: false, error: 'alg' };
  if (!h.jwk) return { ok: false, error: 'missing jwk' };
  if (h.jwk.d !== undefined) return { ok: false, error: 'jwk has a private key' };
  const key = await jose.importJWK(h.jwk, h.alg);
  const { payload } = await jose.jwtVerify(c.proof, key, { algorithms: ALGS });
  if (typeof payload.jti !== 'string') return { ok: false, error: 'missing jti' };
  if (payload.htm !== c.htm) return { ok: false, error: 'htm' };
  if (typeof payload.htu !== 'string' || payload.htu.includes('?') || payload.htu.includes('#')) {
    return { ok: false, error: 'htu has a query or fragment' };
  }
  if (norm(payload.htu) !== norm(c.htu)) return { ok: false, error: `htu ${payload.htu} vs ${c.htu}` };
  if (typeof payload.iat !== 'number' || Math.abs(Math.floor(Date.now() / 1000) - payload.iat) > 300) {
    return { ok: false, error: 'iat' };
  }
  if (c.accessToken !== null) {
    const ath = createHash('sha256').update(c.accessToken, 'ascii').digest('base64url');
    if (payload.ath !== ath) return { ok: false, error: 'ath' };
  }
  return { ok: true, jkt: await jose.calculateJwkThumbprint(h.jwk, 'sha256'), nonce: payload.nonce ?? null,
    jti: payload.jti };
}

if (mode === 'gen') {
  const { publicKey, privateKey } = await jose.generateKeyPair('ES256', { extractable: true });
  console.log(JSON.stringify({ pkcs8: await jose.exportPKCS8(privateKey), spki: await jose.exportSPKI(publicKey) }));
} else {
  let input = '';
  for await (const chunk of process.stdin) input += chunk;
  const results = [];
  for (const c of JSON.parse(input).cases) {
    try {
      results.push(c.kind === 'assertion' ? await assertion(c) : await dpop(c));
    } catch (e) {
      results.push({ ok: false, error: String(e && e.message || e) });
    }
  }
  console.log(JSON.stringify({ results }));
}
