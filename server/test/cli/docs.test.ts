import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { USAGE } from '../../src/cli/main.ts';

// The CLI reference in server/docs/cli.md is `svc-server help` as the CLI prints it.
it('docs/cli.md holds the help the CLI prints', () => {
  const doc = readFileSync(new URL('../../docs/cli.md', import.meta.url), 'utf8');
  const block = /```text\n([\s\S]*?)```/.exec(doc)?.[1];
  expect(block).toBe(USAGE);
});
