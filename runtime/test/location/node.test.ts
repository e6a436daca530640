// Real stacks from compiled TypeScript, run in child processes (no test runner source maps in the way).
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildNodeFixture, type NodeFixture, runFixture } from './node-fixture.ts';

let fixture: NodeFixture;
const lines: Record<string, number> = {};

beforeAll(async () => {
  fixture = await buildNodeFixture();
  lines.throw = await fixture.line('src/db.ts', 'throw-site');
  lines.call = await fixture.line('src/report.ts', 'call-site');
  lines.dep = await fixture.line('deps/dep-lib/index.cjs', 'dep-call');
  lines.depThrow = await fixture.line('deps/dep-lib/index.cjs', 'dep-throw');
});

afterAll(async () => {
  if (fixture) await rm(fixture.dir, { recursive: true, force: true });
});

describe.each(['tsc', 'esbuildInline', 'esbuildExternal'] as const)('Node, %s output', (build) => {
  let out: Record<string, unknown>;
  beforeAll(async () => {
    out = await runFixture(fixture, fixture.entries[build], fixture.dir);
  });

  it('reports the root cause of a two-level cause chain at its .ts throw site', () => {
    expect(out.thrown).toEqual({ file_name: 'src/db.ts', line_number: lines.throw });
    expect(out.firstIsPromise).toBe(true); // cold cache: the map is read asynchronously
  });

  it('answers synchronously once the map is cached', () => {
    expect(out.warmIsPromise).toBe(false);
    expect(out.warm).toEqual(out.thrown);
  });

  it('reports the reporting call site in .ts for a non-error description', () => {
    expect(out.callSite).toEqual({ file_name: 'src/report.ts', line_number: lines.call });
  });

  it('reports a call from inside node_modules as is', () => {
    expect(out.dependency).toEqual({
      file_name: 'node_modules/dep-lib/index.cjs',
      line_number: lines.dep,
    });
  });

  it('reports a throw site inside node_modules as is', () => {
    expect(out.dependencyThrow).toEqual({
      file_name: 'node_modules/dep-lib/index.cjs',
      line_number: lines.depThrow,
    });
  });

  it('honours sourceMaps: false, lineNumbers: false and captureLocation: false', () => {
    const compiled = fixture.entries[build].slice(fixture.dir.length + 1);
    const noMaps = out.noMaps as { file_name: string; line_number: number };
    expect(noMaps.file_name).toBe(build === 'tsc' ? 'dist/tsc/db.js' : compiled);
    expect(noMaps.line_number).not.toBe(lines.throw);
    expect(out.noLines).toEqual({ file_name: 'src/db.ts' });
    expect(out.off).toBeNull();
  });
});

describe('Node, project root', () => {
  it('gives the same project-relative paths when run from another working directory', async () => {
    const elsewhere = join(tmpdir(), 'svc-location-elsewhere');
    const out = await runFixture(fixture, fixture.entries.tsc, elsewhere);
    expect(out.cwd).toBe(elsewhere);
    expect(out.thrown).toEqual({ file_name: 'src/db.ts', line_number: lines.throw });
    expect(out.callSite).toEqual({ file_name: 'src/report.ts', line_number: lines.call });
    expect(JSON.stringify(out)).not.toContain(fixture.dir);
  });
});
