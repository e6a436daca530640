import { createHash, createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnProcess } from '../../testkit/src/process.ts';
import { testDatabaseUrl } from './store-kind.ts';

const SERVE = fileURLToPath(new URL('./fixtures/serve.mjs', import.meta.url));
export const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
export const TASKS = '/api/v1/tasks';
export const SOURCEMAPS = '/api/v1/sourcemaps';

export interface FixtureInfo {
  url: string;
  accountId: number;
  projectId: number;
  secondProjectId?: number;
  keys: {
    apiKey: string;
    apiKeyId: number;
    restrictedKey: string;
    keyId: string;
    secretKeyId: number;
    signingSecret: string;
    encryptionPublicKey: string;
    encryptionKeyId: string;
    encryptionId: number;
    secondApiKey?: string;
  };
}

export interface FixtureConfig {
  plan?: string;
  plans?: Record<string, { burstPerMinute?: number; dailyEvents?: number }>;
  variantCap?: number;
  now?: number;
  smtp?: unknown;
  notifications?: { delayMs?: number; intervalMs?: number };
  /** Serve the board under /board too. */
  board?: boolean;
  /** `startServer`'s `alerts` (retries, timeouts, the address policy). */
  alerts?: Record<string, unknown> | false;
  origins?: string[];
  members?: { email: string; role: string }[];
  secondProject?: boolean;
  dataDir?: string;
  headersTimeoutMs?: number;
  bodyTimeoutMs?: number;
  keepAliveTimeoutMs?: number;
  maxConnections?: number;
  maxConnectionsPerAddress?: number;
  /** PostgreSQL to use; by default a fresh database in the `server-pg` project, else SQLite. */
  databaseUrl?: string;
  /** Seed no account (another instance on the same database already did). */
  noSeed?: boolean;
  /** Base64 X25519 secret key the project's encryption key is imported from. */
  encryptionSecretKey?: string;
  /** `startServer`'s source-map options. */
  sourceMaps?: Record<string, number> | false;
}

/**
 * Spawns `fixtures/serve.mjs` (the built service) in its own process with a temp data dir, or a
 * fresh PostgreSQL database in the `server-pg` project.
 */
export async function spawnService(config: FixtureConfig = {}) {
  const dataDir = config.dataDir ?? mkdtempSync(join(tmpdir(), 'svc-server-test-'));
  const databaseUrl = config.databaseUrl ?? (await testDatabaseUrl());
  const proc = spawnProcess(process.execPath, [
    SERVE,
    JSON.stringify({ ...config, dataDir, databaseUrl }),
  ]);
  const m = await proc.waitFor(/READY (.+)\n/, 30_000);
  const info = JSON.parse(m[1]!) as FixtureInfo;
  const now = () => config.now ?? Date.now();
  const storeArgs = databaseUrl ? ['--database-url', databaseUrl] : ['--data-dir', dataDir];
  return {
    ...info,
    dataDir,
    databaseUrl,
    proc,
    post: (body: string | Uint8Array<ArrayBuffer>, headers: Record<string, string> = {}) =>
      fetch(info.url + TASKS, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
        body,
      }),
    /** A source-map upload signed with the project's secret key (over the uploads' path). */
    upload: (body: string | Uint8Array<ArrayBuffer>, headers?: Record<string, string>) =>
      fetch(info.url + SOURCEMAPS, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(headers ??
            signHeaders(
              body,
              info.keys.signingSecret,
              info.keys.keyId,
              Math.floor(now() / 1000),
              SOURCEMAPS,
            )),
        },
        body,
      }),
    bearer: (token = info.keys.apiKey) => ({ authorization: `Bearer ${token}` }),
    signed: (
      body: string | Uint8Array,
      opts: { ts?: number; secret?: string; keyId?: string } = {},
    ) =>
      signHeaders(
        body,
        opts.secret ?? info.keys.signingSecret,
        opts.keyId ?? info.keys.keyId,
        opts.ts ?? Math.floor(now() / 1000),
      ),
    /** Runs the real admin CLI against this service's data dir or database. */
    cli: (...args: string[]) => runCli([...args, ...storeArgs]),
    cards: (projectId = info.projectId) => allCards(projectId, storeArgs),
    async close() {
      proc.kill('SIGTERM');
      await proc.exited;
      if (!config.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
export type Service = Awaited<ReturnType<typeof spawnService>>;

export interface Card {
  id: number;
  title: string;
  status: string;
  regressions: number;
  last_regressed_at: string | null;
  description: string | null;
  description_type: string;
  tags: string[];
  occurrence_count: number;
  file_name: string | null;
  line_number: number | null;
  variants: {
    title: string | null;
    description: string | null;
    count: number;
    aggregate: boolean;
    file_name: string | null;
    line_number: number | null;
  }[];
}

export function signHeaders(
  body: string | Uint8Array,
  secret: string,
  keyId: string,
  ts: number,
  path = TASKS,
) {
  const hash = createHash('sha256').update(body).digest('hex');
  const signature = createHmac('sha256', secret).update(`${ts}.POST.${path}.${hash}`).digest('hex');
  return { 'x-svc-key-id': keyId, 'x-svc-timestamp': String(ts), 'x-svc-signature': signature };
}

/** Every card of a project, page by page as `cards list --json` gives them (by id). */
export async function allCards(projectId: number, storeArgs: string[]): Promise<Card[]> {
  const cards: Card[] = [];
  for (;;) {
    const after = cards.length > 0 ? ['--after', String(cards.at(-1)!.id)] : [];
    const r = await runCli([
      'cards',
      'list',
      '--project',
      String(projectId),
      '--json',
      '--limit',
      '1000',
      ...after,
      ...storeArgs,
    ]);
    if (r.code !== 0) throw new Error(`cards list failed: ${r.output}`);
    const page = JSON.parse(r.stdout) as Card[];
    cards.push(...page);
    if (page.length < 1000) return cards;
  }
}

export async function runCli(args: string[]) {
  const p = spawnProcess(process.execPath, [CLI, ...args]);
  let stdout = '';
  p.child.stdout?.on('data', (c: Buffer) => (stdout += c.toString()));
  const code = await p.exited;
  return { code, stdout, output: p.output() };
}

export const report = (fields: Record<string, unknown>) =>
  JSON.stringify({ severity: 'major', priority: 'medium', tags: [], ...fields });
