import { fileURLToPath } from 'node:url';
import { spawnProcess, useServiceAndApp } from '@svc/testkit';
import { describe, expect, it } from 'vitest';

// Process handlers in a real Node process (test/fixtures/crash-app.mjs) against the real service.
const APP = fileURLToPath(new URL('../fixtures/crash-app.mjs', import.meta.url));

const t = useServiceAndApp();

function start(mode: string, nodeFlags: string[] = []) {
  t.app = spawnProcess(process.execPath, [...nodeFlags, APP], {
    env: {
      PATH: process.env.PATH,
      MODE: mode,
      SERVICE_KEY_ID: t.svc.keys.keyId,
      SERVICE_SIGNING_SECRET: t.svc.keys.signingSecret,
      SERVICE_URL: t.svc.url,
    },
  });
  return t.app;
}

describe('process handlers in a real process', () => {
  it('uncaught exception: reported and delivered, then Node still crashes with code 1', async () => {
    const child = start('uncaught');
    expect(await child.exited).toBe(1);
    expect(child.output()).toContain('TypeError: worker crashed');
    const cards = await t.svc.cards();
    expect(cards.map((c) => c.title)).toEqual(['TypeError: worker crashed (uncaught exception)']);
    expect(cards[0]).toMatchObject({ severity: 'critical', priority: 'high' });
    expect(cards[0]!.tags).toEqual(['express', 'server', 'uncaught-exception']);
  });

  it('unhandled rejection: reported and delivered, then the default crash (code 1)', async () => {
    const child = start('rejection');
    expect(await child.exited).toBe(1);
    expect(child.output()).toContain('RangeError: job rejected');
    const cards = await t.svc.cards();
    expect(cards.map((c) => c.title)).toEqual(['RangeError: job rejected (unhandled rejection)']);
  });

  it('host with its own SIGTERM handler: Svc flushes, never exits; the host shuts down itself', async () => {
    const child = start('own-sigterm');
    const [, base] = (await child.waitFor(/listening on (http:\/\/\S+)/)) as [string, string];
    await Promise.all([1, 2, 3, 4, 5].map((n) => fetch(`${base}/fail/${n}`)));
    child.kill('SIGTERM');
    expect(await child.exited).toBe(7); // the host's own exit code, not a signal death
    expect(child.output()).toContain('host shutdown done');
    const cards = await t.svc.cards();
    expect(cards.map((c) => [c.title, c.occurrence_count])).toEqual([
      ['Error: route failed (GET /fail/:n)', 5],
    ]);
  });

  // Node's `--unhandled-rejections` modes kept (Node's own lines: it prints the warning itself).
  const occurrences = (text: string, part: string) => text.split(part).length - 1;

  it('--unhandled-rejections warn (value apart from the flag, as Node accepts): reported, the process lives on', async () => {
    const child = start('rejection-ends', ['--unhandled-rejections', 'warn']);
    expect(await child.exited).toBe(0);
    expect(child.output()).toContain('still running');
    const cards = await t.svc.cards();
    expect(cards.map((c) => c.title)).toEqual(['RangeError: job rejected (unhandled rejection)']);
  });

  it('--unhandled-rejections=warn: Node warns once by itself, Svc adds no second warning', async () => {
    const child = start('rejection-ends', ['--unhandled-rejections=warn']);
    expect(await child.exited).toBe(0);
    expect(child.output()).toContain('UnhandledPromiseRejectionWarning: RangeError: job rejected');
    expect(occurrences(child.output(), 'RangeError: job rejected')).toBe(1);
  });

  it('--unhandled-rejections=strict: printed once, exit 1, one card', async () => {
    const child = start('rejection', ['--unhandled-rejections=strict']);
    expect(await child.exited).toBe(1);
    expect(occurrences(child.output(), 'RangeError: job rejected')).toBe(1);
    const cards = await t.svc.cards();
    expect(cards).toHaveLength(1);
    expect(cards[0]!.occurrence_count).toBe(1);
  });

  it("--unhandled-rejections=strict, host's own uncaughtException listener: it runs once, the process lives on", async () => {
    const child = start('host-uncaught', ['--unhandled-rejections=strict']);
    expect(await child.exited).toBe(0);
    expect(
      occurrences(child.output(), 'host saw unhandledRejection: RangeError: job rejected'),
    ).toBe(1);
    const cards = await t.svc.cards();
    expect(cards.map((c) => c.occurrence_count)).toEqual([1]);
  });

  it('host with a process.once SIGTERM handler: its slow shutdown ends it, not a re-raised signal', async () => {
    const child = start('once-sigterm');
    await child.waitFor(/listening on/);
    child.kill('SIGTERM');
    expect(await child.exited).toBe(7);
    expect(child.output()).toContain('host shutdown done');
  });

  it('a second uncaught exception while the first is flushed: Node printed only the first, exit 1', async () => {
    const child = start('uncaught-twice');
    expect(await child.exited).toBe(1);
    expect(child.output()).toContain('TypeError: worker crashed');
    expect(child.output()).not.toContain('TypeError: second crash');
  });

  it("a host uncaughtException listener is handed Node's error for a rejection with null, not null", async () => {
    const child = start('host-uncaught-null');
    expect(await child.exited).toBe(0);
    expect(child.output()).toContain(
      'host saw unhandledRejection: UnhandledPromiseRejection: This error originated',
    );
    expect(child.output()).toContain('the reason "null"');
    const cards = await t.svc.cards();
    expect(cards.map((c) => c.tags[2])).toEqual(['unhandled-rejection']);
  });

  it("an uncaught value that cannot be printed: Svc's handler does not throw, exit 1 as Node", async () => {
    const child = start('uncaught-unprintable');
    expect(await child.exited).toBe(1);
    expect(child.output()).not.toContain('cannot print');
    expect(await t.svc.cards()).toHaveLength(1);
  });
});
