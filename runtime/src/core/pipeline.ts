// The send side of a client: credentials, optional sealing, preparing the exact bytes, and the
// transport (or the `logLocally` dry run in its place). Signing, sealing and the transport load
// lazily.
import { TASKS_PATH } from '../generated/service.gen.ts';
import type { Credentials } from './auth.ts';
import type { Debug } from './debug.ts';
import { isPublicKey } from './key.ts';
import { lazy } from './lazy.ts';
import { BAD_ENCRYPTION_KEY, SECURE_LOAD_FAILED, TRANSPORT_LOAD_FAILED } from './messages.ts';
import type { Resolved } from './options.ts';
import type { Bucket } from './counters.ts';
import {
  type Keepalive,
  keepaliveOnce,
  post,
  type Prepared,
  type TransportContext,
} from './send.ts';
import type { ClientDeps, WirePayload } from './types.ts';

export interface Pipeline {
  /** False when the client must not send (no credentials, bad encryption key). */
  ready: boolean;
  /** Serialises (and seals, and signs) the payload; synchronous for plain bearer reports. */
  prepare(payload: WirePayload): Prepared | Promise<Prepared>;
  /**
   * Delivers (with `logLocally`, the transport logs the payload instead); `keepalive` for browser
   * unload. Never rejects.
   */
  send(prepared: Prepared, keepalive?: Keepalive): Promise<Bucket>;
  /** What the transport is given (the Node exit flush sets its deadline on it). */
  context: TransportContext;
  /** The transport chunk, loaded once. */
  load(): Promise<typeof import('./transport.ts')>;
}

export function createPipeline(
  config: Resolved,
  deps: ClientDeps,
  debug: Debug,
  credentials: Credentials | undefined,
  encryptionPublicKey: unknown,
  encryptionKeyId: unknown,
  serviceUrl: string | undefined,
): Pipeline {
  let ready = config.logLocally || (!!credentials && !!serviceUrl);
  let sealKey: string | undefined;
  if (encryptionPublicKey != null && encryptionPublicKey !== '') {
    if (!isPublicKey(encryptionPublicKey)) {
      ready = false;
      debug.warn(BAD_ENCRYPTION_KEY);
    } else if (!config.logLocally) sealKey = encryptionPublicKey.trim();
  }
  const signed = credentials?.kind === 'signed' ? credentials : undefined;
  const bearer = {
    Authorization: `Bearer ${credentials?.kind === 'bearer' ? credentials.apiKey : ''}`,
  };
  const now = deps.now ?? Date.now;
  // Sealing and signing code (./secure.ts) loads only for clients that seal or sign.
  const keyId =
    typeof encryptionKeyId === 'string' && encryptionKeyId ? encryptionKeyId : undefined;
  const secure =
    (sealKey || signed) &&
    import('./secure.ts').then((chunk) =>
      chunk.createSecure(sealKey, keyId, signed, bearer, now, TASKS_PATH),
    );
  if (secure)
    secure.catch((e) => {
      debug.warn(SECURE_LOAD_FAILED);
      debug.log(e);
    });

  const ctx: TransportContext = {
    config,
    deps,
    debug,
    signed: !!signed,
    url: serviceUrl + TASKS_PATH,
    auth: async (body) => (secure ? (await secure).auth(body) : bearer),
    post,
  };

  /** The retrying transport, a lazy chunk: loading starts when the first report is prepared. */
  const transport = lazy(() => import('./transport.ts'));
  const load = () => {
    const loading = transport();
    loading.catch((e) => debug.log(TRANSPORT_LOAD_FAILED, e)); // tried again by the next send
    return loading;
  };

  return {
    ready,
    prepare(payload) {
      load();
      const body = JSON.stringify(payload);
      if (secure) return secure.then((s) => s.prepare(body));
      return { body, auth: bearer, at: now() };
    },
    async send(prepared, keepalive) {
      // Unload must start its request now, chunk or not (nothing may wait during pagehide).
      if (!transport.loaded && keepalive && !config.logLocally) return keepaliveOnce(ctx, prepared);
      return (transport.loaded ?? (await load())).send(ctx, prepared, keepalive);
    },
    context: ctx,
    load,
  };
}
