// examples/laravel, run as a user runs it on Debian 12's php-laravel-framework 8.83 (no Composer):
// served with `php -S 127.0.0.1:<port> -t examples/laravel/public`, configured only by SERVICE_URL
// and SERVICE_API_KEY (or SERVICE_KEY_ID + SERVICE_SIGNING_SECRET), against the reference service.
// `/boom` answers Laravel's usual 500 and its card arrives, with the title, severity, priority and
// tags `@svc/express` gives the same failure; two orders make one card titled by the route
// pattern; a 404 makes none; `php artisan svc:test` exits 0 and its report arrives; a failing
// command is reported; a `queue:work` worker that never exits delivers each failed job's card while
// it keeps running. Every card is checked field by field, as the failure table says for its kind.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnProcess, type Spawned, useServiceAndApp } from '@svc/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import {
  asExpressReports,
  EXAMPLES,
  lineOf,
  missingFor,
  php,
  phpServe,
  userEnv,
  waitForCard,
} from './helpers.ts';

const skip = missingFor('laravel', ['php-laravel-framework', 'php-monolog', 'php-sqlite3']);
if (skip) console.log(skip);

describe.skipIf(skip !== undefined)('examples/laravel', () => {
  const t = useServiceAndApp();
  const extra: Spawned[] = [];
  afterEach(async () => {
    for (const p of extra.splice(0)) {
      p.kill('SIGKILL');
      await p.exited;
    }
  });
  const bearer = () => userEnv({ SERVICE_URL: t.svc.url, SERVICE_API_KEY: t.svc.keys.apiKey });

  it('/boom: Laravel answers its 500 page and the card reaches the service as Express reports a server error', async () => {
    const { url, server } = await phpServe('laravel', bearer());
    t.app = server;
    const res = await fetch(`${url}/boom`);
    expect(res.status).toBe(500);
    expect(await res.text()).toContain('<title>Server Error</title>');
    const express = asExpressReports(
      'laravel',
      { name: 'RuntimeException', message: 'boom: the checkout service is down' },
      { method: 'GET', route: '/boom' },
    );
    expect(express).toEqual({
      title: 'RuntimeException: boom: the checkout service is down (GET /boom)',
      severity: 'major',
      priority: 'medium',
      tags: ['laravel', 'server', 'server-error', 'method:GET'],
    });
    const card = await waitForCard(t.svc, express.title);
    expect(card).toMatchObject({
      severity: express.severity,
      priority: express.priority,
      occurrence_count: 1,
    });
    expect(card.tags).toEqual(express.tags);
    const line = lineOf('laravel/routes/web.php', /throw new RuntimeException\('boom/);
    expect(card.variants[0]).toMatchObject({ file_name: 'routes/web.php', line_number: line });
    expect(card.description).toMatch(
      new RegExp(
        `^RuntimeException: boom: the checkout service is down\n {4}at routes/web\\.php:${line}\n`,
      ),
    );
  });

  it('two orders make one card titled by the route pattern; a 404 makes none', async () => {
    const { url, server } = await phpServe('laravel', bearer());
    t.app = server;
    expect((await fetch(`${url}/no-such-page`)).status).toBe(404);
    expect((await fetch(`${url}/orders/42`)).status).toBe(500);
    expect((await fetch(`${url}/orders/43`)).status).toBe(500);
    const express = asExpressReports(
      'laravel',
      { name: 'RuntimeException', message: 'order 42 has no lines' },
      { method: 'GET', route: '/orders/{order}' },
    );
    const card = await waitForCard(t.svc, express.title, (c) => c.occurrence_count === 2);
    expect(card.title).toBe('RuntimeException: order <n> has no lines (GET /orders/{order})');
    expect(card).toMatchObject({ severity: express.severity, priority: express.priority });
    expect(card.tags).toEqual(express.tags);
    expect(card.variants[0]).toMatchObject({
      file_name: 'routes/web.php',
      line_number: lineOf('laravel/routes/web.php', /order \{\$order\} has no lines/),
    });
    expect((await t.svc.cards()).map((c) => c.title)).toEqual([express.title]);
  });

  it('signed requests and the log channel: /log makes one card at the line that logged', async () => {
    const env = userEnv({
      SERVICE_URL: t.svc.url,
      SERVICE_KEY_ID: t.svc.keys.keyId,
      SERVICE_SIGNING_SECRET: t.svc.keys.signingSecret,
    });
    const { url, server } = await phpServe('laravel', env);
    t.app = server;
    expect(await (await fetch(`${url}/log`)).text()).toBe('logged');
    const card = await waitForCard(
      t.svc,
      'Payment provider timed out for order {order} (production log)',
    );
    const line = lineOf('laravel/routes/web.php', /Log::error\(/);
    expect(card).toMatchObject({ severity: 'major', priority: 'medium', occurrence_count: 1 });
    expect(card.variants[0]).toMatchObject({ file_name: 'routes/web.php', line_number: line });
    expect(card.tags).toEqual(['monolog', 'server', 'log-record', 'channel:production']);
  });

  it('php artisan svc:test exits 0, says so, and its report arrives', async () => {
    const { code, output } = await php('laravel', ['artisan', 'svc:test'], bearer());
    expect(output).toBe('Svc: the test report arrived: new card "Svc test report".\n');
    expect(code).toBe(0);
    const card = await waitForCard(t.svc, 'Svc test report');
    expect(card).toMatchObject({ severity: 'minor', tags: ['svc:test'] });
    expect(card.variants[0]?.file_name).toBe('artisan');
  });

  it('php artisan svc:test without credentials exits 1 and says what to set', async () => {
    const { code, output } = await php(
      'laravel',
      ['artisan', 'svc:test'],
      userEnv({ SERVICE_URL: t.svc.url }),
    );
    expect(code).toBe(1);
    expect(output).toContain('set SERVICE_API_KEY, or SERVICE_KEY_ID and SERVICE_SIGNING_SECRET');
    expect(output).toContain('Svc: nothing was sent: the client is disabled');
  });

  it('a failing Artisan command is reported with the command in the title', async () => {
    const { code } = await php('laravel', ['artisan', 'orders:sync'], bearer());
    expect(code).toBe(1);
    const card = await waitForCard(
      t.svc,
      'RuntimeException: orders:sync failed: the warehouse API answered <n> (console orders:sync)',
    );
    expect(card).toMatchObject({ severity: 'major', priority: 'medium', occurrence_count: 1 });
    expect(card.tags).toEqual(['laravel', 'server', 'command-error']);
    expect(card.variants[0]).toMatchObject({
      file_name: 'routes/console.php',
      line_number: lineOf('laravel/routes/console.php', /throw new/),
    });
  });

  it('queue:work, a loop that never exits, delivers each failed job while it keeps running', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-laravel-queue-'));
    try {
      const env = {
        ...bearer(),
        DB_DATABASE: join(dir, 'db.sqlite'),
        QUEUE_CONNECTION: 'database',
      };
      writeFileSync(env.DB_DATABASE, '');
      expect((await php('laravel', ['artisan', 'migrate', '--force'], env)).code).toBe(0);
      const worker = spawnProcess('php', ['artisan', 'queue:work', '--sleep=1', '--tries=1'], {
        env,
        cwd: `${EXAMPLES}laravel`,
      });
      extra.push(worker);
      const { url, server } = await phpServe('laravel', env);
      t.app = server;
      const title =
        'RuntimeException: card declined for order <n> (queue boom) (queue App\\Jobs\\ChargeCard)';
      expect(await (await fetch(`${url}/queue/7`)).text()).toBe('queued');
      const first = await waitForCard(t.svc, title);
      expect(first).toMatchObject({ severity: 'major', priority: 'medium' });
      expect(first.tags).toEqual(['laravel', 'server', 'job-error']);
      expect(first.variants[0]).toMatchObject({
        file_name: 'app/Jobs/ChargeCard.php',
        line_number: lineOf('laravel/app/Jobs/ChargeCard.php', /throw new/),
      });
      expect(worker.child.exitCode).toBeNull();
      await fetch(`${url}/queue/8`);
      await waitForCard(t.svc, title, (card) => card.occurrence_count === 2);
      expect(worker.child.exitCode).toBeNull();
      expect(worker.output()).toMatch(
        /Failed: +App\\Jobs\\ChargeCard[\s\S]*Failed: +App\\Jobs\\ChargeCard/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
