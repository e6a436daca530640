// End to end in Node: compiled TypeScript -> the real @svc/runtime client (built dist/) -> the
// reference service. The cards must carry the .ts throw site and call site, not dist/ or the SDK.
import { rm } from 'node:fs/promises';
import { startTestService, type TestService } from '@svc/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildNodeFixture, type NodeFixture, runClient } from './node-fixture.ts';

let fixture: NodeFixture;
let service: TestService;

beforeAll(async () => {
  [fixture, service] = await Promise.all([buildNodeFixture(), startTestService()]);
}, 120_000);

afterAll(async () => {
  await service?.close();
  if (fixture) await rm(fixture.dir, { recursive: true, force: true });
});

describe('Node client end to end (reference service)', () => {
  it('cards carry the root-cause throw site and the call site in .ts', async () => {
    const flushed = await runClient(fixture, fixture.entries.esbuildExternal, {
      SVC_TEST_API_KEY: service.keys.apiKey,
      SERVICE_URL: service.url,
    });
    expect(flushed).toMatchObject({ sent: 2, failed: 0 });
    const cards = await service.cards();
    const pick = (title: string) => {
      const card = cards.find((c) => c.title === title);
      return card && { file_name: card.file_name, line_number: card.line_number };
    };
    expect(pick('GET /users failed')).toEqual({
      file_name: 'src/db.ts',
      line_number: await fixture.line('src/db.ts', 'throw-site'),
    });
    expect(pick('users page is slow')).toEqual({
      file_name: 'src/client-report.ts',
      line_number: await fixture.line('src/client-report.ts', 'client-call'),
    });
  });
});
