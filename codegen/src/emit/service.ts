// Emits runtime/src/generated/service.gen.ts: the service address baked into the SDK
// (servers[0].url, or `--server <url>` for a self-hosted build) and the one endpoint's path.
import type { Model } from '../model.ts';
import { type Artifact, constant, createProject, literal, printStatements } from './common.ts';

export const SERVICE_PATH = 'runtime/src/generated/service.gen.ts';

export function emitService(model: Model): Artifact {
  const text = printStatements(createProject(), SERVICE_PATH, [
    constant('SERVICE_URL', literal(model.service.url), [
      'The fixed service address (no trailing slash). There is no base-URL option:',
      'self-hosted builds regenerate with `npm run codegen -- --server <url>`.',
    ]),
    constant('TASKS_PATH', literal(model.service.tasksPath), [
      'Path of the one ingestion endpoint; also the constant path covered by request signatures.',
    ]),
  ]);
  return { path: SERVICE_PATH, text };
}
