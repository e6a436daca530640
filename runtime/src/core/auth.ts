// Credential selection (contract 5.5). Signing itself lives in ./sign.ts, loaded only when used.
import {
  API_KEY_IGNORED,
  KEY_PAIR_INCOMPLETE,
  type MessageName,
  NO_CREDENTIALS,
} from './messages.ts';

export type Credentials =
  { kind: 'bearer'; apiKey: string } | { kind: 'signed'; keyId: string; signingSecret: string };

const trimmed = (value: unknown) =>
  typeof value === 'string' && value.trim() ? value.trim() : undefined;

/**
 * Signed auth wins when `keyId` and `signingSecret` are both set, because the secret never leaves
 * the process; an `apiKey` given as well is ignored with a warning. `warn` gets each warning as a
 * message name (./messages.ts; the texts stay out of the start-up code).
 */
export function pickCredentials(
  apiKey: unknown,
  keyId: unknown,
  signingSecret: unknown,
  warn: (message: MessageName) => void,
): Credentials | undefined {
  const key = trimmed(apiKey);
  const id = trimmed(keyId);
  const secret = trimmed(signingSecret);
  let credentials: Credentials | undefined;
  if (id && secret) credentials = { kind: 'signed', keyId: id, signingSecret: secret };
  else if (key) credentials = { kind: 'bearer', apiKey: key };
  if (id && secret && key) warn(API_KEY_IGNORED);
  if (!id !== !secret) warn(KEY_PAIR_INCOMPLETE);
  if (!credentials) warn(NO_CREDENTIALS);
  return credentials;
}
