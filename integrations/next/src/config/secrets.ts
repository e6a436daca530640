// Build-time guard: a value that reaches client code is public. Next puts two kinds of variables
// into browser bundles: every `NEXT_PUBLIC_*` variable and every entry of `next.config` `env`.
// None of them may hold the signing secret (or anything shaped like one).

const SECRET_PREFIX = 'svc_sec_';
const SECRET_NAMES = ['SERVICE_SIGNING_SECRET'];

export interface SecretLeak {
  /** Where the value would be exposed, e.g. `process.env.NEXT_PUBLIC_X` or `next.config env.X`. */
  where: string;
  /** Why it counts as a server-only credential (never the value itself). */
  why: string;
}

function looksSecret(value: string, knownSecrets: string[]): string | undefined {
  if (value.includes(SECRET_PREFIX)) return `holds a value starting with ${SECRET_PREFIX}`;
  if (knownSecrets.some((secret) => secret.length >= 8 && value.includes(secret))) {
    return 'holds the value of SERVICE_SIGNING_SECRET';
  }
  return undefined;
}

/** Lists every client-visible variable that would carry a server-only credential. */
export function findSecretLeaks(
  processEnv: Record<string, string | undefined>,
  configEnv: Record<string, string | undefined> = {},
): SecretLeak[] {
  const leaks: SecretLeak[] = [];
  const known = SECRET_NAMES.map((name) => processEnv[name]).filter(
    (v): v is string => typeof v === 'string' && v !== '',
  );
  for (const [name, value] of Object.entries(processEnv)) {
    if (!name.startsWith('NEXT_PUBLIC_') || typeof value !== 'string') continue;
    if (/SIGNING_SECRET/i.test(name)) {
      leaks.push({
        where: `process.env.${name}`,
        why: 'a signing secret must not be NEXT_PUBLIC_',
      });
      continue;
    }
    const why = looksSecret(value, known);
    if (why) leaks.push({ where: `process.env.${name}`, why });
  }
  for (const [name, value] of Object.entries(configEnv)) {
    if (SECRET_NAMES.includes(name) || /SIGNING_SECRET/i.test(name)) {
      leaks.push({
        where: `next.config env.${name}`,
        why: '`env` entries are inlined into browser code',
      });
      continue;
    }
    const why = typeof value === 'string' ? looksSecret(value, known) : undefined;
    if (why) leaks.push({ where: `next.config env.${name}`, why });
  }
  return leaks;
}
