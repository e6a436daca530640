// The client part of the generator's model: the options of contract 8.5 (`x-svc-options`) and the
// behaviour values of 8.4 (`x-svc-client`), with their checks. `validateModel` (./model.ts) runs them
// with every other check; nothing else validates.

/** Value types of client options (contract 8.5). */
export const OPTION_TYPES = [
  'string',
  'boolean',
  'number',
  'integer',
  'string[]',
  'function',
] as const;
export type OptionType = (typeof OPTION_TYPES)[number];
export const SDKS = ['js', 'php'] as const;
export type Sdk = (typeof SDKS)[number];

/** One client option of contract 8.5 (`x-svc-options`). */
export interface ClientOption {
  name: string;
  type: OptionType;
  /** `null`: none (unset). */
  default: unknown;
  /** How documentation names the default when the value alone does not say it (`auto-detected`). */
  defaultLabel?: string;
  /** Browser default where it differs (JavaScript only). */
  browserDefault?: unknown;
  minimum?: number;
  maximum?: number;
  sdks: Sdk[];
  /** Environment variable a server integration reads the option from. */
  env?: string;
  /** Browser code may hold the value (read from `env` under a framework's public prefix). */
  public?: boolean;
  description: string;
}

/** A key value shape of contract 2.5 (`x-svc-keys`). */
export interface KeyShape {
  name: string;
  prefix: string;
  /** Never leaves the server (never in browser code). */
  secret: boolean;
}

/** Client behaviour of contract 8.4 that is not an option (`x-svc-client`). */
export interface ClientBehaviour {
  backoffBaseMs: number;
  backoffCapMs: number;
  maxTags: number;
  /** Environment variable that overrides the service address. */
  serviceUrlEnv: string;
}

/** Checks the client options of contract 8.5, the behaviour values of 8.4 and the key shapes of 2.5. */
export function checkClient(model: {
  options: ClientOption[];
  client: ClientBehaviour;
  keys: KeyShape[];
}): string[] {
  const problems: string[] = [];
  const prefixes = new Set<string>();
  for (const key of model.keys) {
    if (!/^[a-z][a-z_]*_$/.test(key.prefix))
      problems.push(
        `key ${key.name}: prefix "${key.prefix}" must be lower-case letters ending in _`,
      );
    if (prefixes.has(key.prefix)) problems.push(`duplicate key prefix "${key.prefix}"`);
    prefixes.add(key.prefix);
  }
  if (!model.keys.some((key) => key.secret)) problems.push('x-svc-keys has no secret key');
  const names = new Set<string>();
  const variables = new Set<string>([model.client.serviceUrlEnv]);
  for (const o of model.options) {
    if (names.has(o.name)) problems.push(`duplicate option "${o.name}"`);
    names.add(o.name);
    if (!/^[a-z][A-Za-z0-9]*$/.test(o.name)) problems.push(`option "${o.name}" is not camelCase`);
    if (!(OPTION_TYPES as readonly string[]).includes(o.type)) {
      problems.push(`option ${o.name}: unknown type "${o.type}"`);
    }
    if (o.sdks.length === 0 || o.sdks.some((s) => !(SDKS as readonly string[]).includes(s))) {
      problems.push(`option ${o.name}: sdks must be a non-empty subset of ${SDKS.join(', ')}`);
    }
    if (o.env !== undefined && !/^[A-Z][A-Z0-9_]*$/.test(o.env)) {
      problems.push(`option ${o.name}: env "${o.env}" is not an environment variable name`);
    }
    if (o.env !== undefined && variables.has(o.env)) problems.push(`duplicate env "${o.env}"`);
    if (o.env !== undefined) variables.add(o.env);
    if (o.public && o.env === undefined) problems.push(`option ${o.name}: public needs an env`);
    if (o.public && model.keys.some((key) => key.secret && key.name === o.name)) {
      problems.push(`option ${o.name}: a secret key cannot be public`);
    }
    for (const value of [o.default, ...('browserDefault' in o ? [o.browserDefault] : [])]) {
      if (value !== null && !fitsType(o, value)) {
        problems.push(
          `option ${o.name}: default ${JSON.stringify(value)} is not a valid ${o.type}`,
        );
      }
    }
    const numeric = o.type === 'number' || o.type === 'integer';
    if (numeric !== (o.minimum !== undefined && o.maximum !== undefined)) {
      problems.push(`option ${o.name}: minimum and maximum are required exactly for numbers`);
    }
  }
  const { backoffBaseMs, backoffCapMs, maxTags, serviceUrlEnv } = model.client;
  for (const [key, value] of Object.entries({ backoffBaseMs, backoffCapMs, maxTags })) {
    if (!Number.isInteger(value) || value < 1) problems.push(`${key} must be a positive integer`);
  }
  if (backoffCapMs < backoffBaseMs) problems.push('backoffCapMs is below backoffBaseMs');
  if (!/^[A-Z][A-Z0-9_]*$/.test(serviceUrlEnv)) {
    problems.push(`serviceUrlEnv "${serviceUrlEnv}" is not an environment variable name`);
  }
  return problems;
}

/** Whether `value` is a valid non-null value of the option (numbers within their range). */
function fitsType(o: ClientOption, value: unknown): boolean {
  switch (o.type) {
    case 'string':
      return typeof value === 'string';
    case 'boolean':
      return typeof value === 'boolean';
    case 'string[]':
      return Array.isArray(value) && value.every((v) => typeof v === 'string');
    case 'function':
      return false;
    default:
      return (
        typeof value === 'number' &&
        (o.type === 'number' || Number.isInteger(value)) &&
        value >= (o.minimum ?? -Infinity) &&
        value <= (o.maximum ?? Infinity)
      );
  }
}
