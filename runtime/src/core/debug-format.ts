// The debug channel's formatting, loaded only when something is logged (see ./debug.ts). Every
// logged value is rendered to text and redacted: the client's own key values and secrets, anything
// shaped like a key (contract 2.5 prefixes), and the values of Authorization / X-Svc-Signature
// headers, and the credentials of a URL (`http://user:password@host`) never reach the logger,
// Error objects included.
import { KEY_SHAPES } from '../generated/keys.gen.ts';
import { describe } from './describe.ts';
import {
  API_KEY_IGNORED,
  BAD_ENCRYPTION_KEY,
  BAD_SERVICE_URL,
  BEFORE_SEND_THREW,
  CLIENT_CREATED,
  CREDENTIALS_REFUSED,
  EXIT_GAVE_UP,
  FLUSH_RESULT,
  HOST_NOT_FOUND,
  KEY_PAIR_INCOMPLETE,
  LOGGED_LOCALLY,
  type MessageName,
  NO_CREDENTIALS,
  NO_SERVICE_THERE,
  OFFLINE_DROPPED,
  QUEUE_FULL,
  REPORT_FAILED,
  SECURE_LOAD_FAILED,
  TRANSPORT_LOAD_FAILED,
  UNREACHABLE,
} from './messages.ts';
import type { Logger } from './types.ts';

/** Key values by their prefix (the spec's key shapes). */
const TOKENS = new RegExp(
  `\\b(${KEY_SHAPES.map((key) => key.prefix).join('|')})([\\w-]{0,4})[\\w-]*`,
  'g',
);
/** Prefixes of key ids (public): they keep their first 4 characters for recognition. */
const ID_PREFIXES: readonly string[] = KEY_SHAPES.filter((key) => key.name.endsWith('Id')).map(
  (key) => key.prefix,
);
/** Header-shaped secrets: `Authorization: Bearer ...`, `"X-Svc-Signature":"..."`. */
const HEADERS = /((?:authorization|x-svc-signature)"?\s*[:=]\s*"?)(?:Bearer )?[^"\s,}]+/gi;
/** The user information of a URL (`http://user:password@host`): a credential in an address. */
const URL_CREDENTIALS = /\b([a-z][\w+.-]*:\/\/)[^\s/?#"'<>]*@/gi;

/**
 * `v` as text, without `secrets` (the non-empty strings among them), anything key-shaped, header
 * secrets or a URL's user information: the one redaction of every line the SDK writes.
 */
export function redact(v: unknown, secrets: readonly unknown[]): string {
  let s = describe(v) ?? String(v);
  for (const secret of secrets)
    if (typeof secret === 'string' && secret) s = s.split(secret).join('[REDACTED]');
  return s
    .replace(URL_CREDENTIALS, '$1[REDACTED]@')
    .replace(HEADERS, '$1[REDACTED]')
    .replace(
      TOKENS,
      (_, prefix: string, head: string) =>
        prefix + (ID_PREFIXES.includes(prefix) ? `${head}***` : '[REDACTED]'),
    );
}

/**
 * The text of each named message of ./messages.ts. `%d` and `%s` take the next argument. Kept here,
 * in the lazy chunk, so the start-up code carries names (small numbers) instead of texts.
 */
export const MESSAGES: Record<MessageName, string> = {
  [API_KEY_IGNORED]: 'apiKey ignored: keyId + signingSecret take precedence (signed auth)',
  [KEY_PAIR_INCOMPLETE]: 'keyId and signingSecret go together',
  [NO_CREDENTIALS]: 'no apiKey or keyId + signingSecret: client disabled, nothing is sent',
  [BAD_ENCRYPTION_KEY]:
    'encryptionPublicKey is not base64 of 32 bytes: client disabled, nothing is sent',
  [SECURE_LOAD_FAILED]: 'sealing or signing code failed to load: reports fail',
  [TRANSPORT_LOAD_FAILED]: 'transport failed to load:',
  [LOGGED_LOCALLY]: 'logLocally (not sent):',
  [CLIENT_CREATED]: 'client created',
  [BEFORE_SEND_THREW]: 'beforeSend threw; report dropped:',
  [QUEUE_FULL]: 'queue full (maxQueueSize %d): newest report dropped',
  [REPORT_FAILED]: 'report failed:',
  [FLUSH_RESULT]: 'flush result',
  [BAD_SERVICE_URL]:
    'serviceUrl %s is not an absolute http(s) URL: client disabled, nothing is sent. Set SERVICE_URL (or serviceUrl) to your Svc service, e.g. https://svc.example.com',
  // Delivery failures: one line per client and kind, shown when a report is given up.
  [HOST_NOT_FOUND]:
    'cannot deliver to %s: its host name does not resolve (%s). Set SERVICE_URL (or serviceUrl) to the address of your Svc service',
  [UNREACHABLE]:
    'cannot deliver to %s: %s. Is the service running there? Check SERVICE_URL (or serviceUrl)',
  [CREDENTIALS_REFUSED]:
    'the service at %s refused the credentials (%s): check the key (apiKey, or keyId + signingSecret), that it is not revoked, and its allowed origins',
  [NO_SERVICE_THERE]:
    'cannot deliver to %s: it answered %s, so no Svc service is there. Check SERVICE_URL (or serviceUrl)',
  [EXIT_GAVE_UP]:
    '%d report(s) not delivered before exit: %s, %s; waited %d ms. Is the service running there? Check SERVICE_URL (or serviceUrl)',
  [OFFLINE_DROPPED]:
    '%d report(s) dropped from the offline queue: it keeps the newest %d until the service can be reached',
};

/** Logs one line (a leading message name as its text): lazy arguments (functions) are computed here, then every value is redacted. */
export function write(
  logger: Logger,
  fn: keyof Logger,
  args: unknown[],
  secrets: readonly unknown[],
): void {
  if (typeof args[0] === 'number') {
    const [name, ...rest] = args;
    args = [MESSAGES[name].replace(/%[ds]/g, () => String(rest.shift())), ...rest];
  }
  logger[fn]('[svc]', ...args.map((a) => redact(typeof a === 'function' ? a() : a, secrets)));
}
