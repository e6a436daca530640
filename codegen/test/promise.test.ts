// "Change the spec, regenerate, and the client follows": each case copies the spec, changes one
// rule, regenerates into a throw-away copy of runtime/, server/ and php/ (./promise/workspace.ts)
// and shows the client, the integrations (TypeScript and PHP) or the reference service of that
// copy behaving by the new rule, with no hand edit. Clients post to a recording server on
// 127.0.0.1; service cases start the copy's service; the PHP side runs a script with `php`.
import { execFileSync, spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../src/generate.ts';
import { rows, type Workspace, workspace } from './promise/workspace.ts';

type Runtime = typeof import('../../runtime/src/index.node.ts');
type Testing = typeof import('../../server/src/testing.ts');
type Kit = typeof import('../../runtime/src/kit/index.ts');

/** A server that answers every request with `status` and records the JSON bodies. */
let server: Server;
let url = '';
let status = 201;
const bodies: Record<string, unknown>[] = [];
beforeAll(async () => {
  server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk) => (text += chunk));
    req.on('end', () => {
      bodies.push(JSON.parse(text));
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(status < 300 ? { deduplicated: false } : { message: 'busy' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** One client of `runtime`, posting to the recording server; retries wait no time. */
function clientOf(runtime: Runtime) {
  bodies.length = 0;
  return runtime.createClient(
    { apiKey: 'svc_pub_promise', maxRetries: 3 },
    { serviceUrl: url, sleep: async () => undefined },
  );
}

const repoRuntime = (): Promise<Runtime> => import('../../runtime/src/index.node.ts');
const spaces: Workspace[] = [];
afterAll(() => {
  for (const space of spaces) space.remove();
});
async function changed(change: Parameters<typeof workspace>[0]): Promise<Workspace> {
  const space = await workspace(change);
  spaces.push(space);
  return space;
}

describe('the client follows the spec', () => {
  it('503 dropped from the retried statuses: one attempt instead of 1 + maxRetries', async () => {
    const space = await changed((spec) => {
      const mapping = rows(spec, 'x-svc-error-mapping');
      const serverErrors = mapping.findIndex((row) => String(row.match).includes('5xx'));
      mapping.splice(serverErrors, 0, {
        match: [503],
        class: 'SvcServerError',
        'php-class': 'ServerException',
        carries: ['message'],
        retried: false,
        description: 'The service is unavailable: not retried.',
      });
    });
    expect(space.changed).toContain('runtime/src/generated/retry.gen.ts');
    status = 503;
    const before = clientOf(await repoRuntime());
    before.major('Checkout failed');
    expect(await before.flush()).toMatchObject({ failed: 1 });
    expect(bodies).toHaveLength(4);
    const after = clientOf(await space.load<Runtime>('runtime/src/index.node.ts'));
    after.major('Checkout failed');
    expect(await after.flush()).toMatchObject({ failed: 1 });
    expect(bodies).toHaveLength(1);
    status = 500; // other 5xx are still retried
    const other = clientOf(await space.load<Runtime>('runtime/src/index.node.ts'));
    other.major('Checkout failed');
    await other.flush();
    expect(bodies).toHaveLength(4);
    status = 201;
  });

  it('a renamed reporting method: the client has the new name, with the same severity and priority', async () => {
    const space = await changed((spec) => {
      const minor = rows(spec, 'x-svc-method-table').find((row) => row.severity === 'minor')!;
      minor.high = ['minorUrgent'];
    });
    const client = clientOf(
      await space.load<Runtime>('runtime/src/index.node.ts'),
    ) as unknown as Record<string, (title: string) => void> & { flush(): Promise<unknown> };
    expect(client.minorHigh).toBeUndefined();
    client.minorUrgent!('Disk almost full');
    await client.flush();
    expect(bodies).toMatchObject([
      { severity: 'minor', priority: 'high', title: 'Disk almost full' },
    ]);
    expect(space.changed).toContain('php/src/Generated/ReportingMethods.gen.php');
  });

  it('a shorter title limit: the client clamps titles to it', async () => {
    const space = await changed((spec) => {
      const schemas = (
        spec.components as {
          schemas: Record<string, { properties: Record<string, { maxLength?: number }> }>;
        }
      ).schemas;
      schemas.TaskReport!.properties.title!.maxLength = 40;
    });
    const title = 'T'.repeat(100);
    const before = clientOf(await repoRuntime());
    before.major(title);
    await before.flush();
    expect(bodies[0]!.title).toBe(title);
    const after = clientOf(await space.load<Runtime>('runtime/src/index.node.ts'));
    after.major(title);
    await after.flush();
    expect(bodies[0]!.title).toBe('T'.repeat(40));
  });
});

const hasPhp = spawnSync('php', ['-v']).status === 0;
if (!hasPhp)
  console.log(
    'codegen: the PHP side of "the integrations follow the spec" skipped: php is not on the PATH (Debian package php-cli)',
  );

/**
 * What the PHP integrations of `root` send for a server error in Laravel and for an error log
 * record through the Monolog handler: the reports of a `FakeClient` (the real client's payload,
 * nothing sent), by `php`.
 */
function phpReports(
  root: string,
): { severity: string; priority: string; title: string; tags: string[] }[] {
  const script = String.raw`
    require ${JSON.stringify(join(root, 'php/autoload.php'))};
    $fake = Svc\Testing\FakeClient::create();
    (new Svc\Integration\ExceptionReporter($fake, 'laravel'))->report(new RuntimeException('order 42 missing'), 'server-error', ['method' => 'GET', 'route' => '/orders/{id}']);
    $report = Svc\Integration\Failures::report('log-record', 'monolog', 'Payment failed', ['channel' => 'app'], 'error');
    $fake->{$report->method()}($report->title, null, $report->tags);
    echo json_encode(array_map(static fn ($r) => ['severity' => $r->severity()->value, 'priority' => $r->priority()->value, 'title' => $r->title(), 'tags' => $r->tags()], $fake->reports()));
  `;
  return JSON.parse(execFileSync('php', ['-r', script], { encoding: 'utf8' }));
}

describe('the integrations follow the spec', () => {
  it('a browser error and a server error made critical and high, an error log moderate, and a new public prefix: the kit every integration reports through and the PHP integrations follow', async () => {
    const space = await changed((spec) => {
      const table = spec['x-svc-integrations'] as {
        failures: Record<string, unknown>[];
        frameworks: Record<string, unknown>[];
      };
      for (const kind of ['browser-error', 'server-error'])
        Object.assign(
          table.failures.find((row) => row.kind === kind)!,
          {
            severity: 'critical',
            priority: 'high',
          },
        );
      const log = table.failures.find((row) => row.kind === 'log-record')!;
      Object.assign(
        (log.levels as Record<string, unknown>[]).find((l) => l.level === 'error')!,
        {
          severity: 'moderate',
          priority: 'high',
        },
      );
      table.frameworks.find((row) => row.name === 'vite')!['public-prefix'] = 'PUBLIC_';
    });
    expect(space.changed).toContain('runtime/src/generated/integrations.gen.ts');
    expect(space.changed).toContain('php/src/Generated/Integrations.gen.php');
    const error = new TypeError('x is not a function');
    const before = (await import('../../runtime/src/kit/index.ts')) as Kit;
    expect(before.failureReport('browser-error', 'vite', error).method).toBe('majorMedium');
    const kit = await space.load<Kit>('runtime/src/kit/index.ts');
    expect(kit.failureReport('browser-error', 'vite', error)).toEqual({
      method: 'criticalHigh',
      title: 'TypeError: x is not a function (browser)',
      tags: ['vite', 'browser', 'browser-error'],
    });
    expect(kit.publicVariable('vite', 'apiKey')).toBe('PUBLIC_SERVICE_API_KEY');
    expect(kit.readBrowserSettings({ PUBLIC_SERVICE_API_KEY: 'svc_pub_x' }, 'vite')).toEqual({
      apiKey: 'svc_pub_x',
    });
    const express = kit.failureReport('server-error', 'express', new Error('order 42 missing'), {
      method: 'GET',
      route: '/orders/:id',
    });
    expect(express.method).toBe('criticalHigh');
    if (!hasPhp) return;
    const repoReports = phpReports(REPO_ROOT);
    expect(repoReports.map((r) => [r.severity, r.priority])).toEqual([
      ['major', 'medium'],
      ['major', 'medium'],
    ]);
    expect(phpReports(space.root)).toEqual([
      {
        severity: 'critical',
        priority: 'high',
        title: 'RuntimeException: order <n> missing (GET /orders/{id})',
        tags: ['laravel', 'server', 'server-error', 'method:GET'],
      },
      {
        severity: 'moderate',
        priority: 'high',
        title: 'Payment failed (app log)',
        tags: ['monolog', 'server', 'log-record', 'channel:app'],
      },
    ]);
  });
});

describe('the reference service follows the spec', () => {
  it("a plan's burst limit: the 4th report of a minute is refused when the Team limit is 3", async () => {
    const space = await changed((spec) => {
      (spec['x-svc-plans'] as Record<string, { burstPerMinute: number }>).team!.burstPerMinute = 3;
    });
    const { startTestService } = await space.load<Testing>('server/src/testing.ts');
    const service = await startTestService();
    try {
      const answers: Response[] = [];
      for (let i = 0; i < 4; i++)
        answers.push(
          await fetch(`${service.url}/api/v1/tasks`, {
            method: 'POST',
            headers: {
              authorization: `Bearer ${service.keys.apiKey}`,
              'content-type': 'application/json',
            },
            body: JSON.stringify({ severity: 'major', title: `Burst ${i}`, tags: [] }),
          }),
        );
      expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201, 429]);
      expect(answers[0]!.headers.get('x-ratelimit-limit')).toBe('3');
    } finally {
      await service.close();
    }
  });

  it('a warning threshold: the first warning e-mail comes at the new share of the quota', async () => {
    const space = await changed((copy) => {
      const warnings = copy['x-svc-quota-warnings'] as { thresholds: number[] };
      warnings.thresholds[0] = 1; // 1 % of the quota
      (copy['x-svc-plans'] as Record<string, { dailyEvents: number }>).team!.dailyEvents = 100;
    });
    expect(space.changed).toContain('server/src/generated/limits.gen.ts');
    const { startTestService } = await space.load<Testing>('server/src/testing.ts');
    const service = await startTestService();
    try {
      const answer = await fetch(`${service.url}/api/v1/tasks`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${service.keys.apiKey}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ severity: 'major', title: 'First event of the day', tags: [] }),
      });
      expect(answer.status).toBe(201);
      // One event of a 100-event quota is 1 %: the changed first threshold, and only it.
      expect(await service.admin.listMail(service.accountId)).toHaveLength(1);
    } finally {
      await service.close();
    }
  });
});
