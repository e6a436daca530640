// Sealing and signing for one client, a lazy chunk loaded only by clients configured with an
// encryption key or a secret key: the body is sealed first, then the bytes sent are signed.
import type { Credentials } from './auth.ts';
import { createSealer } from './seal.ts';
import { signHeaders } from './sign.ts';
import type { Prepared } from './send.ts';

const enc = new TextEncoder();

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
  /** Auth headers for these exact bytes, computed now (a fresh timestamp when signed). */
  const auth = async (bytes: Uint8Array) =>
    signed ? signHeaders(signed.keyId, signed.signingSecret, bytes, now(), 'POST', path) : bearer;
  return {
    auth,
    async prepare(json: string): Promise<Prepared> {
      const body = seal ? seal(json) : json;
      const bytes = enc.encode(body);
      const at = now();
      return { body, bytes, at, auth: await auth(bytes) };
    },
  };
}
