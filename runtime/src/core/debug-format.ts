// The debug channel's formatting, loaded only when something is logged (see ./debug.ts). Every
// logged value is rendered to text and redacted: the client's own key values and secrets, anything
// shaped like a key (contract 2.5 prefixes), and the values of Authorization / X-Svc-Signature
// headers never reach the logger, Error objects included.
import { describe } from './describe.ts';
import type { Logger } from './types.ts';

/** Key values by prefix; key ids (public) keep their first 4 characters for recognition. */
const TOKENS = /\b(svc_pub_|svc_sec_|svck_|svcek_)([\w-]{0,4})[\w-]*/g;
/** Header-shaped secrets: `Authorization: Bearer ...`, `"X-Svc-Signature":"..."`. */
const HEADERS = /((?:authorization|x-svc-signature)"?\s*[:=]\s*"?)(?:Bearer )?[^"\s,}]+/gi;

export function redact(v: unknown, secrets: readonly string[]): string {
  let s = describe(v) ?? String(v);
  for (const secret of secrets) s = s.split(secret).join('[REDACTED]');
  return s
    .replace(HEADERS, '$1[REDACTED]')
    .replace(
      TOKENS,
      (_, p: string, head: string) => p + (p.length < 7 ? `${head}***` : '[REDACTED]'),
    );
}

/**
 * The texts of coded lines: `debug.warn(n, ...)` (0-4 and 12-16, shown whether or not `debug` is
 * on) and `debug.log(n, ...)` / `debug.info(n, ...)` (a leading number). `%d` and `%s` take the
 * next argument.
 * Kept here, in the lazy chunk, so the start-up code carries indexes instead of texts.
 */
export const MESSAGES = [
  'apiKey ignored: keyId + signingSecret take precedence (signed auth)',
  'keyId and signingSecret go together',
  'no apiKey or keyId + signingSecret: client disabled, nothing is sent',
  'encryptionPublicKey is not base64 of 32 bytes: client disabled, nothing is sent',
  'sealing or signing code failed to load: reports fail',
  'transport failed to load:', // 5
  'logLocally (not sent):',
  'client created',
  'beforeSend threw; report dropped:',
  'queue full (maxQueueSize %d): newest report dropped',
  'report failed:', // 10
  'flush result',
  'serviceUrl %s is not an absolute http(s) URL: client disabled, nothing is sent. Set SERVICE_URL (or serviceUrl) to your Svc service, e.g. https://svc.example.com',
  // 13-16: delivery failures, one line per client and kind, shown when a report is given up.
  'cannot deliver to %s: its host name does not resolve (%s). Set SERVICE_URL (or serviceUrl) to the address of your Svc service',
  'cannot deliver to %s: %s. Is the service running there? Check SERVICE_URL (or serviceUrl)',
  'the service at %s refused the credentials (%s): check the key (apiKey, or keyId + signingSecret), that it is not revoked, and its allowed origins',
  'cannot deliver to %s: it answered %s, so no Svc service is there. Check SERVICE_URL (or serviceUrl)',
];

/** Logs one line (a leading code as its text): lazy arguments (functions) are computed here, then every value is redacted. */
export function write(
  logger: Logger,
  fn: keyof Logger,
  args: unknown[],
  secrets: readonly string[],
): void {
  if (typeof args[0] === 'number') {
    const [code, ...rest] = args;
    args = [MESSAGES[code].replace(/%[ds]/g, () => String(rest.shift())), ...rest];
  }
  logger[fn]('[svc]', ...args.map((a) => redact(typeof a === 'function' ? a() : a, secrets)));
}
