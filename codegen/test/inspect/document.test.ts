import { describe, expect, it } from 'vitest';
import { inlineSchema, pointer } from '../../src/inspect/document.ts';

const doc = {
  components: {
    schemas: {
      Level: { type: 'string', enum: ['a', 'b'], example: 'a', 'x-note': 1 },
      Box: { type: 'object', properties: { level: { $ref: '#/components/schemas/Level' } } },
      Loop: { $ref: '#/components/schemas/Loop' },
      'a/b': { type: 'null' },
    },
  },
};

describe('document helpers', () => {
  it('resolves local pointers, with ~1 escapes', () => {
    expect(pointer(doc, '#/components/schemas/Level')).toBe(doc.components.schemas.Level);
    expect(pointer(doc, '#/components/schemas/a~1b')).toEqual({ type: 'null' });
    expect(() => pointer(doc, '#/components/schemas/Nope')).toThrow('unresolved $ref');
    expect(() => pointer(doc, 'other.yaml#/x')).toThrow('only local $refs');
  });

  it('inlines refs and drops OpenAPI-only keys, without touching the input', () => {
    expect(inlineSchema(doc, doc.components.schemas.Box)).toEqual({
      type: 'object',
      properties: { level: { type: 'string', enum: ['a', 'b'] } },
    });
    expect(doc.components.schemas.Level.example).toBe('a');
  });

  it('refuses recursive refs', () => {
    expect(() => inlineSchema(doc, doc.components.schemas.Loop)).toThrow('recursive $ref');
  });
});
