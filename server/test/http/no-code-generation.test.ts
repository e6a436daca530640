import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { spawnProcess, type Spawned } from '../../../testkit/src/process.ts';
import { report, SOURCEMAPS, signHeaders, TASKS } from '../helpers.ts';

// The service in a host that forbids building code from strings (`node
// --disallow-code-generation-from-strings`, as hardened deployments run): it loads, accepts a
// report, and answers a bad one with its field errors (the request schemas are interpreted, not
// compiled: src/core/schema-check.ts), as does the board and a source-map upload. The built
// service in a real process.
const SERVE = fileURLToPath(new URL('../fixtures/serve.mjs', import.meta.url));
let proc: Spawned;
let info: { url: string; keys: { apiKey: string; keyId: string; signingSecret: string } };

beforeAll(async () => {
  proc = spawnProcess(process.execPath, [
    '--disallow-code-generation-from-strings',
    SERVE,
    JSON.stringify({ board: true }),
  ]);
  info = JSON.parse((await proc.waitFor(/READY (.+)\n/, 30_000))[1]!);
});
afterAll(async () => {
  proc?.kill('SIGTERM');
  await proc?.exited;
});

const post = (path: string, body: string) =>
  fetch(info.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${info.keys.apiKey}` },
    body,
  });

it('accepts a report and answers a bad one with its field errors', async () => {
  expect((await post(TASKS, report({ title: 'Under the flag' }))).status).toBe(201);
  const bad = await post(TASKS, JSON.stringify({ severity: 'fatal', title: 'x'.repeat(300) }));
  expect(bad.status).toBe(422);
  expect(((await bad.json()) as { errors: Record<string, string[]> }).errors).toEqual({
    severity: ['The severity field must be equal to one of the allowed values.'],
    title: ['The title field must NOT have more than 255 characters.'],
  });
});

it('routes as always: the board, a route with parameters, an unknown path; an upload is checked', async () => {
  expect((await fetch(`${info.url}/board/login`)).status).toBe(200);
  // A card's page (two route parameters) asks for a sign-in; an unknown path is a JSON 404.
  const card = await fetch(`${info.url}/board/projects/1/cards/1`, { redirect: 'manual' });
  expect([302, 303, 401]).toContain(card.status);
  const unknown = await fetch(`${info.url}/api/v1/nothing-here`);
  expect(unknown.status).toBe(404);
  expect(await unknown.json()).toHaveProperty('message');
  const body = JSON.stringify({ release: '', path: '/x.js', map: { version: 3 } });
  const upload = await fetch(info.url + SOURCEMAPS, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...signHeaders(
        body,
        info.keys.signingSecret,
        info.keys.keyId,
        Math.floor(Date.now() / 1000),
        SOURCEMAPS,
      ),
    },
    body,
  });
  expect(upload.status).toBe(422);
  expect(((await upload.json()) as { errors: Record<string, string[]> }).errors).toMatchObject({
    release: ['The release field must NOT have fewer than 1 characters.'],
    path: [expect.stringContaining('must match pattern')],
  });
  expect(proc.output()).not.toMatch(/EvalError|Code generation from strings/);
});
