// Global setup of the `next` project: a temp directory, outside the repository, where the first
// fresh-app test file creates the app that every fresh-app test file then shares (./create.ts).
// Cheap when only the unit tests run: nothing is created until a test file asks.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the shared create-next-app app lives (created on first use). */
    freshRoot: string;
  }
}

export default function setup(project: TestProject) {
  const root = mkdtempSync(join(tmpdir(), 'svc-next-fresh-'));
  project.provide('freshRoot', root);
  return () => rmSync(root, { recursive: true, force: true });
}
