// Emits runtime/src/generated/service.gen.ts: the default service address of the SDK
// (servers[0].url, or `--server <url>` for a self-built client) and the endpoints' paths; and
// server/src/generated/service.gen.ts: the paths, and how alerts are signed and retried.
import type { Model } from '../model.ts';
import {
  type Artifact,
  asConst,
  constant,
  createProject,
  literal,
  printStatements,
} from './common.ts';

export const SERVICE_PATH = 'runtime/src/generated/service.gen.ts';
export const SERVER_SERVICE_PATH = 'server/src/generated/service.gen.ts';

export function emitService(model: Model): Artifact {
  const text = printStatements(createProject(), SERVICE_PATH, [
    constant('SERVICE_URL', literal(model.service.url), [
      'The default service address (no trailing slash): `servers[0].url` of the spec, or the',
      '`--server <url>` of codegen. A client created with the deployment setting `serviceUrl`, or',
      'on Node with `SERVICE_URL` in the environment, posts there instead (spec/README.md).',
    ]),
    tasksPath(model),
    sourceMapsPath(model),
  ]);
  return { path: SERVICE_PATH, text };
}

const tasksPath = (model: Model) =>
  constant('TASKS_PATH', literal(model.service.tasksPath), [
    'Path of the report endpoint; also the constant path its request signatures cover.',
  ]);

const sourceMapsPath = (model: Model) =>
  constant('SOURCEMAPS_PATH', literal(model.service.sourceMapsPath), [
    "Path of the source-map upload (a build's secret key only); also the constant path its",
    'request signatures cover.',
  ]);

/**
 * server/src/generated/service.gen.ts: the endpoints' paths, for the routes and the signatures;
 * and how alerts are signed and retried (`webhooks.alert` `x-svc-delivery`).
 */
export function emitServerService(model: Model): Artifact {
  const text = printStatements(createProject(), SERVER_SERVICE_PATH, [
    tasksPath(model),
    sourceMapsPath(model),
    constant('ALERT_DELIVERY', asConst(model.service.alertDelivery), [
      'How alerts reach webhooks: the constant path their signature covers, the prefix of webhook',
      'secrets, and the answers retried with backoff (these 4XX, every status from `retriedFrom`,',
      'and no answer at all); any other non-2XX answer fails the delivery at once.',
    ]),
  ]);
  return { path: SERVER_SERVICE_PATH, text };
}
