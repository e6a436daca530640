// The send side of a client: credentials, optional sealing, preparing bytes, and the transport
// (or the `logLocally` dry run in its place).
import type { Credentials } from './auth.ts';
import type { Debug } from './debug.ts';
import type { Resolved } from './options.ts';
import { decodePublicKey, loadSealer } from './seal.ts';
import {
  attempt,
  authHeaders,
  deliver,
  type Outcome,
  outcomeOf,
  type Prepared,
  type TransportContext,
} from './transport.ts';
import type { ClientDeps, Platform, WirePayload } from './types.ts';

const enc = new TextEncoder();

export function createPipeline(
  _platform: Platform,
  o: Resolved,
  d: ClientDeps,
  debug: Debug,
  credentials: Credentials | undefined,
  encryptionPublicKey: unknown,
  encryptionKeyId: unknown,
) {
  let ready = !!credentials || o.logLocally;
  let sealer: Promise<(json: string) => string> | undefined;
  if (
    encryptionPublicKey !== undefined &&
    encryptionPublicKey !== null &&
    encryptionPublicKey !== ''
  ) {
    const key = decodePublicKey(encryptionPublicKey);
    if (!key) {
      ready = false;
      debug.warn(
        'encryptionPublicKey is not base64 of 32 bytes: the client is disabled and sends nothing',
      );
    } else if (!o.logLocally) {
      sealer = loadSealer(key, typeof encryptionKeyId === 'string' ? encryptionKeyId : undefined);
      sealer.catch((error) =>
        debug.warn('could not load the sealing code; reports will fail:', error),
      );
    }
  }

  const ctx: TransportContext = {
    fetch: () => d.fetch ?? globalThis.fetch,
    now: d.now ?? Date.now,
    sleep: d.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms))),
    random: d.random ?? Math.random,
    debug,
    credentials: credentials as Credentials,
    hideApiResponse: o.hideApiResponse,
    timeoutMs: o.timeoutMs,
    maxRetries: o.maxRetries,
  };

  async function sign(body: string): Promise<Prepared> {
    const bytes = enc.encode(body);
    const signedAt = ctx.now();
    return { body, bytes, signedAt, auth: await authHeaders(ctx, bytes) };
  }

  /** Serialises (and seals) the payload; synchronous for plain bearer reports. */
  function prepare(payload: WirePayload): Prepared | Promise<Prepared> {
    if (o.logLocally) return { body: '', bytes: new Uint8Array(0), auth: {}, signedAt: 0 };
    const json = JSON.stringify(payload);
    if (sealer) return sealer.then((seal) => sign(seal(json)));
    if (credentials?.kind === 'signed') return sign(json);
    return {
      body: json,
      bytes: enc.encode(json),
      auth: { Authorization: `Bearer ${credentials?.apiKey}` },
      signedAt: 0,
    };
  }

  async function send(payload: WirePayload, prepared: Prepared): Promise<Outcome> {
    if (o.logLocally) {
      debug.info('logLocally (not sent):', payload);
      return 'sent';
    }
    return deliver(ctx, prepared);
  }

  async function sendKeepalive(prepared: Prepared): Promise<Outcome> {
    if (o.logLocally) return 'sent';
    const r = await attempt(ctx, prepared, prepared.auth, true);
    if (r.status !== undefined && r.status >= 200 && r.status < 300) return outcomeOf(r.body);
    debug.log('keepalive send failed:', r.error ?? `HTTP ${r.status}`);
    return 'failed';
  }

  return { ready, prepare, send, sendKeepalive };
}
