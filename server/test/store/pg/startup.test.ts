import { afterAll, beforeAll, expect, it } from 'vitest';
import { spawnProcess } from '../../../../testkit/src/process.ts';
import { type RunningPostgres, startPostgres } from '../../../../testkit/src/postgres.ts';
import { CLI } from '../../helpers.ts';

// Black-box: the built `svc-server serve` started while its PostgreSQL is stopped (a host reboot
// where the service comes up first). It stays up, says so once, and serves once the database is
// started, with the schema migrated.
let postgres: RunningPostgres;
let databaseUrl: string;
beforeAll(async () => {
  postgres = await startPostgres();
  databaseUrl = await postgres.createDatabase();
});
afterAll(async () => {
  await postgres?.stop();
});

it('serve started before PostgreSQL waits for it, then serves (one line each way)', async () => {
  await postgres.halt('fast');
  const serve = spawnProcess(process.execPath, [
    CLI,
    'serve',
    '--port',
    '0',
    '--database-url',
    databaseUrl,
  ]);
  try {
    await serve.waitFor(/cannot be reached at start-up \(.*ECONNREFUSED.*\); retrying/, 20_000);
    await postgres.resume();
    const [, url] = await serve.waitFor(/listening on (http:\S+)/, 30_000);
    expect(serve.output()).toMatch(/the database answered after \d+ attempts \(\d+ s\)\n/);
    expect(serve.output().match(/cannot be reached/g)).toHaveLength(1);
    const ready = await fetch(`${url}/health/ready`);
    expect(ready.status).toBe(200);
    // The store answers: a request without credentials is the contract's 401, not a 503.
    const unauthenticated = await fetch(`${url}/api/v1/tasks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"title":"x","severity":"major","priority":"medium"}',
    });
    expect(unauthenticated.status).toBe(401);
    expect(serve.output()).not.toMatch(/\n\s+at /);
  } finally {
    serve.kill('SIGTERM');
    expect(await serve.exited).toBe(0);
  }
});
