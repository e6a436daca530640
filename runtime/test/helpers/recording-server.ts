// A small recording HTTP server on 127.0.0.1:0 for the runtime tests: it checks signed requests
// with node:crypto (contract 5.2), opens sealed boxes with libsodium (an implementation independent
// of the SDK's sealing code), counts sockets and in-flight requests, and answers as each test scripts.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type RequestListener } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import sodium from 'libsodium-wrappers';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import sealedVectors from '../../../spec/vectors/sealed-box.json' with { type: 'json' };

export interface Recorded {
  method: string;
  /** The request's path and query. */
  url: string;
  headers: IncomingHttpHeaders;
  raw: string;
  /** The plaintext JSON body (after opening the sealed box when the body was an envelope). */
  json: Record<string, unknown> | undefined;
  /** `true` when the signature matched, `false` when it did not, undefined for unsigned requests. */
  signatureValid?: boolean;
  /** The envelope, when the body was encrypted. */
  envelope?: Record<string, unknown>;
  at: number;
}

export interface Reply {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  delayMs?: number;
  /** Destroy the socket without answering (a network error for the client). */
  destroy?: boolean;
}

export type Responder = (req: Recorded, index: number) => Reply | undefined;

export interface RecordingServer {
  url: string;
  port: number;
  requests: Recorded[];
  /** Sockets ever opened by clients. */
  sockets(): number;
  /** The most requests that were in flight at once. */
  maxInFlight(): number;
  respond(fn: Responder): void;
  close(): Promise<void>;
}

export const SIGNING = { keyId: 'svck_test123', signingSecret: 'svc_sec_0123456789abcdef' };
export const SEALING = {
  publicKey: sealedVectors.recipient_public_key_b64,
  secretKey: sealedVectors.recipient_secret_key_b64,
};

/** The constant path a request's signature covers: the source-map route's, else the tasks route's. */
const signedPath = (url: string) =>
  /\/api\/v1\/sourcemaps(?:[?#]|$)/.test(url) ? '/api/v1/sourcemaps' : '/api/v1/tasks';

function verify(h: IncomingHttpHeaders, raw: Buffer, url: string): boolean | undefined {
  const sig = h['x-svc-signature'];
  if (typeof sig !== 'string') return undefined;
  if (h['x-svc-key-id'] !== SIGNING.keyId) return false;
  const hash = createHash('sha256').update(raw).digest('hex');
  const payload = `${h['x-svc-timestamp']}.POST.${signedPath(url)}.${hash}`;
  const want = createHmac('sha256', SIGNING.signingSecret).update(payload).digest();
  const got = Buffer.from(sig, 'hex');
  return got.length === want.length && timingSafeEqual(got, want);
}

function open(ciphertext: string): Record<string, unknown> | undefined {
  const pk = sodium.from_base64(SEALING.publicKey, sodium.base64_variants.ORIGINAL);
  const sk = sodium.from_base64(SEALING.secretKey, sodium.base64_variants.ORIGINAL);
  const box = sodium.from_base64(ciphertext, sodium.base64_variants.ORIGINAL);
  return JSON.parse(sodium.to_string(sodium.crypto_box_seal_open(box, pk, sk)));
}

/** `tls`: serve HTTPS with this key and certificate (the browser unload test). */
export async function startRecordingServer(
  respond?: Responder,
  tls?: { key: string; cert: string },
): Promise<RecordingServer> {
  await sodium.ready;
  const requests: Recorded[] = [];
  let responder: Responder = respond ?? (() => undefined);
  let sockets = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  const handler: RequestListener = (req, res) => {
    // CORS, for pages in Chromium (the browser tests): answer preflights, allow every origin.
    res.setHeader('access-control-allow-origin', '*');
    res.setHeader('access-control-allow-headers', '*');
    res.setHeader('access-control-allow-methods', 'POST');
    if (req.method === 'OPTIONS') return void res.writeHead(204).end();
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      let json: Record<string, unknown> | undefined;
      let envelope: Record<string, unknown> | undefined;
      try {
        json = JSON.parse(raw.toString('utf8'));
        const enc = json?.encrypted as Record<string, unknown> | undefined;
        if (enc && typeof enc.ciphertext === 'string') {
          envelope = enc;
          json = open(enc.ciphertext);
        }
      } catch {
        json = undefined;
      }
      const rec: Recorded = {
        method: req.method as string,
        url: req.url as string,
        headers: req.headers,
        raw: raw.toString('utf8'),
        json,
        envelope,
        at: Date.now(),
      };
      rec.signatureValid = verify(req.headers, raw, req.url as string);
      requests.push(rec);
      const reply = responder(rec, requests.length - 1) ?? {
        status: 201,
        body: { deduplicated: false },
      };
      setTimeout(() => {
        inFlight--;
        if (reply.destroy) return void req.socket.destroy();
        res.writeHead(reply.status ?? 201, {
          'content-type': 'application/json',
          ...reply.headers,
        });
        res.end(JSON.stringify(reply.body ?? {}));
      }, reply.delayMs ?? 0);
    });
  };
  const server = tls ? createTlsServer(tls, handler) : createServer(handler);
  server.on('connection', () => sockets++);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    port,
    requests,
    sockets: () => sockets,
    maxInFlight: () => maxInFlight,
    respond: (fn) => {
      responder = fn;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/**
 * One recording server per test file: started before the first test, emptied and reset to the
 * default answer (201) before each test, closed after the last. Returns a getter for it.
 */
export function useRecordingServer(): () => RecordingServer {
  let server: RecordingServer | undefined;
  beforeAll(async () => {
    server = await startRecordingServer();
  });
  beforeEach(() => {
    server!.requests.length = 0;
    server!.respond(() => undefined);
  });
  afterAll(() => server?.close());
  return () => server!;
}
