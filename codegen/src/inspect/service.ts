// Reads the service address (servers[0].url, or the `--server` override for self-hosted builds)
// and the paths of the operations (the report endpoint, and the source-map upload a build uses),
// the request-body schemas the service validates with, the card it answers with, and what it
// sends to webhooks (the alert payloads, and how they are signed and retried).
import type { AlertDelivery, JsonSchema, Service } from '../model.ts';
import { type Doc, inlineSchema, isObject, pointer, schemaComponent } from './document.ts';

/** The operations the generator knows, by `operationId`, and the model field of each one's path. */
const OPERATIONS = { createTask: 'tasksPath', uploadSourceMap: 'sourceMapsPath' } as const;

export function readService(doc: Doc, serverOverride?: string): Service {
  const servers = doc.servers;
  const first = Array.isArray(servers) && isObject(servers[0]) ? servers[0].url : undefined;
  const url = serverOverride ?? (typeof first === 'string' ? first : 'https://api.svc.example');
  const found: Partial<Record<(typeof OPERATIONS)[keyof typeof OPERATIONS], string>> = {};
  for (const [path, item] of Object.entries(isObject(doc.paths) ? doc.paths : {})) {
    const operations = isObject(item) ? Object.values(item).filter(isObject) : [];
    if (operations.length !== 1) throw new Error(`${path}: expected exactly one operation`);
    const id = operations[0]!.operationId;
    const field = typeof id === 'string' ? OPERATIONS[id as keyof typeof OPERATIONS] : undefined;
    if (!field) throw new Error(`${path}: unknown operationId ${String(id)}`);
    if (found[field]) throw new Error(`operationId ${String(id)} appears twice`);
    found[field] = path;
  }
  const { tasksPath, sourceMapsPath } = found;
  if (!tasksPath || !sourceMapsPath) {
    throw new Error(`the spec must have the operations ${Object.keys(OPERATIONS).join(', ')}`);
  }
  return {
    url: url.replace(/\/+$/, ''),
    tasksPath,
    sourceMapsPath,
    alertDelivery: readAlertDelivery(doc),
  };
}

/** `x-svc-delivery` of the `alert` webhook: how the service signs and retries its alerts. */
function readAlertDelivery(doc: Doc): AlertDelivery {
  const raw = pointer(doc, '#/webhooks/alert/post/x-svc-delivery');
  if (!isObject(raw)) throw new Error('webhooks.alert.post needs an x-svc-delivery mapping');
  const { signedPath, secretPrefix, retriedStatuses, retriedFrom } = raw;
  if (typeof signedPath !== 'string' || typeof secretPrefix !== 'string') {
    throw new Error('x-svc-delivery needs signedPath and secretPrefix strings');
  }
  if (!Array.isArray(retriedStatuses) || typeof retriedFrom !== 'number') {
    throw new Error('x-svc-delivery needs a retriedStatuses list and a retriedFrom number');
  }
  return { signedPath, secretPrefix, retriedStatuses: retriedStatuses as number[], retriedFrom };
}

export function readSchemas(doc: Doc): {
  taskReport: JsonSchema;
  encryptedEnvelope: JsonSchema;
  card: JsonSchema;
  sourceMapUpload: JsonSchema;
  alertPayload: JsonSchema;
  slackAlert: JsonSchema;
} {
  const inline = (name: string) => inlineSchema(doc, schemaComponent(doc, name)) as JsonSchema;
  return {
    taskReport: inline('TaskReport'),
    encryptedEnvelope: inline('EncryptedEnvelope'),
    card: inline('Card'),
    sourceMapUpload: inline('SourceMapUpload'),
    alertPayload: inline('AlertPayload'),
    slackAlert: inline('SlackAlert'),
  };
}
