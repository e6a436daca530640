// Emits runtime/src/generated/methods.gen.ts: the severity and priority enums, the method table
// (severity -> priority -> names, as the spec's table reads) and the typed `ReportingMethods`
// interface with JSDoc. The runtime builds the client object from this table; no reporting logic is
// generated.
import { StructureKind } from 'ts-morph';
import type { Model, ReportingMethod } from '../model.ts';
import { type Artifact, constant, createProject, doc, literal, printStatements } from './common.ts';

export const METHODS_PATH = 'runtime/src/generated/methods.gen.ts';

function methodDoc(m: ReportingMethod, model: Model): string[] {
  const { limits } = model;
  const same = model.methods.methods.find(
    (other) =>
      !other.isDefaultAlias && other.severity === m.severity && other.priority === m.priority,
  );
  const alias = m.isDefaultAlias && same ? ` (same as \`${same.name}\`)` : '';
  return [
    `Report a card with severity \`${m.severity}\` and priority \`${m.priority}\`${alias}.`,
    'Returns immediately: the report is queued and sent in the background; never throws.',
    `@param title Stable title the card groups on (clamped to ${limits.titleMax} chars); put per-event detail in the description.`,
    `@param description Text, or an Error whose message and stack become the description (clamped to ${limits.sdkDescriptionMax} chars).`,
    `@param tags Tags as an array or a CSV string (each clamped to ${limits.tagMax} chars).`,
  ];
}

export function emitMethods(model: Model): Artifact {
  const { severities, priorities, defaultPriority, methods } = model.methods;
  const table: Record<string, Record<string, string[]>> = {};
  for (const method of methods) {
    const row = table[method.severity] ?? {};
    row[method.priority] = [...(row[method.priority] ?? []), method.name];
    table[method.severity] = row;
  }
  const type = (name: string, text: string, docs: string[]) => ({
    kind: StructureKind.TypeAlias as const,
    isExported: true,
    name,
    type: text,
    docs: doc(...docs),
  });
  const text = printStatements(createProject(), METHODS_PATH, [
    constant('SEVERITIES', `${literal(severities)} as const`, [
      'Card severities, most severe first.',
    ]),
    type('Severity', '(typeof SEVERITIES)[number]', ['A card severity.']),
    constant('PRIORITIES', `${literal(priorities)} as const`, ['Card priorities, lowest first.']),
    type('Priority', '(typeof PRIORITIES)[number]', ['A card priority.']),
    constant('DEFAULT_PRIORITY', `${literal(defaultPriority)} satisfies Priority`, [
      'Priority of the bare severity methods (`critical()` and so on) and the server default.',
    ]),
    type('Tags', 'readonly string[] | string', ['Tags: an array, or a CSV string.']),
    constant(
      'REPORTING_METHODS',
      `${literal(table)} as const satisfies Record<Severity, Record<Priority, readonly string[]>>`,
      [
        "The reporting methods by severity and priority, as the spec's table reads: each name sets that",
        'severity and priority (the bare severity name is the default-priority alias).',
      ],
    ),
    type('ReportingMethodName', '(typeof REPORTING_METHODS)[Severity][Priority][number]', [
      'Name of a reporting method.',
    ]),
    constant(
      'REPORTING_METHOD_NAMES',
      `${literal(methods.map((m) => m.name))} as const satisfies readonly ReportingMethodName[]`,
      ['The reporting method names, in table order.'],
    ),
    {
      kind: StructureKind.Interface,
      isExported: true,
      name: 'ReportingMethods',
      docs: doc(
        `The ${methods.length} reporting methods, called positionally as \`name(title, description?, tags?)\`.`,
        'The method name sets severity and priority.',
      ),
      methods: methods.map((m) => ({
        name: m.name,
        parameters: [
          { name: 'title', type: 'string' },
          { name: 'description', type: 'unknown', hasQuestionToken: true },
          { name: 'tags', type: 'Tags', hasQuestionToken: true },
        ],
        returnType: 'void',
        docs: doc(...methodDoc(m, model)),
      })),
    },
  ]);
  return { path: METHODS_PATH, text };
}
