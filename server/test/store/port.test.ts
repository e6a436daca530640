import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { moduleReferences, sourceFiles } from '../../../testkit/src/structure.ts';
import { openStore } from '../../src/store/open.ts';

// The store port's shape, read from the sources: each engine is a folder of `src/store/` with an
// `engine.ts`, chosen by one line of `open.ts`; nothing outside an engine's folder imports from it
// (but that line), and its driver is imported in its folder only.
const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
const STORE = join(SRC, 'store');
const DRIVERS: Record<string, string> = { sqlite: 'better-sqlite3', pg: 'pg' };
const engines = readdirSync(STORE).filter((entry) => statSync(join(STORE, entry)).isDirectory());

describe('the store port', () => {
  it('has one folder per engine, each with an engine.ts chosen by one line of open.ts', () => {
    expect(engines.sort()).toEqual(['pg', 'sqlite']);
    const open = readFileSync(join(STORE, 'open.ts'), 'utf8');
    for (const engine of engines) {
      expect(statSync(join(STORE, engine, 'engine.ts')).isFile()).toBe(true);
      const lines = open.split('\n').filter((line) => line.includes(`'./${engine}/`));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`import('./${engine}/engine.ts')`);
    }
  });

  it("nothing outside an engine's folder imports from it or its driver, but that line", () => {
    const outside: string[] = [];
    for (const file of sourceFiles(SRC, ['.'])) {
      const home = engines.find((e) => file.startsWith(`${join(STORE, e)}/`));
      for (const specifier of moduleReferences(file)) {
        const target = specifier.startsWith('.') ? resolve(dirname(file), specifier) : undefined;
        for (const engine of engines) {
          if (engine === home) continue;
          const intoFolder = target?.startsWith(`${join(STORE, engine)}/`);
          const driver =
            specifier === DRIVERS[engine] || specifier.startsWith(`${DRIVERS[engine]}/`);
          const chosen = file === join(STORE, 'open.ts') && specifier === `./${engine}/engine.ts`;
          if ((intoFolder || driver) && !chosen)
            outside.push(`${relative(SRC, file)}: ${specifier}`);
        }
      }
    }
    expect(outside).toEqual([]);
  });

  it('a database URL no engine knows is refused, naming the schemes there are', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-port-'));
    try {
      await expect(
        openStore({
          databaseUrl: 'mysql://db/svc',
          dataDir,
          now: Date.now,
          plans: {} as never,
          variantCap: 20,
          projectQuotaShare: 0.8,
        }),
      ).rejects.toThrow('The database URL must start with postgres:// or postgresql://.');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("DESIGN.md's table of the port names every method of its five interfaces, and no other", () => {
    const design = readFileSync(join(SRC, '../../DESIGN.md'), 'utf8');
    const table = design.slice(design.indexOf('## The store port'));
    for (const [name, file] of Object.entries(PORTS)) {
      const row = table.split('\n').find((line) => line.startsWith(`| \`${name}\``));
      expect(row, `DESIGN.md has a row for ${name}`).toBeDefined();
      const listed = [...row!.split('|')[3]!.matchAll(/`(\w+)`(\?)?/g)].map(
        (m) => m[1] + (m[2] ?? ''),
      );
      expect(listed.sort(), `${name} in DESIGN.md`).toEqual(interfaceMembers(file, name).sort());
    }
  });
});

// The port's interfaces and their files in src/store/, as DESIGN.md's table lists them.
const PORTS: Record<string, string> = {
  Store: 'types.ts',
  BoardStore: 'board-types.ts',
  SourceMapStore: 'sourcemap-types.ts',
  AlertStore: 'alert-types.ts',
  Engine: 'engine.ts',
};

/** The members an interface declares, `?` after the optional ones. */
function interfaceMembers(file: string, name: string): string[] {
  const path = join(STORE, file);
  const source = ts.createSourceFile(
    path,
    readFileSync(path, 'utf8'),
    ts.ScriptTarget.Latest,
    true,
  );
  const declaration = source.statements.find(
    (s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === name,
  );
  if (!declaration) throw new Error(`${file} declares no interface ${name}`);
  return declaration.members.flatMap((member) =>
    member.name ? [member.name.getText(source) + (member.questionToken ? '?' : '')] : [],
  );
}
