// The emitted runtime surface typechecks under the repo's strict settings, and a consumer that
// misuses it does not (so this test can fail). Uses ts-morph's compiler in memory.
import { readFile } from 'node:fs/promises';
import { Project, ts } from 'ts-morph';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Artifact } from '../../src/emit/common.ts';
import { generate, REPO_ROOT } from '../../src/generate.ts';
import { FIXTURE_SPEC } from '../helpers.ts';

const CONSUMER = `
import { REPORTING_METHODS, REPORTING_METHOD_NAMES, type ReportingMethods, type ReportingMethodName } from './methods.gen.ts';
import { errorFromResponse, SvcError, SvcRateLimitError, SvcValidationError } from './errors.gen.ts';
import { LIMITS } from './limits.gen.ts';
import { SERVICE_URL, TASKS_PATH } from './service.gen.ts';
import type { paths } from './wire.gen.ts';

const calls: string[] = [];
const client = Object.fromEntries(
  REPORTING_METHOD_NAMES.map((name: ReportingMethodName) => [
    name,
    (title: string) => { calls.push(name + title); },
  ]),
) as unknown as ReportingMethods;
client.critical('t');
client.minorHigh('t', new Error('x'), ['a']);
client.majorLow('t', 'd', 'a,b');
const e: SvcError = errorFromResponse(429, { message: 'slow' }, { get: () => '3' });
if (e instanceof SvcRateLimitError) { const s: number | undefined = e.retryAfter; void s; }
if (e instanceof SvcValidationError) { const f: Record<string, string[]> = e.fieldErrors; void f; }
const url: string = SERVICE_URL + TASKS_PATH;
const max: 255 = LIMITS.titleMax;
type Body = paths['/api/v1/tasks']['post']['requestBody'];
const body: NonNullable<Body>['content']['application/json'] = { severity: 'major', title: 't', tags: [] };
void url; void max; void body;
`;

function diagnostics(files: Artifact[], consumer: string): string[] {
  const project = new Project({
    useInMemoryFileSystem: true,
    compilerOptions: {
      strict: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      allowImportingTsExtensions: true,
      noEmit: true,
      noImplicitOverride: true,
      isolatedModules: true,
      lib: ['lib.es2023.d.ts'],
      skipLibCheck: true,
    },
  });
  for (const f of files.filter((f) => f.path.startsWith('runtime/'))) {
    project.createSourceFile(`/gen/${f.path.replace(/^.*\//, '')}`, f.text);
  }
  project.createSourceFile('/gen/consumer.ts', consumer);
  return project
    .getPreEmitDiagnostics()
    .map(
      (d) =>
        `${d.getSourceFile()?.getBaseName()}: ${ts.flattenDiagnosticMessageText(d.compilerObject.messageText, '\n')}`,
    );
}

const RUNTIME_FILES = [
  'errors.gen.ts',
  'limits.gen.ts',
  'methods.gen.ts',
  'service.gen.ts',
  'wire.gen.ts',
];
let real: Artifact[];
let fixture: Artifact[];
beforeAll(async () => {
  // The real surface is the checked-in one (generate.test.ts proves it equals fresh output).
  real = await Promise.all(
    RUNTIME_FILES.map(async (name) => ({
      path: `runtime/src/generated/${name}`,
      text: await readFile(`${REPO_ROOT}runtime/src/generated/${name}`, 'utf8'),
    })),
  );
  fixture = await generate(FIXTURE_SPEC);
});

describe('emitted runtime surface', () => {
  it('typechecks with a consumer using every export kind', async () => {
    expect(diagnostics(real, CONSUMER)).toEqual([]);
  });

  it('rejects a method that is not in the table and a wrong severity', async () => {
    const bad = `${CONSUMER}\nclient.blocker('t');\nconst b: NonNullable<Body>['content']['application/json'] = { severity: 'blocker' };\nvoid b;`;
    const problems = diagnostics(real, bad);
    expect(problems.some((p) => p.includes("Property 'blocker' does not exist"))).toBe(true);
    expect(problems.some((p) => p.includes('"blocker"'))).toBe(true);
  });

  it('accepts the fifth severity when the fixture spec declares it', async () => {
    const consumer = `${CONSUMER.replace('const max: 255', 'const max: 100')}\nclient.blockerHigh('t');\n`;
    expect(diagnostics(fixture, consumer)).toEqual([]);
  });
});
