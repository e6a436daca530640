// The exit guarantees of every server integration, on the app the matrix built for it: a new
// server process of the same build against three services (the reference service up, a port that
// refuses, a server that accepts and never answers), one failing request, SIGTERM 0.2 s later.
// Up: the report arrives. Refusing or silent: the process is gone within `timeoutMs` (5 s, the
// default) + 1 s of the signal, and says so in exactly one line naming the true count (1) and
// the time it waited. The time is measured until the whole process group is gone (`npm start`
// runs `next start`, which runs the server).
import { createServer, type Server, type Socket } from 'node:net';
import { keptOffline, type Spawned } from '@svc/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningApp } from './scenarios.ts';
import { freePort, openPage, service, type TestService, until } from './shared.ts';

/** The runtime's default `timeoutMs`: the most a down service may hold the process, + 1 s. */
const TIMEOUT_MS = 5000;

export type ServiceState = 'up' | 'refusing' | 'silent';

/** A started server of the app's build: the process (its group) and its origin. */
export interface Started {
  server: Spawned;
  base: string;
}

/** Accepts connections and never answers, until closed. */
async function silentServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}

/** Resolves once no process of `spawned`'s group is left. */
async function groupGone(spawned: Spawned): Promise<void> {
  const group = spawned.child.pid as number;
  for (;;) {
    try {
      process.kill(-group, 0);
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** The `[svc]` lines of the runtime (the integrations' own debug lines are `[svc/...]`). */
const svcLines = (output: string) => output.split('\n').filter((l) => l.startsWith('[svc] '));

/**
 * Registers the exit cases of a server app: `start(serviceUrl, svc)` starts a new server of the
 * app's build against `serviceUrl` with `svc`'s keys; `fail` is a path whose request reports one
 * error titled `title`; `exitsWith`, where given, is how the server process ends in every case
 * (its code, or the signal that killed it), what it does without Svc.
 */
export function exitScenarios(
  framework: string,
  start: (serviceUrl: string, svc: TestService) => Promise<Started>,
  failing: { path: string; title: string },
  exitsWith?: number | NodeJS.Signals,
): void {
  describe(`${framework}: a report 0.2 s before SIGTERM`, () => {
    let svc: TestService;
    let silent: Awaited<ReturnType<typeof silentServer>>;
    beforeAll(async () => {
      svc = await service(); // a service of its own: the app's matrix service keeps its counts
      silent = await silentServer();
    });
    afterAll(async () => {
      await silent?.close();
      await svc?.close();
    });

    const address: Record<ServiceState, () => Promise<string>> = {
      up: async () => svc.url,
      refusing: async () => `http://127.0.0.1:${await freePort()}`,
      silent: async () => silent.url,
    };

    it.each(['up', 'refusing', 'silent'] as const)('the service %s', async (state) => {
      const url = await address[state]();
      const { server, base } = await start(url, svc);
      try {
        expect((await fetch(base + failing.path)).status).toBe(500);
        await new Promise((r) => setTimeout(r, 200));
        const signalled = Date.now();
        server.kill('SIGTERM');
        await groupGone(server);
        const heldMs = Date.now() - signalled;
        const lines = svcLines(server.output());
        console.log(`[matrix ${framework}] ${state}: gone ${heldMs} ms after SIGTERM`, lines);
        expect(heldMs).toBeLessThan(TIMEOUT_MS + 1000);
        if (exitsWith !== undefined) expect(await server.exited).toBe(exitsWith);
        if (state === 'up') {
          const cards = await until(svc.cards, (all) => all.some((c) => c.title === failing.title));
          expect(cards.find((c) => c.title === failing.title)?.occurrence_count).toBe(1);
          expect(lines).toEqual([]);
          return;
        }
        expect(lines).toHaveLength(1);
        const m =
          /^\[svc\] (\d+) report\(s\) not delivered before exit: (\S+), (.+); waited (\d+) ms\./.exec(
            lines[0]!,
          );
        expect(m, lines[0]).not.toBeNull();
        expect(Number(m![1])).toBe(1);
        expect(m![2]).toBe(`${url}/api/v1/tasks`);
        expect(m![3]).toBe(state === 'refusing' ? 'connection refused' : 'no answer in time');
        expect(Number(m![4])).toBeLessThanOrEqual(heldMs);
      } finally {
        server.kill('SIGKILL');
      }
    });
  });
}

/**
 * The exit guarantees of a browser app (`app()` running against its service), in Chromium: a
 * report made 0.2 s before the page goes (a navigation) arrives when the service is up, sent with
 * keepalive; the page's end is never held, whatever the service does; a report whose delivery met
 * a refusing or silent service while the page was open is kept, and arrives once after the next
 * load when the service answers again. Refusing and silent are the service's requests aborted or
 * left unanswered by the browser (the address is in the build).
 */
export function browserExitScenarios(
  app: () => RunningApp,
  failing: { path: string; button: string; title: string },
): void {
  describe('a report 0.2 s before the page goes, and while the service cannot be reached', () => {
    const count = async () =>
      (await app().svc.cards()).find((c) => c.title === failing.title)?.occurrence_count ?? 0;

    it.each(['up', 'refusing', 'silent'] as const)('the service %s', async (state) => {
      const { page } = await openPage(app().base + failing.path);
      app().pages.push(page);
      const service = `${app().svc.url}/`;
      if (state !== 'up')
        await page.route(
          (url) => url.href.startsWith(service),
          (route) => (state === 'refusing' ? route.abort('connectionrefused') : undefined),
        );
      const before = await count();
      await page.click(failing.button);
      await new Promise((r) => setTimeout(r, 200));
      const leaving = Date.now();
      await page.goto('about:blank');
      const heldMs = Date.now() - leaving;
      console.log(`[matrix browser] ${state}: the page went in ${heldMs} ms`);
      expect(heldMs).toBeLessThan(1000); // keepalive requests never hold a navigation
      if (state === 'up') {
        await until(count, (n) => n === before + 1);
        expect(await count()).toBe(before + 1);
        return;
      }
      // While the page is open, the delivery meets the failure and the report is kept.
      await page.goto(app().base + failing.path);
      await page.click(failing.button);
      await until(
        () => keptOffline(page),
        (n) => n >= 1,
        60_000,
      );
      await page.unrouteAll({ behavior: 'ignoreErrors' }); // the service answers again
      await page.reload();
      await until(count, (n) => n >= before + 1);
      await new Promise((r) => setTimeout(r, 2000));
      // The kept report arrives once. The first one, refused after its page went, is lost or (if
      // the refusal came while the page was still there) kept too: never sent twice.
      expect(await count()).toBeGreaterThanOrEqual(before + 1);
      expect(await count()).toBeLessThanOrEqual(before + 2);
      expect(await keptOffline(page)).toBe(0);
    });
  });
}
