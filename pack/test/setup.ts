// Global setup of the pack project: every public package packed once and the tarballs installed
// into one fresh app (see ./app.ts), shared by every test file through `inject('fresh')`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { freshApp, PACKAGES, pack, type Packed } from './app.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The fresh app's directory, what was packed into it, and npm's EBADENGINE packages. */
    fresh: { app: string; packed: Packed[]; badEngines: string[] };
  }
}

export default async function setup(project: TestProject) {
  const timings: Record<string, number> = {};
  const t0 = Date.now();
  const dest = mkdtempSync(join(tmpdir(), 'svc-tarballs-'));
  let app: string | undefined;
  try {
    const packed: Packed[] = [];
    for (const dir of PACKAGES) packed.push(await pack(dir, dest));
    timings.pack = Date.now() - t0;
    const installed = await freshApp(packed);
    app = installed.app;
    timings.install = Date.now() - t0 - timings.pack;
    console.log(
      `[pack] npm pack ${timings.pack} ms, npm install into ${app} ${timings.install} ms`,
    );
    project.provide('fresh', { app, packed, badEngines: installed.badEngines });
  } catch (error) {
    rmSync(dest, { recursive: true, force: true });
    throw error;
  }
  return () => {
    if (app) rmSync(app, { recursive: true, force: true });
    rmSync(dest, { recursive: true, force: true });
  };
}
