// Emits server/src/generated/schema.gen.ts: the JSON Schemas the service validates request bodies
// with (the plaintext TaskReport and the encryption envelope), refs inlined, as `as const` data.
import { StructureKind, VariableDeclarationKind } from 'ts-morph';
import type { Model } from '../model.ts';
import { type Artifact, createProject, doc, literal, printStatements } from './common.ts';

export const SCHEMA_PATH = 'server/src/generated/schema.gen.ts';

export function emitSchema(model: Model): Artifact {
  const constant = (name: string, value: unknown, docs: string[]) => ({
    kind: StructureKind.VariableStatement as const,
    isExported: true,
    declarationKind: VariableDeclarationKind.Const,
    declarations: [{ name, initializer: `${literal(value)} as const` }],
    docs: doc(...docs),
  });
  const text = printStatements(createProject(), SCHEMA_PATH, [
    constant('taskReportSchema', model.schemas.taskReport, [
      'JSON Schema of the plaintext report body (`TaskReport`). Other keys are allowed and ignored.',
      'The CSV form of `tags` is a plain string here: check each tag after splitting.',
    ]),
    constant('encryptedEnvelopeSchema', model.schemas.encryptedEnvelope, [
      'JSON Schema of the encryption envelope (`EncryptedEnvelope`).',
    ]),
  ]);
  return { path: SCHEMA_PATH, text };
}
