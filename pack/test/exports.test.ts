// Every `exports` subpath of the packed packages, loaded in plain Node from the fresh app
// (see ./setup.ts).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { run } from './app.ts';

const { app, packed } = inject('fresh');

/** Export conditions found under one `exports` entry (nested conditions included). */
function conditions(entry: unknown): Set<string> {
  const found = new Set<string>();
  const walk = (v: unknown) => {
    if (typeof v === 'string') found.add('default');
    else if (v && typeof v === 'object')
      for (const [k, sub] of Object.entries(v)) {
        found.add(k);
        if (typeof sub !== 'string') walk(sub);
      }
  };
  walk(entry);
  return found;
}

describe('every exports subpath in plain Node', () => {
  it('loads with import(), and with require() where a require condition is declared', async () => {
    const cases: [string, string][] = [];
    for (const p of packed)
      for (const [sub, entry] of Object.entries(p.manifest.exports as Record<string, unknown>)) {
        const spec = sub === '.' ? p.name : `${p.name}/${sub.slice(2)}`;
        const found = conditions(entry);
        if (found.has('import') || found.has('default')) cases.push([spec, 'import']);
        if (found.has('require')) cases.push([spec, 'require']);
      }
    writeFileSync(
      join(app, 'load.mjs'),
      `import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const out = [];
for (const [spec, how] of ${JSON.stringify(cases)}) {
  try {
    const mod =
      how === 'require'
        ? require(spec)
        : await import(spec, spec.endsWith('.json') ? { with: { type: 'json' } } : undefined);
    out.push([spec, how, Object.keys(mod).length > 0 ? 'ok' : 'empty']);
  } catch (error) {
    out.push([spec, how, String(error?.message ?? error).split('\\n')[0]]);
  }
}
console.log(JSON.stringify(out));
`,
    );
    const { stdout } = await run(process.execPath, ['load.mjs'], { cwd: app });
    const results = JSON.parse(stdout.trim().split('\n').pop()!) as [string, string, string][];
    console.log(
      `[pack] ${results.length} subpath loads: ${results.map((r) => `${r[0]} ${r[1]}`).join(', ')}`,
    );
    expect(results.filter((r) => r[2] !== 'ok')).toEqual([]);
    expect(results).toHaveLength(cases.length);
    // Among them the ones that failed before: @svc/next in plain Node ESM (next/server.js), and
    // the integrations' shared helpers, which every integration package imports.
    expect(cases).toEqual(
      expect.arrayContaining([
        ['@svc/next', 'import'],
        ['@svc/next', 'require'],
        ['@svc/runtime/kit', 'import'],
        ['@svc/runtime/kit', 'require'],
        ['@svc/runtime/testing', 'import'],
        ['@svc/runtime/testing', 'require'],
        ['@svc/runtime/sourcemaps', 'import'],
        ['@svc/runtime/sourcemaps', 'require'],
      ]),
    );
  });
});
