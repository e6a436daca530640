// Emits runtime/src/generated/service.gen.ts: the service address baked into the SDK
// (servers[0].url, or `--server <url>` for a self-hosted build) and the one endpoint's path.
import { StructureKind, VariableDeclarationKind } from 'ts-morph';
import type { Model } from '../model.ts';
import { type Artifact, createProject, doc, literal, printStatements } from './common.ts';

export const SERVICE_PATH = 'runtime/src/generated/service.gen.ts';

export function emitService(model: Model): Artifact {
  const constant = (name: string, value: string, docs: string[]) => ({
    kind: StructureKind.VariableStatement as const,
    isExported: true,
    declarationKind: VariableDeclarationKind.Const,
    declarations: [{ name, initializer: literal(value) }],
    docs: doc(...docs),
  });
  const text = printStatements(createProject(), SERVICE_PATH, [
    constant('SERVICE_URL', model.service.url, [
      'The fixed service address (no trailing slash). There is no base-URL option:',
      'self-hosted builds regenerate with `npm run codegen -- --server <url>`.',
    ]),
    constant('TASKS_PATH', model.service.tasksPath, [
      'Path of the one ingestion endpoint; also the constant path covered by request signatures.',
    ]),
  ]);
  return { path: SERVICE_PATH, text };
}
