// The send side of a client: credentials, optional sealing, preparing the exact bytes, and the
// transport (or the `logLocally` dry run in its place). Signing and sealing code load lazily.
import type { Credentials } from './auth.ts';
import type { Debug } from './debug.ts';
import { decodePublicKey } from './key.ts';
import type { Resolved } from './options.ts';
import {
  attempt,
  deliver,
  type Outcome,
  outcomeOf,
  type Prepared,
  type TransportContext,
} from './transport.ts';
import type { ClientDeps, WirePayload } from './types.ts';

const enc = new TextEncoder();

export function createPipeline(
  o: Resolved,
  d: ClientDeps,
  debug: Debug,
  credentials: Credentials | undefined,
  encryptionPublicKey: unknown,
  encryptionKeyId: unknown,
) {
  let ready = !!credentials || o.logLocally;
  let sealer: Promise<(json: string) => string> | undefined;
  if (encryptionPublicKey != null && encryptionPublicKey !== '') {
    const key = decodePublicKey(encryptionPublicKey);
    if (!key) {
      ready = false;
      debug.warn('encryptionPublicKey is not base64 of 32 bytes: client disabled, nothing is sent');
    } else if (!o.logLocally) {
      const keyId =
        typeof encryptionKeyId === 'string' && encryptionKeyId ? encryptionKeyId : undefined;
      sealer = import('./seal.ts').then((m) => m.createSealer(key, keyId));
      sealer.catch((e) => debug.warn('sealing code failed to load:', e));
    }
  }
  const signed = credentials?.kind === 'signed' ? credentials : undefined;
  const signer = signed && import('./sign.ts');

  const ctx: TransportContext = {
    fetch: () => d.fetch ?? globalThis.fetch,
    now: d.now ?? Date.now,
    sleep: d.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms))),
    random: d.random ?? Math.random,
    debug,
    signed: !!signed,
    auth: async (bytes) =>
      signed
        ? (await (signer as Promise<typeof import('./sign.ts')>)).signHeaders(
            signed.keyId,
            signed.signingSecret,
            bytes,
            ctx.now(),
          )
        : { Authorization: `Bearer ${credentials?.kind === 'bearer' ? credentials.apiKey : ''}` },
    hideApiResponse: o.hideApiResponse,
    timeoutMs: o.timeoutMs,
    maxRetries: o.maxRetries,
  };

  async function finish(body: string): Promise<Prepared> {
    const bytes = enc.encode(body);
    const signedAt = ctx.now();
    return { body, bytes, signedAt, auth: await ctx.auth(bytes) };
  }

  /** Serialises (and seals, and signs) the payload; synchronous for plain bearer reports. */
  function prepare(payload: WirePayload): Prepared | Promise<Prepared> {
    if (o.logLocally) return { body: '', bytes: enc.encode(''), auth: {}, signedAt: 0 };
    const json = JSON.stringify(payload);
    if (sealer) return sealer.then((seal) => finish(seal(json)));
    if (signed) return finish(json);
    return {
      body: json,
      bytes: enc.encode(json),
      auth: { Authorization: `Bearer ${(credentials as { apiKey: string }).apiKey}` },
      signedAt: 0,
    };
  }

  async function send(payload: WirePayload, prepared: Prepared): Promise<Outcome> {
    if (!o.logLocally) return deliver(ctx, prepared);
    debug.info('logLocally (not sent):', payload);
    return 'sent';
  }

  /** One keepalive attempt, with the headers prepared before unload; no retries. */
  async function sendKeepalive(prepared: Prepared): Promise<Outcome> {
    if (o.logLocally) return 'sent';
    const r = await attempt(ctx, prepared, prepared.auth, true);
    if (r.status && r.status < 300 && r.status > 199) return outcomeOf(r.body);
    debug.log('keepalive send failed:', r.error ?? `HTTP ${r.status}`);
    return 'failed';
  }

  return { ready, prepare, send, sendKeepalive };
}
