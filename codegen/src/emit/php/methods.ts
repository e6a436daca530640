// Emits the PHP method surface into php/src/Generated/: `Methods` (the severity and priority enums and
// the name -> [severity, priority] table, as data) and the `ReportingMethods` trait: the 16 public
// methods with PHPDoc types, each handing its severity and priority to the client's `record()`. The
// parameters are `mixed` at run time and all optional, and a variadic takes any further or unknown
// named argument (no call shape may throw into the host: `$svc->major()` reports `Untitled error`);
// the PHPDoc types are what static analysers check. No reporting logic is generated.
import type { Model, ReportingMethod } from '../../model.ts';
import { finishPhp, type PhpMethod, phpLiteral, phpString } from './printer.ts';

export const PHP_GENERATED_DIR = 'php/src/Generated';
export const NAMESPACE = 'Svc\\Generated';

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function reportingMethod(m: ReportingMethod, model: Model): PhpMethod {
  const { limits } = model;
  const alias = m.isDefaultAlias ? ` (same as \`${m.severity}${capitalize(m.priority)}()\`)` : '';
  return {
    name: m.name,
    visibility: 'public',
    parameters: [
      { name: 'title', type: 'mixed', default: 'null' },
      { name: 'description', type: 'mixed', default: 'null' },
      { name: 'tags', type: 'mixed', default: 'null' },
      { name: 'ignored', type: 'mixed', variadic: true },
    ],
    returnType: 'void',
    docs: [
      `Report a card with severity \`${m.severity}\` and priority \`${m.priority}\`${alias}.`,
      'Returns immediately: the report is queued and sent at `flush()` or at shutdown; never throws.',
      '',
      `@param string $title Stable title the card groups on (clamped to ${limits.titleMax} characters); put per-event detail in the description.`,
      `@param string|\\Throwable|null $description Text, or a Throwable whose class, message, trace and previous exceptions become the description (clamped to ${limits.sdkDescriptionMax} characters).`,
      `@param list<string>|string|null $tags Tags as a list or a CSV string (each clamped to ${limits.tagMax} characters).`,
      '@param never ...$ignored Any further argument is ignored (a wrong call never throws).',
    ],
    body: [
      `$this->record(${phpString(m.severity)}, ${phpString(m.priority)}, $title, $description, $tags);`,
    ],
  };
}

export function emitPhpMethods(model: Model): { path: string; text: string }[] {
  const { severities, priorities, defaultPriority, methods } = model.methods;
  const table = Object.fromEntries(methods.map((m) => [m.name, [m.severity, m.priority]]));
  const data = finishPhp(`${PHP_GENERATED_DIR}/Methods.gen.php`, {
    namespace: NAMESPACE,
    declaration: {
      kind: 'final class',
      name: 'Methods',
      docs: ['The severity x priority table of the reporting methods (contract 4), as data.'],
      constants: [
        {
          name: 'SEVERITIES',
          value: phpLiteral(severities),
          docs: ['Card severities, most severe first.'],
        },
        {
          name: 'PRIORITIES',
          value: phpLiteral(priorities),
          docs: ['Card priorities, lowest first.'],
        },
        {
          name: 'DEFAULT_PRIORITY',
          value: phpString(defaultPriority),
          docs: [
            'Priority of the bare severity methods (`critical()` and so on) and the server default.',
          ],
        },
        {
          name: 'TABLE',
          value: phpLiteral(table),
          docs: ['Every reporting method, in table order: name => [severity, priority].'],
        },
      ],
    },
  });
  const trait = finishPhp(`${PHP_GENERATED_DIR}/ReportingMethods.gen.php`, {
    namespace: NAMESPACE,
    declaration: {
      kind: 'trait',
      name: 'ReportingMethods',
      docs: [
        `The ${methods.length} reporting methods, called positionally as \`name($title, $description = null, $tags = null)\`.`,
        'The method name sets severity and priority.',
      ],
      methods: [
        {
          name: 'record',
          visibility: 'protected',
          isAbstract: true,
          parameters: [
            { name: 'severity', type: 'string' },
            { name: 'priority', type: 'string' },
            { name: 'title', type: 'mixed' },
            { name: 'description', type: 'mixed' },
            { name: 'tags', type: 'mixed' },
          ],
          returnType: 'void',
          docs: ['Queues one report; the client implements it. Never throws.'],
        },
        ...methods.map((m) => reportingMethod(m, model)),
      ],
    },
  });
  return [data, trait];
}
