// Reads the service address (servers[0].url, or the `--server` override for self-hosted builds)
// and the one operation's path, the request-body schemas the service validates with, the card it
// answers with, and what it sends to webhooks (the alert payloads and how they are signed and retried).
import type { AlertDelivery, JsonSchema } from '../model.ts';
import { type Doc, inlineSchema, isObject, pointer, schemaComponent } from './document.ts';

export function readService(
  doc: Doc,
  serverOverride?: string,
): { url: string; tasksPath: string; alertDelivery: AlertDelivery } {
  const servers = doc.servers;
  const first = Array.isArray(servers) && isObject(servers[0]) ? servers[0].url : undefined;
  const url = serverOverride ?? (typeof first === 'string' ? first : 'https://api.svc.example');
  const paths = isObject(doc.paths) ? Object.keys(doc.paths) : [];
  if (paths.length !== 1)
    throw new Error(`the spec must have exactly one path, got ${paths.length}`);
  return {
    url: url.replace(/\/+$/, ''),
    tasksPath: paths[0]!,
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
  alertPayload: JsonSchema;
  slackAlert: JsonSchema;
} {
  return {
    alertPayload: inlineSchema(doc, schemaComponent(doc, 'AlertPayload')) as JsonSchema,
    slackAlert: inlineSchema(doc, schemaComponent(doc, 'SlackAlert')) as JsonSchema,
    taskReport: inlineSchema(doc, schemaComponent(doc, 'TaskReport')) as JsonSchema,
    encryptedEnvelope: inlineSchema(doc, schemaComponent(doc, 'EncryptedEnvelope')) as JsonSchema,
    card: inlineSchema(doc, schemaComponent(doc, 'Card')) as JsonSchema,
  };
}
