import type { EncryptionKeyPair, MaybePromise } from '../domain/types.ts';
import { type Envelope, openEnvelope } from './decrypt.ts';

/** Keys tried for an envelope without `key_id`: the most recent, then at most 3 more. */
export const KEYS_TRIED_WITHOUT_ID = 4;

/** What opening an envelope needs from storage: the project's live encryption keys. */
export interface KeySource {
  findEncryptionKey(projectId: number, keyId?: string): MaybePromise<EncryptionKeyPair | undefined>;
  listEncryptionKeys?(projectId: number, limit: number): MaybePromise<EncryptionKeyPair[]>;
}

/**
 * Opens an envelope with the project's keys. With `key_id`, that key only. Without it, the
 * project's most recent active key first (contract 10.1), then its other active keys by recency,
 * at most `KEYS_TRIED_WITHOUT_ID` in all: a client still sealing to the previous key keeps working
 * during a rotation. Undefined when none opens it (the caller answers 422).
 */
export async function openWithProjectKeys(
  envelope: Envelope,
  store: KeySource,
  projectId: number,
): Promise<{ body: unknown } | undefined> {
  if (envelope.key_id !== undefined || !store.listEncryptionKeys) {
    return openEnvelope(envelope, (id) => store.findEncryptionKey(projectId, id));
  }
  const keys: EncryptionKeyPair[] = await store.listEncryptionKeys(
    projectId,
    KEYS_TRIED_WITHOUT_ID,
  );
  for (const key of keys) {
    const opened = await openEnvelope(envelope, (): MaybePromise<EncryptionKeyPair> => key);
    if (opened) return opened;
  }
  return undefined;
}
