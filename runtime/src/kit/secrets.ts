// The one secret guard of the integrations: which values must never reach browser code or a
// public variable. The key shapes come from the spec (contract 2.5): the publishable key, the
// secret key id and the encryption key id are public; the signing secret is not (5.5: never
// transmitted), nor is the reference service's admin token. The signing secret's variable comes
// from the spec too.
import { KEY_SHAPES as CONTRACT_KEYS } from '../generated/keys.gen.ts';
import { OPTION_ENV } from '../generated/options.gen.ts';

/** A key value shape: its prefix, and whether a value of it is a secret. */
export interface KeyShape {
  name: string;
  prefix: string;
  secret: boolean;
}

/** The spec's key shapes, and the reference service's admin token (secret, not a contract key). */
export function keyShapes(): readonly KeyShape[] {
  return [...CONTRACT_KEYS, { name: 'adminToken', prefix: 'svc_adm_', secret: true }];
}

/** `signingSecret` -> `signing secret`. */
const words = (name: string) => name.replace(/[A-Z]/g, (letter) => ` ${letter.toLowerCase()}`);

// No top-level computation below: browser code imports the kit for titles, and a bundler keeps
// whatever runs at load time.

/** The secret shapes. */
const secretShapes = () => keyShapes().filter((shape) => shape.secret);
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
    found.push(`a ${words(shape?.name ?? 'secret')} (${shaped[1]}...)`);
  }
  for (const { variable, value } of known)
    if (code.includes(value)) found.push(`the value of ${variable}`);
  return found;
}

/** Why a variable's name or value makes it a secret, or undefined. */
function secretIn(name: string, value: string, known: readonly KnownSecret[]): string | undefined {
  if (isSecretVariable(name)) return 'is the signing secret variable';
  const shape = secretShapes().find((candidate) => value.trim().startsWith(candidate.prefix));
  if (shape) return `holds a ${words(shape.name)} (${shape.prefix}...)`;
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
