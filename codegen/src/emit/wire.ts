// Emits runtime/src/generated/wire.gen.ts: the wire types (`paths`, `components`, `operations`) of
// the whole spec, produced by openapi-typescript (not ts-morph: it owns this transformation).
import type { Model } from '../model.ts';
import type { Artifact } from './common.ts';

export const WIRE_PATH = 'runtime/src/generated/wire.gen.ts';

export async function emitWire(model: Model): Promise<Artifact> {
  // Loaded lazily: it is the heaviest import, and an invalid spec should fail before paying for it.
  const { default: openapiTS, astToString } = await import('openapi-typescript');
  const ast = await openapiTS(structuredClone(model.document) as never, { silent: true });
  return { path: WIRE_PATH, text: astToString(ast) };
}
