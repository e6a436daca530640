// The send side of a client: credentials, optional sealing, preparing the exact bytes, and the
// transport (or the `logLocally` dry run in its place). Signing and sealing code load lazily.
import { TASKS_PATH } from '../generated/service.gen.ts';
import type { Credentials } from './auth.ts';
import type { Debug } from './debug.ts';
import { isPublicKey } from './key.ts';
import {
  BAD_ENCRYPTION_KEY,
  LOGGED_LOCALLY,
  SECURE_LOAD_FAILED,
  TRANSPORT_LOAD_FAILED,
} from './messages.ts';
import type { Resolved } from './options.ts';
import type { Bucket } from './counters.ts';
import { keepaliveOnce, post, type Prepared, type TransportContext } from './send.ts';
import type { ClientDeps, WirePayload } from './types.ts';

export interface Pipeline {
  /** False when the client must not send (no credentials, bad encryption key). */
  ready: boolean;
  /** Serialises (and seals, and signs) the payload; synchronous for plain bearer reports. */
  prepare(payload: WirePayload): Prepared | Promise<Prepared>;
  /** Delivers (or, with `logLocally`, logs); `keepalive` for browser unload. Never rejects. */
  send(payload: WirePayload, prepared: Prepared, keepalive?: boolean): Promise<Bucket>;
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
  let transport: typeof import('./transport.ts') | undefined;
  let loading: Promise<typeof import('./transport.ts')> | undefined;
  const load = () => {
    if (!loading) {
      loading = import('./transport.ts').then((chunk) => (transport = chunk));
      loading.catch((e) => {
        loading = undefined; // retried by the next send
        debug.log(TRANSPORT_LOAD_FAILED, e);
      });
    }
    return loading;
  };

  return {
    ready,
    prepare(payload) {
      if (!config.logLocally) load();
      const body = config.logLocally ? '' : JSON.stringify(payload);
      if (secure) return secure.then((s) => s.prepare(body));
      return { body, auth: bearer, at: now() };
    },
    async send(payload, prepared, keepalive) {
      if (!config.logLocally) {
        // Unload must start its request now, chunk or not (nothing may wait during pagehide).
        if (!transport && keepalive) return keepaliveOnce(ctx, prepared);
        return (transport ?? (await load())).deliver(ctx, prepared, keepalive);
      }
      debug.info(LOGGED_LOCALLY, payload);
      return 'sent';
    },
    context: ctx,
    load,
  };
}
