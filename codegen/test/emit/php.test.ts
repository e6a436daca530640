// The emitted PHP: literals print as PHP reads them, every checked-in generated PHP file passes
// `php -l`, and the failure kinds both SDKs see are the same rows in the TypeScript and the PHP
// table (skipped with a printed reason when php is not installed).
import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAILURES } from '../../../runtime/src/generated/integrations.gen.ts';
import { phpLiteral, phpString } from '../../src/emit/php/printer.ts';
import { GENERATED_DIRS, REPO_ROOT } from '../../src/generate.ts';

const hasPhp = spawnSync('php', ['-v']).status === 0;
if (!hasPhp)
  console.log(
    'codegen: php -l of the generated PHP skipped: php is not on the PATH (Debian package php-cli)',
  );

describe('PHP literals', () => {
  it('quotes strings, prints arrays short, and floats where asked', () => {
    expect(phpString("it's a \\ path")).toBe("'it\\'s a \\\\ path'");
    expect(
      phpLiteral({ sampleRate: 1, range: [0, 1], n: 3 }, new Set(['sampleRate', 'range'])),
    ).toBe("['sampleRate' => 1.0, 'range' => [0.0, 1.0], 'n' => 3]");
    expect(phpLiteral([null, true, 'x'])).toBe("[null, true, 'x']");
    expect(phpLiteral(Object.fromEntries('abcdefghijkl'.split('').map((k) => [k, k])))).toMatch(
      /^\[\n {4}'a' => 'a',\n/,
    );
  });
});

describe.skipIf(!hasPhp)('generated PHP', () => {
  const files = GENERATED_DIRS.filter((d) => d.startsWith('php/')).flatMap((dir) =>
    readdirSync(join(REPO_ROOT, dir))
      .filter((name) => name.endsWith('.gen.php'))
      .map((name) => join(REPO_ROOT, dir, name)),
  );

  it('every file passes php -l', () => {
    expect(files.length).toBeGreaterThanOrEqual(11);
    for (const file of files) {
      expect(execFileSync('php', ['-l', file], { encoding: 'utf8' })).toContain('No syntax errors');
    }
  });
});

describe.skipIf(!hasPhp)('the failure table in both SDKs', () => {
  it('a kind both SDKs see has the same method, place and tags in integrations.gen.ts and Integrations.gen.php', () => {
    const autoload = join(REPO_ROOT, 'php/autoload.php');
    const php: Record<string, unknown> = JSON.parse(
      execFileSync(
        'php',
        ['-r', `require '${autoload}'; echo json_encode(Svc\\Generated\\Integrations::FAILURES);`],
        { encoding: 'utf8' },
      ),
    );
    const shared = Object.keys(FAILURES).filter((kind) => kind in php);
    expect(shared).toEqual(['server-error', 'uncaught-exception', 'client-error']);
    for (const kind of shared)
      expect(php[kind], kind).toEqual(FAILURES[kind as keyof typeof FAILURES]);
  });
});
