// The one secret guard of the integrations: which values must never reach browser code or a
// public variable. Key shapes of contract 2.5: the publishable key, the secret key id and the
// encryption key id are public; the signing secret is not (5.5: never transmitted), nor is the
// reference service's admin token. The variable of the signing secret comes from the spec.
import { OPTION_ENV } from '../generated/options.gen.ts';

/** The key shapes and whether a value of that shape is a secret. */
export const KEY_SHAPES = [
  { prefix: 'svc_pub_', name: 'publishable key', secret: false },
  { prefix: 'svck_', name: 'secret key id', secret: false },
  { prefix: 'svcek_', name: 'encryption key id', secret: false },
  { prefix: 'svc_sec_', name: 'signing secret', secret: true },
  { prefix: 'svc_adm_', name: 'admin token', secret: true },
] as const;

// No top-level computation below: browser code imports the kit for titles, and a bundler keeps
// whatever runs at load time.

/** The secret shapes. */
const secretShapes = () => KEY_SHAPES.filter((shape) => shape.secret);
/** Known secret values shorter than this are ignored: they would match by accident. */
const MIN_KNOWN_LENGTH = 8;

/** A secret value known from the environment, and the variable it came from (never printed). */
export interface KnownSecret {
  variable: string;
  value: string;
}

/** Where a secret would be exposed, and what it is; never the value. */
export interface SecretLeak {
  where: string;
  what: string;
}

/** The signing secret's variable (from the spec), also under a framework prefix (`VITE_`, `NEXT_PUBLIC_`). */
const isSecretVariable = (name: string) => {
  const variable = OPTION_ENV.signingSecret;
  return name === variable || name.endsWith(`_${variable}`);
};

/** The secret values of `env`: the signing secret's variable, plain or framework-prefixed. */
export function knownSecrets(env: Record<string, string | undefined>): KnownSecret[] {
  return Object.entries(env)
    .filter(([name, value]) => isSecretVariable(name) && (value ?? '').length >= MIN_KNOWN_LENGTH)
    .map(([variable, value]) => ({ variable, value: value as string }));
}

/** What in `code` (a built file) is a secret: a secret-shaped value, or a known secret value. */
export function findSecretsInCode(code: string, known: readonly KnownSecret[]): string[] {
  const found: string[] = [];
  // A secret in code: its prefix and 16+ key characters (the bare prefix in code or docs is none).
  const prefixes = secretShapes().map((shape) => shape.prefix);
  const shaped = new RegExp(`(${prefixes.join('|')})[A-Za-z0-9_-]{16,}`).exec(code);
  if (shaped) {
    const shape = secretShapes().find((candidate) => candidate.prefix === shaped[1]);
    found.push(`a ${shape?.name} (${shaped[1]}...)`);
  }
  for (const { variable, value } of known)
    if (code.includes(value)) found.push(`the value of ${variable}`);
  return found;
}

/** Why a variable's name or value makes it a secret, or undefined. */
function secretIn(name: string, value: string, known: readonly KnownSecret[]): string | undefined {
  if (isSecretVariable(name)) return 'is the signing secret variable';
  const shape = secretShapes().find((candidate) => value.trim().startsWith(candidate.prefix));
  if (shape) return `holds a ${shape.name} (${shape.prefix}...)`;
  const secret = known.find((candidate) => value.includes(candidate.value));
  return secret ? `holds the value of ${secret.variable}` : undefined;
}

/**
 * Variables that would be public (`isPublic`) and carry a secret: named as the signing secret's
 * variable, holding a value that starts with a secret prefix, or holding a known secret value.
 * `label` names where a variable is exposed (`process.env.NEXT_PUBLIC_X`).
 */
export function findSecretVariables(
  variables: Record<string, string | undefined>,
  isPublic: (name: string) => boolean,
  known: readonly KnownSecret[],
  label: (name: string) => string = (name) => name,
): SecretLeak[] {
  const leaks: SecretLeak[] = [];
  for (const [name, value] of Object.entries(variables)) {
    if (!isPublic(name) || typeof value !== 'string') continue;
    const what = secretIn(name, value, known);
    if (what) leaks.push({ where: label(name), what });
  }
  return leaks;
}
