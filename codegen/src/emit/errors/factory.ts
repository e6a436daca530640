// Builds the ts-morph structures of the emitted functions: the retry rule `isRetryable` (one line per
// matcher, in spec order, first match wins), `parseRetryAfter`, and `errorFromResponse` (class by status,
// message from the body) with its two private body readers.
import { type FunctionDeclarationStructure, StructureKind } from 'ts-morph';
import type { ErrorMapping } from '../../model.ts';
import { doc, literal } from '../common.ts';
import type { ClassInfo } from './classes.ts';
import { CARRY_FIELDS, condition, label } from './matchers.ts';

export function functions(
  mapping: ErrorMapping,
  infos: ClassInfo[],
): FunctionDeclarationStructure[] {
  return [
    isRetryable(mapping),
    parseRetryAfter(),
    ...bodyReaders(),
    errorFromResponse(mapping, infos),
  ];
}

/** `isRetryable(status)`: one line per matcher, in spec order, first match wins. */
function isRetryable({ rules }: ErrorMapping): FunctionDeclarationStructure {
  const retryLines = rules.flatMap((r) =>
    r.match.map(
      (m) =>
        `if (${condition(m, true)}) return ${literal(r.retried)}; // ${label(m)}: ${r.className}`,
    ),
  );
  return {
    kind: StructureKind.Function,
    isExported: true,
    name: 'isRetryable',
    docs: doc(
      'The retry rule: whether a failure with this HTTP status is retried (`undefined` = network failure or timeout).',
    ),
    parameters: [{ name: 'status', type: 'number | undefined' }],
    returnType: 'boolean',
    statements: [...retryLines, 'return false;'],
  };
}

function parseRetryAfter(): FunctionDeclarationStructure {
  return {
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
  };
}

/** The private readers of an error body: `messageOf` and `fieldErrorsOf`. */
function bodyReaders(): FunctionDeclarationStructure[] {
  return [
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
  ];
}

/** `errorFromResponse(status, body, headers)`: the class by status, the message from the body. */
function errorFromResponse(
  { base, rules }: ErrorMapping,
  infos: ClassInfo[],
): FunctionDeclarationStructure {
  const fallback = infos.find((i) =>
    i.rules.some((r) => r.match.some((m) => m.kind === 'network')),
  )!.name;
  const rows = rules.flatMap((r) => {
    const fromResponse = r.match.filter((m) => m.kind !== 'network');
    if (fromResponse.length === 0) return [];
    const args = [
      'status',
      ...r.carries
        .filter((c) => CARRY_FIELDS[c])
        .map((c) => `${c}: ${CARRY_FIELDS[c]!.fromResponse}`),
    ];
    return [{ className: r.className, args, fromResponse }];
  });
  // Trailing rows that build what the fallback builds anyway are left out (compact output).
  while (rows.length && rows.at(-1)!.className === fallback && rows.at(-1)!.args.length === 1)
    rows.pop();
  const factoryLines = rows.map(
    (r) =>
      `if (${r.fromResponse.map((m) => condition(m, false)).join(' || ')}) return new ${r.className}(message, { ${r.args.join(', ')} });`,
  );
  return {
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
  };
}
