// Request signing (contract 5.2): node:crypto where the runtime has it (Node, Deno, Bun: synchronous,
// a few microseconds), else WebCrypto (browsers, edge runtimes), the imported key kept per secret.
// Loaded lazily: only clients configured with keyId + signingSecret pay for it.

type NodeCrypto = typeof import('node:crypto');

const enc = new TextEncoder();
const hex = (buf: ArrayBuffer) =>
  [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, '0')).join('');
const utf8 = (data: string | Uint8Array) =>
  (typeof data === 'string' ? enc.encode(data) : data) as Uint8Array<ArrayBuffer>;

/** `node:crypto` without a static import (bundlers leave it alone), where there is one. */
function nodeCrypto(): NodeCrypto | undefined {
  try {
    const process = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } })
      .process;
    return process?.getBuiltinModule?.('node:crypto') as NodeCrypto | undefined;
  } catch {
    return undefined;
  }
}

const keys = new Map<string, Promise<CryptoKey>>();

/** SHA-256 and HMAC-SHA256 as lower-case hex, with WebCrypto. */
export const webCrypto = {
  sha256Hex: async (data: string | Uint8Array) =>
    hex(await crypto.subtle.digest('SHA-256', utf8(data))),
  async hmacHex(key: string, message: string) {
    let imported = keys.get(key);
    if (!imported) {
      imported = crypto.subtle.importKey(
        'raw',
        enc.encode(key),
        { name: 'HMAC', hash: 'SHA-256' },
        false,
        ['sign'],
      );
      keys.set(key, imported);
      imported.catch(() => keys.delete(key));
    }
    return hex(await crypto.subtle.sign('HMAC', await imported, enc.encode(message)));
  },
};

/** The same with node:crypto (synchronous), or undefined where the runtime has none. */
export const nodeCryptoHex = ((node) =>
  node && {
    sha256Hex: (data: string | Uint8Array) => node.createHash('sha256').update(data).digest('hex'),
    hmacHex: (key: string, message: string) =>
      node.createHmac('sha256', key).update(message).digest('hex'),
  })(nodeCrypto());

const use = nodeCryptoHex ?? webCrypto;
export const sha256Hex: (data: string | Uint8Array) => string | Promise<string> = use.sha256Hex;
/** The key is the whole secret string, prefix included (see spec/vectors/signatures.json). */
export const hmacHex: (key: string, message: string) => string | Promise<string> = use.hmacHex;

/**
 * The auth headers of `timestamp.METHOD.path.sha256_hex(body)`, signed; `body` is the exact body
 * sent (a string is hashed as its UTF-8 bytes). Synchronous with node:crypto, a promise with
 * WebCrypto. `path` is `TASKS_PATH`, passed in by the caller so the lazy sealing chunk does not
 * share the generated service constants with the start-up chunk.
 */
export function signHeaders(
  keyId: string,
  signingSecret: string,
  body: string | Uint8Array,
  nowMs: number,
  method: string,
  path: string,
): Record<string, string> | Promise<Record<string, string>> {
  const timestamp = String(Math.floor(nowMs / 1000));
  const payload = (digest: string) => `${timestamp}.${method.toUpperCase()}.${path}.${digest}`;
  const headers = (signature: string) => ({
    'X-Svc-Key-Id': keyId,
    'X-Svc-Timestamp': timestamp,
    'X-Svc-Signature': signature,
  });
  if (nodeCryptoHex)
    return headers(nodeCryptoHex.hmacHex(signingSecret, payload(nodeCryptoHex.sha256Hex(body))));
  return (async () =>
    headers(await webCrypto.hmacHex(signingSecret, payload(await webCrypto.sha256Hex(body)))))();
}
