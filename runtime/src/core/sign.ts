// Request signing (contract 5.2) with WebCrypto, so the same code runs in browsers and Node 20.
// Loaded lazily: only clients configured with keyId + signingSecret pay for it.

const enc = new TextEncoder();
const hex = (buf: ArrayBuffer) =>
  [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, '0')).join('');

export async function sha256Hex(data: Uint8Array): Promise<string> {
  return hex(await crypto.subtle.digest('SHA-256', data as Uint8Array<ArrayBuffer>));
}

/** The key is the whole secret string, prefix included (see spec/vectors/signatures.json). */
export async function hmacHex(key: string, message: string): Promise<string> {
  const k = await crypto.subtle.importKey(
    'raw',
    enc.encode(key),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  return hex(await crypto.subtle.sign('HMAC', k, enc.encode(message)));
}

/**
 * `timestamp.METHOD.path.sha256_hex(body)`, signed; `body` is the exact bytes sent. `path` is
 * `TASKS_PATH`, passed in by the caller so the lazy sealing chunk does not share the generated
 * service constants with the start-up chunk.
 */
export async function signHeaders(
  keyId: string,
  signingSecret: string,
  body: Uint8Array,
  nowMs: number,
  method: string,
  path: string,
): Promise<Record<string, string>> {
  const timestamp = String(Math.floor(nowMs / 1000));
  const payload = `${timestamp}.${method.toUpperCase()}.${path}.${await sha256Hex(body)}`;
  return {
    'X-Svc-Key-Id': keyId,
    'X-Svc-Timestamp': timestamp,
    'X-Svc-Signature': await hmacHex(signingSecret, payload),
  };
}
