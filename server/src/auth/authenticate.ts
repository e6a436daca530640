import { timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { sha256Hex } from '../core/hash.ts';
import { PUBLISHABLE_TOKEN } from '../core/keys.ts';
import type { AuthKey, MaybePromise } from '../domain/types.ts';
import { hmacHex, SIGNED_PATH, signaturePayload } from './signature.ts';

export const AUTH_MESSAGE = 'Invalid or missing project API key.';

const BEARER = /^Bearer +(\S+) *$/i;
const KEY_ID = /^svck_[0-9A-Za-z]{1,64}$/;
const TIMESTAMP = /^\d{1,12}$/;
const SIGNATURE = /^[0-9a-f]{64}$/;

/**
 * sha256 of publishable tokens that matched a key, so repeat requests skip the hash. These
 * tokens are public by design (they ship in browser bundles); nothing here is persisted.
 */
const tokenHashes = new Map<string, string>();

const header = (h: IncomingHttpHeaders, name: string): string | undefined => {
  const v = h[name];
  return Array.isArray(v) ? v[0] : v;
};

function equalHex(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

/** What authentication needs from storage: a live key by kind and lookup (a store implements it). */
export interface KeyLookup {
  findAuthKey(kind: 'publishable' | 'secret', lookup: string): MaybePromise<AuthKey | undefined>;
}

export interface AuthInput {
  headers: IncomingHttpHeaders;
  method: string;
  rawBody: Uint8Array;
  /** Server clock, Unix ms. */
  now: number;
  /** Allowed distance of X-Svc-Timestamp from the clock, seconds. */
  skewSeconds: number;
  /** The constant path the signature covers. @default TASKS_PATH */
  signedPath?: string;
}

/**
 * Exactly one scheme per request (contract 5). Bearer takes only `svc_pub_` tokens, the signed
 * path only `svck_` ids; any failure resolves to undefined (answered 401).
 */
export async function authenticate(
  store: KeyLookup,
  input: AuthInput,
): Promise<AuthKey | undefined> {
  const h = input.headers;
  const authorization = header(h, 'authorization');
  const keyId = header(h, 'x-svc-key-id');
  const timestamp = header(h, 'x-svc-timestamp');
  const signature = header(h, 'x-svc-signature');
  const signed = keyId !== undefined || timestamp !== undefined || signature !== undefined;
  if ((authorization !== undefined) === signed) return undefined;

  if (authorization !== undefined) {
    const token = BEARER.exec(authorization)?.[1];
    if (!token || !PUBLISHABLE_TOKEN.test(token)) return undefined;
    const lookup = tokenHashes.get(token) ?? sha256Hex(token);
    const key: AuthKey | undefined = await store.findAuthKey('publishable', lookup);
    if (key?.kind !== 'publishable') return undefined;
    if (tokenHashes.size >= 10_000) tokenHashes.clear();
    tokenHashes.set(token, lookup);
    return key;
  }

  if (!keyId || !timestamp || !signature) return undefined;
  if (!KEY_ID.test(keyId) || !TIMESTAMP.test(timestamp)) return undefined;
  if (Math.abs(input.now / 1000 - Number(timestamp)) > input.skewSeconds) return undefined;
  if (!SIGNATURE.test(signature)) return undefined;
  const key: AuthKey | undefined = await store.findAuthKey('secret', keyId);
  if (key?.kind !== 'secret' || !key.secretHash) return undefined;
  const path = input.signedPath ?? SIGNED_PATH;
  const payload = signaturePayload(timestamp, input.method, path, input.rawBody);
  const expected = hmacHex(key.secretHash, payload);
  return equalHex(expected, signature) ? key : undefined;
}

export type Authenticate = (input: AuthInput) => MaybePromise<AuthKey | undefined>;
