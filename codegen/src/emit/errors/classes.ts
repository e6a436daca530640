// Builds the ts-morph structures of the error classes: the `SvcError` base with its `SvcErrorInit`
// options, and one subclass per class named in the mapping with the fields it carries and its retry
// rule (fixed when all its rows agree, else `isRetryable(status)`).
import {
  type ClassDeclarationStructure,
  type InterfaceDeclarationStructure,
  type OptionalKind,
  type PropertySignatureStructure,
  StructureKind,
} from 'ts-morph';
import type { Carry, ErrorMapping, ErrorRule } from '../../model.ts';
import { doc, literal } from '../common.ts';
import { CARRY_FIELDS, label } from './matchers.ts';

type Declaration = ClassDeclarationStructure | InterfaceDeclarationStructure;

export interface ClassInfo {
  name: string;
  rules: ErrorRule[];
  carries: Carry[];
}

export function classes(rules: ErrorRule[]): ClassInfo[] {
  const byName = new Map<string, ClassInfo>();
  for (const rule of rules) {
    const info = byName.get(rule.className) ?? { name: rule.className, rules: [], carries: [] };
    info.rules.push(rule);
    for (const c of rule.carries) if (!info.carries.includes(c)) info.carries.push(c);
    byName.set(rule.className, info);
  }
  return [...byName.values()];
}

function retryableExpression(info: ClassInfo): string {
  const values = new Set(info.rules.map((r) => r.retried));
  return values.size === 1 ? literal([...values][0]) : 'isRetryable(init.status)';
}

export function subclass(base: string, info: ClassInfo): Declaration[] {
  const extra = info.carries.filter((c) => CARRY_FIELDS[c]);
  const initType = extra.length > 0 ? `${info.name}Init` : `${base}Init`;
  const out: Declaration[] = [];
  if (extra.length > 0) {
    out.push({
      kind: StructureKind.Interface,
      isExported: true,
      name: initType,
      extends: [`${base}Init`],
      docs: doc(`Options of \`new ${info.name}(message, init)\`.`),
      properties: extra.map((c): OptionalKind<PropertySignatureStructure> => ({
        name: c,
        hasQuestionToken: true,
        type: CARRY_FIELDS[c]!.type,
      })),
    });
  }
  const retryable = retryableExpression(info);
  const superInit =
    retryable === 'false' ? 'init' : `{ ...init, retryable: init.retryable ?? ${retryable} }`;
  const statuses = info.rules.flatMap((r) =>
    r.match.map((m) => `${label(m)} (${r.retried ? 'retried' : 'not retried'})`),
  );
  out.push({
    kind: StructureKind.Class,
    isExported: true,
    name: info.name,
    extends: base,
    docs: doc(
      ...[...new Set(info.rules.map((r) => r.description))],
      `Mapped from: ${statuses.join(', ')}. Carries: ${info.carries.join(', ')}.`,
    ),
    properties: [
      {
        name: 'name',
        type: 'string',
        isReadonly: true,
        hasOverrideKeyword: true,
        initializer: literal(info.name),
      },
      ...extra.map((c) => ({
        name: c,
        type: CARRY_FIELDS[c]!.type,
        isReadonly: true,
        docs: doc(CARRY_FIELDS[c]!.doc),
      })),
    ],
    // Compact output (it ships in browser bundles): the base already defaults `retryable` to false,
    // so such a class passes `init` through, and needs no constructor unless it carries fields.
    ctors:
      superInit === 'init' && extra.length === 0
        ? []
        : [
            {
              parameters: [
                { name: 'message', type: 'string' },
                { name: 'init', type: initType, initializer: '{}' },
              ],
              statements: [
                `super(message, ${superInit});`,
                ...extra.map((c) => `this.${c} = ${CARRY_FIELDS[c]!.init};`),
              ],
            },
          ],
  });
  return out;
}

/** The base class and its options interface. */
export function baseClass(base: ErrorMapping['base']): Declaration[] {
  return [
    {
      kind: StructureKind.Interface,
      isExported: true,
      name: `${base.className}Init`,
      docs: doc(`Options of \`new ${base.className}(message, init)\` and its subclasses.`),
      properties: [
        {
          name: 'status',
          type: 'number',
          hasQuestionToken: true,
          docs: doc('HTTP status; absent for network failures and timeouts.'),
        },
        {
          name: 'cause',
          type: 'unknown',
          hasQuestionToken: true,
          docs: doc('The underlying error (network failure, timeout).'),
        },
        {
          name: 'retryable',
          type: 'boolean',
          hasQuestionToken: true,
          docs: doc('Overrides the retry rule of the class.'),
        },
      ],
    },
    {
      kind: StructureKind.Class,
      isExported: true,
      name: base.className,
      extends: 'Error',
      docs: doc(base.description),
      properties: [
        {
          name: 'name',
          type: 'string',
          isReadonly: true,
          hasOverrideKeyword: true,
          initializer: literal(base.className),
        },
        {
          name: 'status',
          type: 'number',
          hasQuestionToken: true,
          isReadonly: true,
          docs: doc('HTTP status; absent for network failures and timeouts.'),
        },
        {
          name: 'retryable',
          type: 'boolean',
          isReadonly: true,
          docs: doc('Whether the SDK retries the request that failed this way.'),
        },
      ],
      ctors: [
        {
          parameters: [
            { name: 'message', type: 'string' },
            { name: 'init', type: `${base.className}Init`, initializer: '{}' },
          ],
          statements: [
            'super(message, init.cause === undefined ? undefined : { cause: init.cause });',
            'this.status = init.status;',
            'this.retryable = init.retryable ?? false;',
          ],
        },
      ],
    },
  ];
}
