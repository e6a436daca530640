// examples/symfony, run as a user runs it on Debian 12's php-symfony-framework-bundle 5.4 (no
// Composer): served with `php -S 127.0.0.1:<port> -t examples/symfony/public`, configured only by
// SERVICE_URL and SERVICE_API_KEY (or SERVICE_KEY_ID + SERVICE_SIGNING_SECRET), against the
// reference service. `/boom` answers Symfony's usual 500 and its card arrives, with the title,
// severity, priority and tags `@svc/express` gives the same failure; two orders make one card
// titled by the route pattern; 404s make none; `bin/console svc:test` exits 0; a failing command is
// reported; a `messenger:consume` worker that never exits delivers each failed message's card while
// it keeps running. Every card is checked field by field, as the failure table says for its kind.
import { rmSync } from 'node:fs';
import { spawnProcess, type Spawned, useServiceAndApp } from '@svc/testkit';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
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

const skip = missingFor('symfony', [
  'php-symfony-framework-bundle',
  'php-symfony-messenger',
  'php-symfony-yaml',
  'php-symfony-dotenv',
  'php-monolog',
]);
if (skip) console.log(skip);

describe.skipIf(skip !== undefined)('examples/symfony', () => {
  const t = useServiceAndApp();
  const extra: Spawned[] = [];
  beforeAll(() => {
    // The prod container is compiled once into var/cache/prod; start from the bundle as it is now.
    rmSync(`${EXAMPLES}symfony/var/cache/prod`, { recursive: true, force: true });
  });
  afterEach(async () => {
    for (const p of extra.splice(0)) {
      p.kill('SIGKILL');
      await p.exited;
    }
  });
  const bearer = () => userEnv({ SERVICE_URL: t.svc.url, SERVICE_API_KEY: t.svc.keys.apiKey });
  const controller = 'symfony/src/Controller/DemoController.php';

  it('/boom: Symfony answers its 500 page and the card reaches the service as Express reports a server error', async () => {
    const { url, server } = await phpServe('symfony', bearer());
    t.app = server;
    const res = await fetch(`${url}/boom`);
    expect(res.status).toBe(500);
    expect(await res.text()).toContain('<title>An Error Occurred: Internal Server Error</title>');
    const express = asExpressReports(
      'symfony',
      { name: 'RuntimeException', message: 'boom: the checkout service is down' },
      { method: 'GET', route: '/boom' },
    );
    expect(express).toEqual({
      title: 'RuntimeException: boom: the checkout service is down (GET /boom)',
      severity: 'major',
      priority: 'medium',
      tags: ['symfony', 'server', 'server-error', 'method:GET'],
    });
    const card = await waitForCard(t.svc, express.title);
    expect(card).toMatchObject({
      severity: express.severity,
      priority: express.priority,
      occurrence_count: 1,
    });
    expect(card.tags).toEqual(['env:prod', ...express.tags]);
    expect(card.variants[0]).toMatchObject({
      file_name: 'src/Controller/DemoController.php',
      line_number: lineOf(controller, /throw new \\RuntimeException\('boom/),
    });
  });

  it('two orders make one card titled by the route pattern; 404s make none', async () => {
    const { url, server } = await phpServe('symfony', bearer());
    t.app = server;
    expect((await fetch(`${url}/no-such-page`)).status).toBe(404);
    expect((await fetch(`${url}/orders/abc`)).status).toBe(404);
    expect((await fetch(`${url}/orders/42`)).status).toBe(500);
    expect((await fetch(`${url}/orders/43`)).status).toBe(500);
    const express = asExpressReports(
      'symfony',
      { name: 'RuntimeException', message: 'order 42 has no lines' },
      { method: 'GET', route: '/orders/{id}' },
    );
    const card = await waitForCard(t.svc, express.title, (c) => c.occurrence_count === 2);
    expect(card.title).toBe('RuntimeException: order <n> has no lines (GET /orders/{id})');
    expect(card).toMatchObject({ severity: express.severity, priority: express.priority });
    expect(card.tags).toEqual(['env:prod', ...express.tags]);
    expect(card.variants[0]).toMatchObject({
      file_name: 'src/Controller/DemoController.php',
      line_number: lineOf(controller, /order \{\$id\} has no lines/),
    });
    expect((await t.svc.cards()).map((c) => c.title)).toEqual([express.title]);
  });

  it('signed requests and Monolog: /log makes one card at the line that logged', async () => {
    const env = userEnv({
      SERVICE_URL: t.svc.url,
      SERVICE_KEY_ID: t.svc.keys.keyId,
      SERVICE_SIGNING_SECRET: t.svc.keys.signingSecret,
    });
    const { url, server } = await phpServe('symfony', env);
    t.app = server;
    expect(await (await fetch(`${url}/log`)).text()).toBe('logged');
    const card = await waitForCard(t.svc, 'Payment provider timed out for order {order} (app log)');
    expect(card).toMatchObject({ severity: 'major', priority: 'medium', occurrence_count: 1 });
    expect(card.variants[0]).toMatchObject({
      file_name: 'src/Controller/DemoController.php',
      line_number: lineOf(controller, /->error\(/),
    });
    expect(card.tags).toEqual(['env:prod', 'monolog', 'server', 'log-record', 'channel:app']);
  });

  it('bin/console svc:test exits 0, says so, and its report arrives', async () => {
    const { code, output } = await php('symfony', ['bin/console', 'svc:test'], bearer());
    expect(output).toBe('Svc: the test report arrived: new card "Svc test report".\n');
    expect(code).toBe(0);
    const card = await waitForCard(t.svc, 'Svc test report');
    expect(card.variants[0]?.file_name).toBe('bin/console');
  });

  it('a failing command is reported with the command in the title', async () => {
    const { code } = await php('symfony', ['bin/console', 'app:sync-orders'], bearer());
    expect(code).toBe(1);
    const card = await waitForCard(
      t.svc,
      'RuntimeException: app:sync-orders failed: the warehouse API answered <n> (console app:sync-orders)',
    );
    expect(card).toMatchObject({ severity: 'major', priority: 'medium', occurrence_count: 1 });
    expect(card.tags).toEqual(['env:prod', 'symfony', 'server', 'command-error']);
    expect(card.variants[0]).toMatchObject({
      file_name: 'src/Command/SyncOrdersCommand.php',
      line_number: lineOf('symfony/src/Command/SyncOrdersCommand.php', /throw new/),
    });
  });

  it('messenger:consume, a loop that never exits, delivers each failed message while it keeps running', async () => {
    // The transport of .env (spool://var/spool): `php -S` shows real environment variables to
    // getenv() only, and Symfony's Dotenv fills $_SERVER from .env for those it does not see.
    const spool = `${EXAMPLES}symfony/var/spool`;
    rmSync(spool, { recursive: true, force: true });
    try {
      const env = bearer();
      const worker = spawnProcess('php', ['bin/console', 'messenger:consume', 'async', '-vv'], {
        env,
        cwd: `${EXAMPLES}symfony`,
      });
      extra.push(worker);
      const { url, server } = await phpServe('symfony', env);
      t.app = server;
      const title =
        'RuntimeException: card declined for order <n> (messenger boom) (queue App\\Message\\ChargeCard)';
      expect(await (await fetch(`${url}/orders/42/charge`)).text()).toBe('queued');
      const first = await waitForCard(t.svc, title);
      expect(first).toMatchObject({ severity: 'major', priority: 'medium' });
      expect(first.tags).toEqual(['env:prod', 'symfony', 'server', 'job-error']);
      expect(first.variants[0]).toMatchObject({
        file_name: 'src/MessageHandler/ChargeCardHandler.php',
        line_number: lineOf('symfony/src/MessageHandler/ChargeCardHandler.php', /throw new/),
      });
      expect(worker.child.exitCode).toBeNull();
      await fetch(`${url}/orders/43/charge`);
      await waitForCard(t.svc, title, (card) => card.occurrence_count === 2);
      expect(worker.child.exitCode).toBeNull();
    } finally {
      rmSync(spool, { recursive: true, force: true });
    }
  });
});
