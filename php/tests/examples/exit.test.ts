// The exit guarantees of the PHP SDK, as production runs PHP: plain PHP (a CLI script, and a page
// under php-fpm), Laravel (a page under php-fpm, `queue:work`, an Artisan command) and Symfony (a
// page under php-fpm, `messenger:consume`, a console command), the examples on Debian's packages,
// each against the reference service up, a port that refuses, and a server that accepts and never
// answers, with `timeoutMs` 1000 and reports made 0.2 s before the end of the page or job.
//
// - Up: every report has arrived when the process ends (or the FPM worker is free again).
// - Refusing or silent: the host is held at most timeoutMs + 1 s more than when the service is up,
//   in the whole life of the process. Held: from the first moment the SDK could hold it (the end of
//   the FPM response; the first job, or the line the script or command prints before it reports)
//   to the exit (to the moment the one FPM worker serves the next request), minus the work the app
//   does meanwhile (0.2 s a job); the same host's run against the service up is the baseline (its
//   framework's own time between jobs, which a loaded machine stretches). Exactly one `[svc]` line
//   names the true count of reports and the time spent (at most what was measured; a silent
//   service costs one attempt of timeoutMs, one connection).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTestService } from '@svc/server/testing';
import type { TestService } from '@svc/testkit';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FpmPool, startFpm } from '../harness/fpm.ts';
import {
  refusingUrl,
  runTimed,
  type SilentService,
  startSilentService,
} from '../harness/services.ts';
import { EXAMPLES, missingFor } from './helpers.ts';

const TIMEOUT_MS = 1000;
const WORK_MS = 200;
const BOUND_MS = TIMEOUT_MS + 1000;
/** How late this test may read the end of a response the worker has already ended. */
const OBSERVED_LATE_MS = 25;
const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));

const skip = missingFor('laravel, examples/symfony and php-fpm (the exit matrix)', [
  'php-laravel-framework',
  'php-sqlite3',
  'php-symfony-framework-bundle',
  'php-symfony-messenger',
  'php-symfony-yaml',
  'php-symfony-dotenv',
  'php-monolog',
  'php-fpm',
  'libfcgi-bin',
]);
if (skip) console.log(skip);

type Env = Record<string, string>;
type State = 'up' | 'refusing' | 'silent';

/** What one run of a host gave: when the SDK could start holding it, when it was free, its lines. */
interface Held {
  /** Milliseconds the host was held beyond the app's own work. */
  heldMs: number;
  /** The SDK's `[svc]` lines. */
  warnings: string[];
  output: string;
}

interface Host {
  name: string;
  /** Reports the run makes (the count the warning must name). */
  reports: number;
  /** The cards the reports make on a service that is up: title => occurrences. */
  cards: Record<string, number>;
  run(env: Env): Promise<Held>;
}

const svcLines = (lines: string[]) => lines.filter((line) => line.includes('[svc]'));

const work = { dir: '' };

/** The environment of every PHP process: PATH, and TMPDIR (where the SDK notes an outage for the host's other processes). */
const hostEnv = (env: Env) => ({ PATH: process.env.PATH, TMPDIR: work.dir, ...env });

/** Runs a CLI process; held = exit - the first line matching `start` - the app's work after it. */
async function cli(
  cwd: string,
  args: string[],
  env: Env,
  start: RegExp,
  workMs: number,
): Promise<Held> {
  const run = await runTimed('php', args, { cwd, env: hostEnv(env) });
  const first = run.lines.find((line) => start.test(line.text));
  if (!first) throw new Error(`no line matching ${start}; output:\n${run.output}`);
  return {
    heldMs: run.exitAt - first.at - workMs,
    warnings: svcLines(run.lines.map((l) => l.text)),
    output: run.output,
  };
}

let fpm: FpmPool;

/** One page under php-fpm; held = the next request's answer (one worker) - the end of the response. */
async function fpmPage(script: string, uri: string, env: Env): Promise<Held> {
  fpm.clearErrorLog();
  const page = await fpm.request({
    ...env,
    SCRIPT_FILENAME: script,
    SCRIPT_NAME: '/index.php',
    REQUEST_URI: uri,
  });
  const next = await fpm.request({
    SCRIPT_FILENAME: `${FIXTURES}fpm-ping.php`,
    REQUEST_URI: '/ping',
  });
  expect(next.output).toContain('pong');
  return {
    heldMs: next.doneAt - page.doneAt,
    warnings: svcLines(fpm.errorLog()),
    output: page.output,
  };
}

const HOSTS: Host[] = [
  {
    name: 'plain PHP, a script',
    reports: 1,
    cards: { 'Exit matrix CLI 1': 1 },
    run: (env) =>
      cli(
        FIXTURES,
        ['report-and-exit.php'],
        {
          ...env,
          REPORTS: '1',
          PREFIX: 'Exit matrix CLI',
          MODE: 'end',
          TIMEOUT_MS: String(TIMEOUT_MS),
          WORK_MS: String(WORK_MS),
        },
        /^working$/,
        WORK_MS,
      ),
  },
  {
    name: 'plain PHP under php-fpm',
    reports: 1,
    cards: { 'Exit matrix FPM report': 1 },
    run: (env) =>
      fpmPage(`${FIXTURES}fpm-report.php`, '/', {
        ...env,
        PREFIX: 'Exit matrix FPM',
        TIMEOUT_MS: String(TIMEOUT_MS),
        WORK_MS: String(WORK_MS),
      }),
  },
  {
    name: 'Laravel under php-fpm',
    reports: 1,
    cards: { 'Inventory below threshold': 1 },
    run: (env) => fpmPage(`${EXAMPLES}laravel/public/index.php`, '/restock', env),
  },
  {
    name: 'Laravel queue:work: a failing job, then three that report',
    reports: 4,
    cards: {
      'RuntimeException: card declined for order <n> (queue boom) (queue App\\Jobs\\ChargeCard)': 1,
      'Stock count differs from the ledger': 3,
    },
    async run(env) {
      const db = join(work.dir, `queue-${Date.now()}.sqlite`);
      writeFileSync(db, '');
      const app = { ...env, DB_DATABASE: db, QUEUE_CONNECTION: 'database' };
      const cwd = `${EXAMPLES}laravel`;
      for (const args of [
        ['artisan', 'migrate', '--force'],
        ['artisan', 'stock:reconcile'],
      ]) {
        const setup = await runTimed('php', args, { cwd, env: hostEnv(app) });
        expect(setup.code, setup.output).toBe(0);
      }
      // --sleep=0: the worker stops as soon as the queue is empty (its default sleeps 3 s first).
      const args = ['artisan', 'queue:work', '--stop-when-empty', '--sleep=0', '--tries=1'];
      return cli(cwd, args, app, /Processing: /, 3 * WORK_MS);
    },
  },
  {
    name: 'Laravel, an Artisan command that throws',
    reports: 1,
    cards: {
      'RuntimeException: orders:sync failed: the warehouse API answered <n> (console orders:sync)': 1,
    },
    run: (env) => cli(`${EXAMPLES}laravel`, ['artisan', 'orders:sync'], env, /Syncing orders/, 0),
  },
  {
    name: 'Symfony under php-fpm',
    reports: 1,
    cards: { 'Inventory below threshold': 1 },
    run: (env) => fpmPage(`${EXAMPLES}symfony/public/index.php`, '/restock', env),
  },
  {
    name: 'Symfony messenger:consume: a failing message, then three that report',
    reports: 4,
    cards: {
      'RuntimeException: card declined for order <n> (messenger boom) (queue App\\Message\\ChargeCard)': 1,
      'Stock count differs from the ledger': 3,
    },
    async run(env) {
      const spool = { ...env, MESSENGER_TRANSPORT_DSN: `spool://${work.dir}/spool-${Date.now()}` };
      const cwd = `${EXAMPLES}symfony`;
      const setup = await runTimed('php', ['bin/console', 'app:reconcile-stock'], {
        cwd,
        env: hostEnv(spool),
      });
      expect(setup.code, setup.output).toBe(0);
      const args = ['bin/console', 'messenger:consume', 'async', '--limit', '4', '-vv'];
      return cli(cwd, args, spool, /Received message/, 3 * WORK_MS);
    },
  },
  {
    name: 'Symfony, a console command that throws',
    reports: 1,
    cards: {
      'RuntimeException: app:sync-orders failed: the warehouse API answered <n> (console app:sync-orders)': 1,
    },
    run: (env) =>
      cli(`${EXAMPLES}symfony`, ['bin/console', 'app:sync-orders'], env, /Syncing orders/, 0),
  },
];

describe.skipIf(skip !== undefined)('exit guarantees (timeoutMs 1000)', () => {
  let up: TestService;

  beforeAll(async () => {
    work.dir = mkdtempSync(join(tmpdir(), 'svc-exit-'));
    // The Symfony example in an environment of its own (var/cache/exit), so this file never meets
    // the prod cache another test file rebuilds.
    rmSync(`${EXAMPLES}symfony/var/cache/exit`, { recursive: true, force: true });
    [fpm, up] = await Promise.all([startFpm({ TMPDIR: work.dir }), startTestService()]);
  });
  afterAll(async () => {
    await Promise.all([fpm?.stop(), up?.close()]);
    rmSync(work.dir, { recursive: true, force: true });
  });
  // Each case meets a service of its own (a note one process leaves is seen by the next).
  let silent: SilentService;
  beforeEach(async () => {
    silent = await startSilentService();
  });
  afterEach(() => silent.close());

  const env = (url: string): Env => ({
    SERVICE_URL: url,
    SERVICE_API_KEY: up.keys.apiKey,
    SVC_TIMEOUT_MS: String(TIMEOUT_MS),
    APP_ENV: 'exit',
    APP_DEBUG: '0',
  });

  const baselineMs = new Map<string, number>();
  const measured: string[] = [];
  afterAll(() => {
    if (measured.length)
      console.log(
        `[exit matrix] held beyond the app's work, timeoutMs ${TIMEOUT_MS}:\n${measured.join('\n')}`,
      );
  });

  describe.each(HOSTS)('$name', (host) => {
    it('up: every report has arrived when the process ends', async () => {
      const before = new Map((await up.cards()).map((card) => [card.title, card.occurrence_count]));
      const run = await host.run(env(up.url));
      baselineMs.set(host.name, run.heldMs);
      measured.push(`  ${host.name}, up: ${Math.round(run.heldMs)} ms`);
      expect(run.warnings, run.output).toEqual([]);
      const after = new Map((await up.cards()).map((card) => [card.title, card.occurrence_count]));
      for (const [title, count] of Object.entries(host.cards)) {
        expect((after.get(title) ?? 0) - (before.get(title) ?? 0), `${title}\n${run.output}`).toBe(
          count,
        );
      }
    });

    it.each<State>(['refusing', 'silent'])(
      '%s: held at most timeoutMs + 1 s, one line with the true count and time',
      async (state) => {
        const url = state === 'silent' ? silent.url : await refusingUrl();
        const run = await host.run(env(url));
        const extraMs = run.heldMs - (baselineMs.get(host.name) ?? 0);
        measured.push(
          `  ${host.name}, ${state}: ${Math.round(run.heldMs)} ms (${Math.round(extraMs)} ms over up) ${run.warnings[0]?.replace(/^.*\[svc\] /, '').slice(0, 90)}`,
        );
        expect(extraMs, run.output).toBeLessThanOrEqual(BOUND_MS);
        expect(run.warnings, run.output).toHaveLength(1);
        const why = state === 'silent' ? 'no answer within \\d+ ms' : 'cannot connect \\(.*\\)';
        const line = new RegExp(
          `\\[svc\\] (\\d+) report\\(s\\) not delivered to ${url.replaceAll('.', '\\.')}: ${why}; (\\d+) ms spent trying`,
        );
        const match = line.exec(run.warnings[0] ?? '');
        expect(match, run.warnings[0]).not.toBeNull();
        expect(Number(match?.[1])).toBe(host.reports);
        const spentMs = Number(match?.[2]);
        // The line never counts more than the host was held. Held is seen from this test: the end
        // of a response is read when this process's event loop gets to it, a few ms after the
        // worker ended it under load (one CI run saw the line's 1001 ms against 999.75 ms seen).
        expect(spentMs).toBeLessThanOrEqual(run.heldMs + OBSERVED_LATE_MS);
        if (state === 'silent') {
          expect(silent.connections(), 'one attempt in the life of the process').toBe(1);
          expect(spentMs).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
        }
      },
    );
  });

  it('php-fpm: after one request met the silent service, the next ones send nothing before the probe time', async () => {
    const laravel = HOSTS.find((host) => host.name === 'Laravel under php-fpm') as Host;
    const first = await laravel.run(env(silent.url));
    expect(silent.connections()).toBe(1);
    for (let request = 2; request <= 3; request++) {
      const next = await laravel.run(env(silent.url));
      expect(next.heldMs, next.output).toBeLessThanOrEqual(BOUND_MS);
      expect(next.warnings).toHaveLength(1);
      expect(next.warnings[0]).toMatch(
        /1 report\(s\) not delivered to .*: no answer within \d+ ms \(found by another process of this host \d+(\.\d)? s ago\); 0 ms spent trying/,
      );
    }
    expect(silent.connections(), 'the first request tried; the next two saw its note').toBe(1);
    measured.push(
      `  Laravel under php-fpm, silent, the request after: held ${Math.round(first.heldMs)} ms, then 0 attempts`,
    );
  });
});
