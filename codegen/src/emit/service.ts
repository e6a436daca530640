// Emits runtime/src/generated/service.gen.ts: the default service address of the SDK
// (servers[0].url, or `--server <url>` for a self-built client) and the one endpoint's path; and
// server/src/generated/service.gen.ts: the path alone.
import type { Model } from '../model.ts';
import { type Artifact, constant, createProject, literal, printStatements } from './common.ts';

export const SERVICE_PATH = 'runtime/src/generated/service.gen.ts';
export const SERVER_SERVICE_PATH = 'server/src/generated/service.gen.ts';

export function emitService(model: Model): Artifact {
  const text = printStatements(createProject(), SERVICE_PATH, [
    constant('SERVICE_URL', literal(model.service.url), [
      'The default service address (no trailing slash): `servers[0].url` of the spec, or the',
      '`--server <url>` of codegen. A client created with the deployment setting `serviceUrl`, or',
      'on Node with `SERVICE_URL` in the environment, posts there instead (spec/README.md).',
    ]),
    constant('TASKS_PATH', literal(model.service.tasksPath), [
      'Path of the one ingestion endpoint; also the constant path covered by request signatures.',
    ]),
  ]);
  return { path: SERVICE_PATH, text };
}

/** server/src/generated/service.gen.ts: the endpoint's path, for the route and the signature. */
export function emitServerService(model: Model): Artifact {
  const text = printStatements(createProject(), SERVER_SERVICE_PATH, [
    constant('TASKS_PATH', literal(model.service.tasksPath), [
      'Path of the one ingestion endpoint; also the constant path covered by request signatures.',
    ]),
  ]);
  return { path: SERVER_SERVICE_PATH, text };
}
