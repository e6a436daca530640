// Emits runtime/src/generated/errors.gen.ts from the client error mapping (contract section 7): the
// `SvcError` base, one subclass per mapped class with what it carries (errors/classes.ts), the retry
// rule `isRetryable` and the factory `errorFromResponse` (errors/factory.ts). Rules are emitted in spec
// order, so the first matching row wins, as the table reads.
import type { Model } from '../model.ts';
import { type Artifact, createProject, printStatements } from './common.ts';
import { baseClass, classes, subclass } from './errors/classes.ts';
import { functions } from './errors/factory.ts';

export const ERRORS_PATH = 'runtime/src/generated/errors.gen.ts';

export function emitErrors(model: Model): Artifact {
  const { base, rules } = model.errors;
  const infos = classes(rules);
  const text = printStatements(createProject(), ERRORS_PATH, [
    ...baseClass(base),
    ...infos.flatMap((info) => subclass(base.className, info)),
    ...functions(model.errors, infos),
  ]);
  return { path: ERRORS_PATH, text };
}
