// A small app built by esbuild (minified, split, with linked maps and `sourcesContent`), as a
// project outside this repository would build it: the folder the upload tests and the
// `svc-sourcemaps` command work on.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';

export const APP_FILES: Record<string, string> = {
  'src/main.ts': `import { checkOut } from './cart.ts';
document.querySelector('#buy')?.addEventListener('click', () => checkOut([]));
void import('./lazy.ts').then((m) => m.warm());
`,
  'src/cart.ts': `export function checkOut(items: string[]): void {
  if (items.length === 0) throw new TypeError(\`Cart \${Date.now()} is empty\`);
}
`,
  'src/lazy.ts': `export function warm(): number {
  return 42;
}
`,
};

/** Builds the app into `<project>/dist/assets` (ESM, split, minified); returns the project dir. */
export async function buildEsbuildApp(): Promise<{ project: string; done: () => void }> {
  const project = mkdtempSync(join(tmpdir(), 'svc-esbuild-app-'));
  for (const [path, text] of Object.entries(APP_FILES)) {
    mkdirSync(dirname(join(project, path)), { recursive: true });
    writeFileSync(join(project, path), text);
  }
  await build({
    absWorkingDir: project,
    entryPoints: ['src/main.ts'],
    outdir: 'dist/assets',
    bundle: true,
    splitting: true,
    format: 'esm',
    minify: true,
    sourcemap: 'linked',
    entryNames: '[name]-[hash]',
    chunkNames: '[name]-[hash]',
    logLevel: 'silent',
  });
  return { project, done: () => rmSync(project, { recursive: true, force: true }) };
}
