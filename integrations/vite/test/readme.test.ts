import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// The README shows the files of examples/vite, which test/e2e builds and drives: they must be
// the same bytes. (Its vanilla setup is copied into a fresh app by pack/test/readmes.test.ts.)
const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');
const blocks = [...read('README.md').matchAll(/```tsx?\n([\s\S]*?)```/g)].map((m) => m[1]!);

describe('README "With React"', () => {
  it.each([
    ['vite.config.ts', '../../examples/vite/vite.config.ts'],
    ['src/main.tsx', '../../examples/vite/src/main.tsx'],
  ])('shows %s of examples/vite byte for byte', (name, path) => {
    const shown = blocks.filter((b) => b.startsWith(`// ${name}\n`));
    const example = read(path);
    expect(shown.map((b) => b.slice(`// ${name}\n`.length))).toContain(example);
  });
});
