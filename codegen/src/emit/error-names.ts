// Emits runtime/src/generated/error-names.gen.ts: which error class a failure maps to, by name, and
// the message it carries, without the classes. The runtime's debug channel (a lazy chunk) names a
// failed attempt with these, so the error classes are needed only by apps that import them: a
// bundler that splits by file (esbuild) would otherwise ship them in every app's start-up chunk.
// Same rows, same order as errorFromResponse (errors/factory.ts): the first matching row wins.
import { StructureKind } from 'ts-morph';
import type { Model } from '../model.ts';
import { type Artifact, createProject, doc, literal, printStatements } from './common.ts';
import { condition, label } from './errors/matchers.ts';

export const ERROR_NAMES_PATH = 'runtime/src/generated/error-names.gen.ts';

export function emitErrorNames(model: Model): Artifact {
  const { base, rules } = model.errors;
  const lines = rules.map(
    (r) =>
      `if (${r.match.map((m) => condition(m, true)).join(' || ')}) return ${literal(r.className)}; // ${r.match.map(label).join(', ')}`,
  );
  // errorFromResponse builds the network-failure class for a status no row matches.
  const fallback =
    rules.find((r) => r.match.some((m) => m.kind === 'network'))?.className ?? base.className;
  const text = printStatements(createProject(), ERROR_NAMES_PATH, [
    {
      kind: StructureKind.Function,
      isExported: true,
      name: 'errorNameFor',
      docs: doc(
        'Name of the error class a failure with this HTTP status maps to (`undefined` = network failure or timeout).',
      ),
      parameters: [{ name: 'status', type: 'number | undefined' }],
      returnType: 'string',
      statements: [...lines, `return ${literal(fallback)};`],
    },
    {
      kind: StructureKind.Function,
      isExported: true,
      name: 'errorMessageFor',
      docs: doc(
        'The message of that error: the JSON `message` key of the body, else `HTTP {status}`.',
      ),
      parameters: [
        { name: 'status', type: 'number' },
        { name: 'body', type: 'unknown' },
      ],
      returnType: 'string',
      statements: [
        "const message = typeof body === 'object' && body !== null ? (body as { message?: unknown }).message : undefined;",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: this is emitted source text
        "return typeof message === 'string' && message !== '' ? message : `HTTP ${status}`;",
      ],
    },
  ]);
  return { path: ERROR_NAMES_PATH, text };
}
