/** A signing secret as the service issues it (`svc_sec_` + 64 hex); the bare prefix alone is fine. */
const SIGNING_SECRET = /svc_sec_[A-Za-z0-9_-]{16,}/;

/** A server-only value that must never reach the browser, and how to name it in an error. */
export interface Forbidden {
  label: string;
  value: string;
}

/** Server-only values from the build's environment (the values, never printed). */
export function forbiddenValues(env: Record<string, string | undefined>): Forbidden[] {
  const out: Forbidden[] = [];
  for (const name of ['SERVICE_SIGNING_SECRET', 'SERVICE_KEY_ID']) {
    for (const key of [name, `VITE_${name}`]) {
      const value = env[key];
      // Very short values would match by accident; real ones are 13+ characters.
      if (value && value.length >= 8) out.push({ label: `the value of ${key}`, value });
    }
  }
  return out;
}

/** What in `code` must not ship: labels only, so the error never repeats the secret. */
export function findLeaks(code: string, forbidden: Forbidden[]): string[] {
  const leaks: string[] = [];
  if (SIGNING_SECRET.test(code)) leaks.push('a signing secret (svc_sec_...)');
  for (const { label, value } of forbidden) if (code.includes(value)) leaks.push(label);
  return leaks;
}
