// Sealing and signing for one client, a lazy chunk loaded only by clients configured with an
// encryption key or a secret key: the body is sealed first, then the bytes sent are signed.
import type { Credentials } from './auth.ts';
import { createSealer } from './seal.ts';
import { signHeaders } from './sign.ts';
import type { Prepared } from './send.ts';

export async function createSecure(
  publicKey: string | undefined,
  keyId: string | undefined,
  signed: Extract<Credentials, { kind: 'signed' }> | undefined,
  bearer: Record<string, string>,
  now: () => number,
  path: string,
) {
  const seal =
    publicKey &&
    createSealer(
      Uint8Array.from(atob(publicKey), (c) => c.charCodeAt(0)),
      keyId,
    );
  /** Auth headers for this exact body, computed now (a fresh timestamp when signed). */
  const auth = (body: string) =>
    signed ? signHeaders(signed.keyId, signed.signingSecret, body, now(), 'POST', path) : bearer;
  return {
    auth: async (body: string) => auth(body),
    /** Synchronous when signing with node:crypto (or only sealing); a promise with WebCrypto. */
    prepare(json: string): Prepared | Promise<Prepared> {
      const body = seal ? seal(json) : json;
      const at = now();
      const headers = auth(body);
      return headers instanceof Promise
        ? headers.then((signed) => ({ body, at, auth: signed }))
        : { body, at, auth: headers };
    },
  };
}
