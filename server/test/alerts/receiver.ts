import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import {
  createServer,
  type IncomingHttpHeaders,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Ajv } from 'ajv';
import { alertPayloadSchema, slackAlertSchema } from '../../src/generated/schema.gen.ts';

// A real webhook receiver on 127.0.0.1 for the alert suites: it records every request with its raw
// body, and answers as told: 200, 500, 404, or nothing at all (the connection held open). Stopped,
// its port refuses connections; started again on the same port it answers again.

/**
 * What a receiver does to check an alert: the snippet of docs/alerts.md itself, read from the
 * document and imported, so the suites verify every alert they receive with the documented code.
 */
async function documentedVerifier(): Promise<
  (raw: Buffer, headers: IncomingHttpHeaders, secret: string, nowSeconds?: number) => boolean
> {
  const doc = readFileSync(fileURLToPath(new URL('../../docs/alerts.md', import.meta.url)), 'utf8');
  const snippet = /```js\n(import \{ createHash[\s\S]*?)```/.exec(doc)?.[1];
  if (!snippet) throw new Error('docs/alerts.md has no verification snippet');
  const file = join(mkdtempSync(join(tmpdir(), 'svc-verify-')), 'verify.mjs');
  writeFileSync(file, snippet);
  return ((await import(pathToFileURL(file).href)) as { verifySvcAlert: never }).verifySvcAlert;
}
export const verifyAlert = await documentedVerifier();

// Formats (date-time) are not checked by ajv without a plugin; the suites parse the dates.
const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false });
/** The spec's schemas, as a receiver validates against them. */
export const validPayload = ajv.compile(alertPayloadSchema);
export const validSlack = ajv.compile(slackAlertSchema);

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  raw: Buffer;
  json: Record<string, unknown>;
  /** The status this receiver answered with. */
  status: number;
  at: number;
}

export type Mode = 'ok' | '500' | '404' | 'hang';

export async function startReceiver(mode: Mode = 'ok', port = 0) {
  const received: Received[] = [];
  const hanging = new Set<ServerResponse>();
  const sockets = new Set<Socket>();
  let current: Mode = mode;
  let server: Server | undefined;
  let boundPort = port;

  const listen = async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks);
        if (current === 'hang') {
          hanging.add(res); // never answered
          return;
        }
        const status = current === 'ok' ? 200 : Number(current);
        received.push({
          path: req.url ?? '',
          headers: req.headers,
          raw,
          json: JSON.parse(raw.toString('utf8')) as Record<string, unknown>,
          status,
          at: Date.now(),
        });
        res.statusCode = status;
        res.end(current === 'ok' ? 'ok' : 'no');
      });
    });
    server.on('connection', (s) => {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    });
    await new Promise<void>((resolve) => server!.listen(boundPort, '127.0.0.1', resolve));
    boundPort = (server.address() as { port: number }).port;
  };
  await listen();

  return {
    received,
    /** Requests held open without an answer right now. */
    hanging: () => [...hanging].filter((r) => !r.destroyed && !r.socket?.destroyed).length,
    url: (path = '/hook') => `http://127.0.0.1:${boundPort}${path}`,
    setMode(next: Mode) {
      current = next;
    },
    /** Closes the port (connections refused) and every open connection. */
    async stop() {
      for (const s of sockets) s.destroy();
      hanging.clear();
      await new Promise<void>((resolve) => server!.close(() => resolve()));
    },
    async restart(next: Mode = 'ok') {
      current = next;
      await listen();
    },
  };
}
export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function waitFor<T>(
  what: string,
  check: () => T | undefined | Promise<T | undefined>,
  ms = 30_000,
): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}
