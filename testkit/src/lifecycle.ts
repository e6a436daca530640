import { startTestService } from '@svc/server/testing';
import { afterEach, beforeEach } from 'vitest';
import type { Spawned } from './process.ts';

export type TestService = Awaited<ReturnType<typeof startTestService>>;

export interface ServiceAndApp {
  /** A fresh reference service (temp data dir, Team plan, keys ready), started before each test. */
  svc: TestService;
  /** The app process a test starts; killed (SIGKILL) after each test. */
  app: Spawned | undefined;
}

/** Registers the hooks that give each test its own reference service and clean up its app process. */
export function useServiceAndApp(): ServiceAndApp {
  const t = { app: undefined } as ServiceAndApp;
  beforeEach(async () => {
    t.svc = await startTestService();
  });
  afterEach(async () => {
    t.app?.kill('SIGKILL');
    await t.app?.exited;
    t.app = undefined;
    await t.svc.close();
  });
  return t;
}
