// Emits server/src/generated/schema.gen.ts: the JSON Schemas the service validates request bodies
// with (the plaintext TaskReport, the encryption envelope and a source-map upload), the card it
// answers with and the alert payloads it sends to webhooks, refs inlined, as `as const` data.
import type { Model } from '../model.ts';
import { type Artifact, constant, createProject, asConst, printStatements } from './common.ts';

export const SCHEMA_PATH = 'server/src/generated/schema.gen.ts';

export function emitSchema(model: Model): Artifact {
  const text = printStatements(createProject(), SCHEMA_PATH, [
    constant('taskReportSchema', asConst(model.schemas.taskReport), [
      'JSON Schema of the plaintext report body (`TaskReport`). Other keys are allowed and ignored.',
      'The CSV form of `tags` is a plain string here: check each tag after splitting.',
    ]),
    constant('encryptedEnvelopeSchema', asConst(model.schemas.encryptedEnvelope), [
      'JSON Schema of the encryption envelope (`EncryptedEnvelope`).',
    ]),
    constant('cardSchema', asConst(model.schemas.card), [
      'JSON Schema of the card in answers (`Card`); its `status` enum lists the board statuses.',
    ]),
    constant('sourceMapUploadSchema', asConst(model.schemas.sourceMapUpload), [
      'JSON Schema of a source-map upload (`SourceMapUpload`); the map is checked further by hand.',
    ]),
    constant('alertPayloadSchema', asConst(model.schemas.alertPayload), [
      'JSON Schema of what a JSON webhook receives (`AlertPayload`, the `alert` webhook).',
    ]),
    constant('slackAlertSchema', asConst(model.schemas.slackAlert), [
      'JSON Schema of what a Slack-compatible webhook receives (`SlackAlert`).',
    ]),
  ]);
  return { path: SCHEMA_PATH, text };
}
