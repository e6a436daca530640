import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { stripMaps, withoutMapComment } from '../../src/sourcemaps/strip.ts';

it('removes whole-line map comments only; strings holding the text and debug IDs stay', () => {
  const code =
    'const s = "//# sourceMappingURL=in-a-string.map";\nrun();\n//# debugId=8f1b6a52-2c3e-4bd8-9d5e-0a4c6f3b1e27\n//# sourceMappingURL=index.js.map';
  expect(withoutMapComment(code)).toBe(
    'const s = "//# sourceMappingURL=in-a-string.map";\nrun();\n//# debugId=8f1b6a52-2c3e-4bd8-9d5e-0a4c6f3b1e27',
  );
  expect(
    withoutMapComment('a{}\n/*# sourceMappingURL=data:application/json;base64,e30= */\n'),
  ).toBe('a{}\n');
  expect(withoutMapComment('x();\n//@ sourceMappingURL=old.map')).toBe('x();');
});

it('stripMaps rewrites the commented files and deletes the map files', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-strip-'));
  try {
    const chunk = join(dir, 'a.js');
    writeFileSync(chunk, 'a();\n//# sourceMappingURL=a.js.map\n');
    writeFileSync(`${chunk}.map`, '{}');
    expect(await stripMaps([chunk], [`${chunk}.map`])).toBe(1);
    expect(readFileSync(chunk, 'utf8')).toBe('a();\n');
    expect(existsSync(`${chunk}.map`)).toBe(false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
