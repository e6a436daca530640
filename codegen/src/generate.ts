// The pipeline: spec document -> inspect (plain model) -> validate (model.ts) -> emit each artifact
// -> header + prettier (TypeScript) or the PHP printer. Pure apart from reading prettier's config: returns the files, writes nothing.
import { fileURLToPath } from 'node:url';
import { type Artifact, finish } from './emit/common.ts';
import { emitErrorNames } from './emit/error-names.ts';
import { emitErrors } from './emit/errors.ts';
import { emitIntegrations } from './emit/integrations.ts';
import { emitRuntimeLimits, emitServerLimits } from './emit/limits.ts';
import { emitMethods } from './emit/methods.ts';
import { emitKeys, emitOptions } from './emit/options.ts';
import { emitPhp, PHP_DIRS } from './emit/php/index.ts';
import { emitRetry } from './emit/retry.ts';
import { emitSchema } from './emit/schema.ts';
import { emitServerService, emitService } from './emit/service.ts';
import { emitWire } from './emit/wire.ts';
import { type Doc, loadDocument } from './inspect/document.ts';
import { inspect } from './inspect/index.ts';
import { validateModel } from './model.ts';

/** Root of the repository (generated paths are relative to it). */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const SPEC_PATH = `${REPO_ROOT}spec/openapi.yaml`;
/** Folders whose `*.gen.ts` / `*.gen.php` files belong to the generator. */
export const GENERATED_DIRS = ['runtime/src/generated', 'server/src/generated', ...PHP_DIRS];

export interface GenerateOptions {
  /** Service address to bake in instead of servers[0].url. */
  server?: string;
}

export async function generateFromDocument(
  document: Doc,
  options: GenerateOptions = {},
): Promise<Artifact[]> {
  const model = validateModel(inspect(document, options));
  const raw = [
    emitMethods(model),
    emitErrors(model),
    emitErrorNames(model),
    emitRetry(model),
    emitOptions(model),
    emitKeys(model),
    emitIntegrations(model),
    emitService(model),
    emitServerService(model),
    emitRuntimeLimits(model),
    ...(await emitWire(model)),
    emitSchema(model),
    emitServerLimits(model),
  ];
  const files = await Promise.all(raw.map((a) => finish(REPO_ROOT, a.path, a.text)));
  // PHP files come out finished (header included): no formatter runs on them.
  return [...files, ...emitPhp(model)].sort((a, b) => a.path.localeCompare(b.path));
}

export async function generate(
  specPath = SPEC_PATH,
  options: GenerateOptions = {},
): Promise<Artifact[]> {
  return generateFromDocument(await loadDocument(specPath), options);
}
