// Credential selection (contract 5.5). Signing itself lives in ./sign.ts, loaded only when used.

export type Credentials =
  { kind: 'bearer'; apiKey: string } | { kind: 'signed'; keyId: string; signingSecret: string };

const s = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);

/**
 * Signed auth wins when `keyId` and `signingSecret` are both set, because the secret never leaves
 * the process; an `apiKey` given as well is ignored with a warning. Returns the warnings to show, as indexes
 * into `MESSAGES` (./debug-format.ts, a lazy chunk: the texts stay out of the start-up code).
 */
export function pickCredentials(apiKey: unknown, keyId: unknown, signingSecret: unknown) {
  const [a, k, sec] = [s(apiKey), s(keyId), s(signingSecret)];
  const warnings: number[] = [];
  let credentials: Credentials | undefined;
  if (k && sec) credentials = { kind: 'signed', keyId: k, signingSecret: sec };
  else if (a) credentials = { kind: 'bearer', apiKey: a };
  if (k && sec && a) warnings.push(0);
  if (!k !== !sec) warnings.push(1);
  if (!credentials) warnings.push(2);
  return { credentials, warnings };
}
