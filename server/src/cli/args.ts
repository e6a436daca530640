import { parseArgs } from 'node:util';
import { MAX_ID } from '../domain/types.ts';

export class UsageError extends Error {
  override name = 'UsageError';
}

const OPTIONS = {
  'data-dir': { type: 'string' },
  'database-url': { type: 'string' },
  host: { type: 'string' },
  port: { type: 'string' },
  name: { type: 'string' },
  plan: { type: 'string' },
  member: { type: 'string', multiple: true },
  account: { type: 'string' },
  project: { type: 'string' },
  card: { type: 'string' },
  status: { type: 'string' },
  env: { type: 'string' },
  release: { type: 'string' },
  'current-release': { type: 'boolean' },
  limit: { type: 'string' },
  'trusted-proxy': { type: 'string', multiple: true },
  after: { type: 'string' },
  search: { type: 'string' },
  to: { type: 'string', multiple: true },
  type: { type: 'string' },
  origin: { type: 'string', multiple: true },
  json: { type: 'boolean' },
  board: { type: 'boolean' },
  durability: { type: 'string' },
  'smtp-host': { type: 'string' },
  'smtp-port': { type: 'string' },
  'smtp-from': { type: 'string' },
  id: { type: 'string' },
  'sourcemap-file-bytes': { type: 'string' },
  'sourcemap-project-bytes': { type: 'string' },
  'sourcemap-releases': { type: 'string' },
  'sourcemap-segments': { type: 'string' },
  'sourcemap-cache-bytes': { type: 'string' },
  'no-sourcemaps': { type: 'boolean' },
  url: { type: 'string' },
  format: { type: 'string' },
  webhook: { type: 'string' },
  on: { type: 'string' },
  severity: { type: 'string', multiple: true },
  'more-than': { type: 'string' },
  minutes: { type: 'string' },
  before: { type: 'string' },
  'public-url': { type: 'string' },
  'webhook-allow': { type: 'string', multiple: true },
  'webhook-deny': { type: 'string', multiple: true },
  help: { type: 'boolean', short: 'h' },
} as const;

export type Flags = ReturnType<typeof parse>['values'];

export function parse(argv: string[]) {
  try {
    return parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

export function id(value: string | undefined, what: string): number {
  const n = Number(value);
  if (!value || !Number.isInteger(n) || n < 1)
    throw new UsageError(`${what} must be a positive integer id.`);
  if (n > MAX_ID) throw new NotFound(`${what} ${value}: no such id (ids go up to ${MAX_ID}).`);
  return n;
}

/** A whole number of at least 1 (`--limit`). */
export function count(value: string, what: string): number {
  if (!/^[1-9]\d{0,6}$/.test(value))
    throw new UsageError(`${what} must be a whole number of at least 1.`);
  return Number(value);
}

/** Nothing has the id asked for. */
export class NotFound extends Error {
  override name = 'NotFound';
}

export function required(value: string | undefined, flag: string): string {
  if (!value) throw new UsageError(`Missing --${flag}.`);
  return value;
}
