// What the unit tests share: one reference service for the file (the runtime's shared client is
// made once per process, from the first request's settings), a real Hono app, and a stand-in for
// a Worker's execution context: an object with `waitUntil` that keeps what it is handed (workerd
// itself runs the apps of pack's cross-framework matrix).
import type { TestService } from '@svc/server/testing';

export interface StandInContext {
  waitUntil(promise: Promise<unknown>): void;
  passThroughOnException(): void;
  props: Record<string, never>;
  /** What was handed to `waitUntil`, settled (never rejects). */
  settled(): Promise<PromiseSettledResult<unknown>[]>;
}

/** A Worker's execution context, as far as Svc uses it. */
export function standInContext(): StandInContext {
  const tasks: Promise<unknown>[] = [];
  return {
    waitUntil(promise) {
      tasks.push(promise);
    },
    passThroughOnException() {},
    props: {},
    async settled() {
      let seen = 0;
      let results: PromiseSettledResult<unknown>[] = [];
      // A task may hand further tasks to waitUntil before it settles.
      while (seen !== tasks.length) {
        seen = tasks.length;
        results = await Promise.allSettled(tasks);
      }
      return results;
    },
  };
}

/** The bindings a Worker gets from its wrangler config for `svc`. */
export function bindings(svc: TestService): Record<string, string> {
  return {
    SERVICE_URL: svc.url,
    SERVICE_KEY_ID: svc.keys.keyId,
    SERVICE_SIGNING_SECRET: svc.keys.signingSecret,
    SERVICE_ENVIRONMENT: 'test',
    SERVICE_RELEASE: 'hono@1',
  };
}

/** The cards titled `title`. */
export async function cardsTitled(svc: TestService, title: string) {
  return (await svc.cards()).filter((card) => card.title === title);
}
