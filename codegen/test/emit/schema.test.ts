// The emitted request schemas compile in Ajv's strict mode (the validator the service uses) and
// enforce the contract's limits, which must equal the emitted LIMITS constants.
import Ajv from 'ajv';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../../server/src/generated/limits.gen.ts';
import {
  cardSchema,
  encryptedEnvelopeSchema,
  taskReportSchema,
} from '../../../server/src/generated/schema.gen.ts';

const ajv = new Ajv({ strict: true, allErrors: true, allowUnionTypes: true });
const report = ajv.compile(structuredClone(taskReportSchema) as object);
const envelope = ajv.compile(structuredClone(encryptedEnvelopeSchema) as object);

describe('taskReportSchema', () => {
  it('accepts SDK reports, raw minimal reports and unknown keys', () => {
    expect(report({ severity: 'major', priority: 'high', title: 't', tags: [] })).toBe(true);
    expect(report({ severity: 'minor' })).toBe(true);
    expect(
      report({ severity: 'minor', tags: 'a, b', status: 'done', description_type: 'json' }),
    ).toBe(true);
    expect(
      report({ severity: 'critical', description: null, file_name: 'src/a.ts', line_number: 1 }),
    ).toBe(true);
  });

  it('rejects each broken limit', () => {
    const at = (body: object) => (report(body) ? [] : report.errors!.map((e) => e.instancePath));
    expect(at({})).toEqual(['']);
    expect(at({ severity: 'fatal' })).toEqual(['/severity']);
    expect(at({ severity: 'minor', priority: 'urgent' })).toEqual(['/priority']);
    expect(at({ severity: 'minor', title: 'x'.repeat(LIMITS.titleMax + 1) })).toEqual(['/title']);
    expect(at({ severity: 'minor', description: 'x'.repeat(LIMITS.descriptionMax + 1) })).toEqual([
      '/description',
    ]);
    expect(at({ severity: 'minor', tags: ['x'.repeat(LIMITS.tagMax + 1)] })).toContain('/tags/0');
    expect(at({ severity: 'minor', file_name: 'x'.repeat(LIMITS.fileNameMax + 1) })).toEqual([
      '/file_name',
    ]);
    expect(at({ severity: 'minor', line_number: LIMITS.lineNumberMin - 1 })).toEqual([
      '/line_number',
    ]);
    expect(at({ severity: 'minor', line_number: 1.5 })).toEqual(['/line_number']);
    for (const line_number of [LIMITS.lineNumberMax + 1, 2 ** 63, 1e300]) {
      expect(at({ severity: 'minor', line_number })).toEqual(['/line_number']);
    }
  });

  it('keeps boundary values valid', () => {
    const body = {
      severity: 'moderate',
      title: 'x'.repeat(LIMITS.titleMax),
      description: 'x'.repeat(LIMITS.descriptionMax),
      tags: ['x'.repeat(LIMITS.tagMax)],
      file_name: 'x'.repeat(LIMITS.fileNameMax),
      line_number: LIMITS.lineNumberMin,
    };
    expect(report(body)).toBe(true);
    expect(report({ ...body, line_number: LIMITS.lineNumberMax })).toBe(true);
  });
});

describe('encryptedEnvelopeSchema', () => {
  it('accepts v1 envelopes with and without key_id, rejects other versions and algorithms', () => {
    const base = { v: 1, alg: 'x25519-sealedbox', ciphertext: 'AAAA' };
    expect(envelope({ encrypted: base })).toBe(true);
    expect(envelope({ encrypted: { ...base, key_id: 'svcek_1' } })).toBe(true);
    expect(envelope({ encrypted: { ...base, v: 2 } })).toBe(false);
    expect(envelope({ encrypted: { ...base, alg: 'aes' } })).toBe(false);
    expect(envelope({ encrypted: { ...base, key_id: 'svck_1' } })).toBe(false);
    expect(envelope({ encrypted: { v: 1, alg: 'x25519-sealedbox' } })).toBe(false);
  });
});

describe('cardSchema', () => {
  it('lists the board statuses, todo first (the status of every new card)', () => {
    expect(cardSchema.properties.status.enum).toEqual(['todo', 'in_progress', 'done', 'ignored']);
    // Formats are documentation here (Ajv strict mode knows none without ajv-formats).
    const card = new Ajv({ allowUnionTypes: true, validateFormats: false }).compile(
      structuredClone(cardSchema) as object,
    );
    const base = {
      id: 1,
      title: 't',
      description: null,
      description_type: 'plain',
      priority: 'low',
      severity: 'minor',
      tags: [],
      occurrence_count: 1,
      created_at: '2026-11-22T10:00:00Z',
      last_seen_at: '2026-11-22T10:00:00Z',
    };
    expect(card({ ...base, status: 'ignored' })).toBe(true);
    expect(card({ ...base, status: 'resolved' })).toBe(false);
  });
});
