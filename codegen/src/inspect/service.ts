// Reads the service address (servers[0].url, or the `--server` override for self-hosted builds)
// and the one operation's path, the request-body schemas the service validates with, and the card it answers with.
import type { JsonSchema } from '../model.ts';
import { type Doc, inlineSchema, isObject, schemaComponent } from './document.ts';

export function readService(doc: Doc, serverOverride?: string): { url: string; tasksPath: string } {
  const servers = doc.servers;
  const first = Array.isArray(servers) && isObject(servers[0]) ? servers[0].url : undefined;
  const url = serverOverride ?? (typeof first === 'string' ? first : 'https://api.svc.example');
  const paths = isObject(doc.paths) ? Object.keys(doc.paths) : [];
  if (paths.length !== 1)
    throw new Error(`the spec must have exactly one path, got ${paths.length}`);
  return { url: url.replace(/\/+$/, ''), tasksPath: paths[0]! };
}

export function readSchemas(doc: Doc): {
  taskReport: JsonSchema;
  encryptedEnvelope: JsonSchema;
  card: JsonSchema;
} {
  return {
    taskReport: inlineSchema(doc, schemaComponent(doc, 'TaskReport')) as JsonSchema,
    encryptedEnvelope: inlineSchema(doc, schemaComponent(doc, 'EncryptedEnvelope')) as JsonSchema,
    card: inlineSchema(doc, schemaComponent(doc, 'Card')) as JsonSchema,
  };
}
