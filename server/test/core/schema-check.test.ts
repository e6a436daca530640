// The interpreting checker of the request schemas (src/core/schema-check.ts) against ajv, the
// validator it replaces (a test dependency only: it builds code from strings): for the generated
// TaskReport and SourceMapUpload schemas and thousands of generated bodies shaped like them, both
// say the same, error for error, in the same order. A keyword it does not apply is refused.
import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { schemaChecker } from '../../src/core/schema-check.ts';
import { sourceMapUploadSchema, taskReportSchema } from '../../src/generated/schema.gen.ts';

const uploadSchema = {
  ...sourceMapUploadSchema,
  properties: { ...sourceMapUploadSchema.properties, map: { type: 'object' } },
};

/** A value of any JSON type, sometimes one the schema asks for, sometimes long. */
const anyValue = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.string({ minLength: 40, maxLength: 300, unit: 'binary' }),
  fc.constantFrom(
    'critical',
    'major',
    'low',
    'medium',
    'svcek_1',
    '0123abcd-0000-1111-2222-333344445555',
  ),
  fc.integer({ min: -5, max: 2 ** 31 + 5 }),
  fc.constantFrom(0, 1, 3, 1.5, -0, 2147483647, 2147483648, 1e300),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.oneof(fc.string({ maxLength: 60 }), fc.integer(), fc.constant(null)), {
    maxLength: 110,
  }),
  fc.dictionary(fc.string({ maxLength: 4 }), fc.integer(), { maxKeys: 3 }),
);

/** An object with some of `keys` (and a stray one), each holding any value. */
const shaped = (keys: string[]) =>
  fc.dictionary(fc.constantFrom(...keys, 'other'), anyValue, { maxKeys: keys.length + 1 });

const cases: [string, Record<string, unknown>, typeof Ajv | typeof Ajv2020, string[]][] = [
  ['TaskReport', taskReportSchema, Ajv, Object.keys(taskReportSchema.properties)],
  ['SourceMapUpload', uploadSchema, Ajv2020, Object.keys(uploadSchema.properties)],
];

describe.each(cases)('%s', (_name, schema, AjvClass, keys) => {
  const ajv = new AjvClass({ allErrors: true, strict: false }).compile(schema);
  const mine = schemaChecker(schema);

  it('says what ajv says, error for error, for generated bodies', () => {
    fc.assert(
      fc.property(fc.oneof(shaped(keys), anyValue), (body) => {
        const valid = ajv(body);
        expect(mine(body)).toBe(valid);
        type Shown = { keyword: string; instancePath: string; params: object; message?: string };
        const strip = (errors: readonly Shown[] | null | undefined) =>
          (errors ?? []).map(({ keyword, instancePath, params, message }) => ({
            keyword,
            instancePath,
            params,
            message,
          }));
        expect(strip(mine.errors)).toEqual(strip(ajv.errors));
      }),
      { numRuns: 3000 },
    );
  });
});

it('the limits count code points, as ajv does (a surrogate pair is one character)', () => {
  const check = schemaChecker(taskReportSchema);
  expect(check({ severity: 'major', title: '😀'.repeat(255) })).toBe(true);
  expect(check({ severity: 'major', title: '😀'.repeat(256) })).toBe(false);
  expect(check.errors?.[0]).toMatchObject({
    keyword: 'maxLength',
    instancePath: '/title',
    message: 'must NOT have more than 255 characters',
  });
});

it('refuses a schema with a keyword it does not apply', () => {
  expect(() => schemaChecker({ type: 'string', format: 'date-time' })).toThrow(
    'keyword "format" at / is not supported',
  );
  expect(() => schemaChecker({ type: 'object', properties: { a: { multipleOf: 2 } } })).toThrow(
    'keyword "multipleOf" at /properties/a is not supported',
  );
});
