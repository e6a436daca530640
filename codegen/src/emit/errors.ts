// Emits runtime/src/generated/errors.gen.ts from the client error mapping (contract section 7): the
// `SvcError` base, one subclass per mapped class with what it carries, the retry rule
// (`isRetryable`) and the factory `errorFromResponse`. Rules are emitted in spec order, so the
// first matching row wins, as the table reads.
import {
  type ClassDeclarationStructure,
  type InterfaceDeclarationStructure,
  type OptionalKind,
  type PropertySignatureStructure,
  StructureKind,
} from 'ts-morph';
import type { Carry, ErrorRule, Model, StatusMatcher } from '../model.ts';
import { type Artifact, createProject, doc, literal, printStatements } from './common.ts';

export const ERRORS_PATH = 'runtime/src/generated/errors.gen.ts';

const CARRY_FIELDS: Partial<
  Record<Carry, { type: string; doc: string; init: string; fromResponse: string }>
> = {
  fieldErrors: {
    type: 'Record<string, string[]>',
    doc: 'Failing field name to its messages (the `errors` map of a 422); empty when absent.',
    init: 'init.fieldErrors ?? {}',
    fromResponse: 'fieldErrorsOf(body)',
  },
  retryAfter: {
    type: 'number | undefined',
    doc: 'Seconds to wait, from `Retry-After` (integer seconds; absent or non-numeric gives undefined).',
    init: 'init.retryAfter',
    fromResponse: "parseRetryAfter(headers?.get('retry-after') ?? null)",
  },
};

/** Condition on `status`; `optional` when status may be undefined (network failure). */
function condition(m: StatusMatcher, optional: boolean): string {
  if (m.kind === 'network') return 'status === undefined';
  if (m.kind === 'status') return `status === ${m.status}`;
  const range = `status >= ${m.min} && status <= ${m.max}`;
  return optional ? `status !== undefined && ${range}` : range;
}

function label(m: StatusMatcher): string {
  return m.kind === 'network'
    ? 'network failure or timeout'
    : m.kind === 'status'
      ? String(m.status)
      : `${m.min / 100}xx`;
}

interface ClassInfo {
  name: string;
  rules: ErrorRule[];
  carries: Carry[];
}

function classes(rules: ErrorRule[]): ClassInfo[] {
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

function subclass(
  base: string,
  info: ClassInfo,
): (ClassDeclarationStructure | InterfaceDeclarationStructure)[] {
  const extra = info.carries.filter((c) => CARRY_FIELDS[c]);
  const initType = extra.length > 0 ? `${info.name}Init` : `${base}Init`;
  const out: (ClassDeclarationStructure | InterfaceDeclarationStructure)[] = [];
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
    ctors: [
      {
        parameters: [
          { name: 'message', type: 'string' },
          { name: 'init', type: initType, initializer: '{}' },
        ],
        statements: [
          `super(message, { status: init.status, cause: init.cause, retryable: init.retryable ?? ${retryableExpression(info)} });`,
          ...extra.map((c) => `this.${c} = ${CARRY_FIELDS[c]!.init};`),
        ],
      },
    ],
  });
  return out;
}

export function emitErrors(model: Model): Artifact {
  const { base, rules } = model.errors;
  const infos = classes(rules);
  const retryLines = rules.flatMap((r) =>
    r.match.map(
      (m) =>
        `if (${condition(m, true)}) return ${literal(r.retried)}; // ${label(m)}: ${r.className}`,
    ),
  );
  const factoryLines = rules.flatMap((r) => {
    const fromResponse = r.match.filter((m) => m.kind !== 'network');
    if (fromResponse.length === 0) return [];
    const args = [
      'status',
      ...r.carries
        .filter((c) => CARRY_FIELDS[c])
        .map((c) => `${c}: ${CARRY_FIELDS[c]!.fromResponse}`),
    ];
    return [
      `if (${fromResponse.map((m) => condition(m, false)).join(' || ')}) return new ${r.className}(message, { ${args.join(', ')} });`,
    ];
  });
  const fallback = infos.find((i) =>
    i.rules.some((r) => r.match.some((m) => m.kind === 'network')),
  )!.name;
  const text = printStatements(createProject(), ERRORS_PATH, [
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
    ...infos.flatMap((info) => subclass(base.className, info)),
    {
      kind: StructureKind.Function,
      isExported: true,
      name: 'isRetryable',
      docs: doc(
        'The retry rule: whether a failure with this HTTP status is retried (`undefined` = network failure or timeout).',
      ),
      parameters: [{ name: 'status', type: 'number | undefined' }],
      returnType: 'boolean',
      statements: [...retryLines, 'return false;'],
    },
    {
      kind: StructureKind.Function,
      isExported: true,
      name: 'parseRetryAfter',
      docs: doc('`Retry-After` as integer seconds; empty, absent or non-numeric gives undefined.'),
      parameters: [{ name: 'value', type: 'string | null | undefined' }],
      returnType: 'number | undefined',
      statements: [
        "const text = (value ?? '').trim();",
        'return /^\\d+$/.test(text) ? Number(text) : undefined;',
      ],
    },
    {
      kind: StructureKind.Function,
      name: 'messageOf',
      parameters: [{ name: 'body', type: 'unknown' }],
      returnType: 'string | undefined',
      statements: [
        "const message = typeof body === 'object' && body !== null ? (body as { message?: unknown }).message : undefined;",
        "return typeof message === 'string' && message !== '' ? message : undefined;",
      ],
    },
    {
      kind: StructureKind.Function,
      name: 'fieldErrorsOf',
      parameters: [{ name: 'body', type: 'unknown' }],
      returnType: 'Record<string, string[]>',
      statements: [
        "const errors = typeof body === 'object' && body !== null ? (body as { errors?: unknown }).errors : undefined;",
        'const out: Record<string, string[]> = {};',
        "if (typeof errors !== 'object' || errors === null) return out;",
        'for (const [field, messages] of Object.entries(errors)) out[field] = Array.isArray(messages) ? messages.map(String) : [String(messages)];',
        'return out;',
      ],
    },
    {
      kind: StructureKind.Function,
      isExported: true,
      name: 'errorFromResponse',
      docs: doc(
        'The error for a failed HTTP answer: the class by status (first matching row of the mapping),',
        'the message from the JSON `message` key, else `HTTP {status}`.',
      ),
      parameters: [
        { name: 'status', type: 'number' },
        { name: 'body', type: 'unknown' },
        { name: 'headers', type: '{ get(name: string): string | null }', hasQuestionToken: true },
      ],
      returnType: base.className,
      statements: [
        // biome-ignore lint/suspicious/noTemplateCurlyInString: this is emitted source text
        'const message = messageOf(body) ?? `HTTP ${status}`;',
        ...factoryLines,
        `return new ${fallback}(message, { status });`,
      ],
    },
  ]);
  return { path: ERRORS_PATH, text };
}
