// Emits php/src/Generated/Integrations.gen.php from the `php` rows of `x-svc-integrations`: the
// PHP framework integrations and the failure kinds they report, with the same severity, priority,
// title place and tag templates as the TypeScript integrations' `integrations.gen.ts` for a kind
// both SDKs see, and a log record's method per PSR-3 level. `Svc\Integration\Failures` fills the
// templates; the Laravel, Symfony and Monolog integrations never restate them. Data only.
import { type FailureKind, integrationsOf, type Model } from '../../model.ts';
import { NAMESPACE, PHP_GENERATED_DIR } from './methods.ts';
import { finishPhp, phpLiteral } from './printer.ts';

export const PHP_INTEGRATIONS_PATH = `${PHP_GENERATED_DIR}/Integrations.gen.php`;

/** One row as the PHP side reads it: the fields of the TypeScript row, `levels` keyed by level. */
function row(failure: FailureKind): Record<string, unknown> {
  if (!failure.report) return { report: false };
  const how = failure.levels
    ? {
        levels: Object.fromEntries(
          failure.levels.map((l) => [
            l.level,
            { severity: l.severity, priority: l.priority, method: l.method },
          ]),
        ),
      }
    : { severity: failure.severity, priority: failure.priority, method: failure.method };
  return { report: true, side: failure.side, ...how, place: failure.place, tags: failure.tags };
}

export function emitPhpIntegrations(model: Model): { path: string; text: string } {
  const { frameworks, failures } = integrationsOf(model.integrations, 'php');
  return finishPhp(PHP_INTEGRATIONS_PATH, {
    namespace: NAMESPACE,
    declaration: {
      kind: 'final class',
      name: 'Integrations',
      docs: [
        'What the framework integrations of every SDK do the same way (`x-svc-integrations`): the PHP',
        'integrations and how they report each kind of failure.',
      ],
      constants: [
        {
          name: 'FRAMEWORKS',
          value: phpLiteral(frameworks.map((f) => f.name)),
          docs: ['The PHP framework integrations (the `{framework}` of the tags).'],
        },
        {
          name: 'FAILURES',
          value: phpLiteral(Object.fromEntries(failures.map((f) => [f.kind, row(f)]))),
          docs: [
            'How every integration reports each kind of failure: the reporting method (severity and',
            'priority; a log record by its PSR-3 level, `levels`), the place in the card title',
            '(`Class: masked message (place)`) and the tags. `{method}` is the HTTP method, `{route}`',
            "the framework's route pattern, `{command}` the console command, `{job}` the queued job's",
            "or message's class, `{channel}` the log channel, `{framework}` the integration. Kinds",
            'with `report` false make no card.',
          ],
        },
      ],
    },
  });
}
