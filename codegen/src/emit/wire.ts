// Emits the wire types (`paths`, `components`, `operations`) of the whole spec, produced by
// openapi-typescript (not ts-morph: it owns this transformation): runtime/src/generated/wire.gen.ts
// and the same text as server/src/generated/wire.gen.ts (the server depends on no client code).
import type { Model } from '../model.ts';
import type { Artifact } from './common.ts';

export const WIRE_PATH = 'runtime/src/generated/wire.gen.ts';
export const SERVER_WIRE_PATH = 'server/src/generated/wire.gen.ts';

export async function emitWire(model: Model): Promise<Artifact[]> {
  // Loaded lazily: it is the heaviest import, and an invalid spec should fail before paying for it.
  const { default: openapiTS, astToString } = await import('openapi-typescript');
  const ast = await openapiTS(structuredClone(model.document) as never, { silent: true });
  const text = astToString(ast);
  return [
    { path: WIRE_PATH, text },
    { path: SERVER_WIRE_PATH, text },
  ];
}
