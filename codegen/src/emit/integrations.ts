// Emits runtime/src/generated/integrations.gen.ts from the `js` rows of `x-svc-integrations`: the
// framework names, the public prefix of each framework's browser builds (contract 5.5), and the
// failure kinds with the reporting method, title place and tag templates every integration uses.
// The runtime kit (`runtime/src/kit/`) fills the templates; the integrations never restate them.
// The PHP SDK's rows go to php/src/Generated/Integrations.gen.php (./php/integrations.ts).
import { integrationsOf, type Model } from '../model.ts';
import { type Artifact, asConst, constant, createProject, printStatements } from './common.ts';

export const INTEGRATIONS_PATH = 'runtime/src/generated/integrations.gen.ts';

export function emitIntegrations(model: Model): Artifact {
  const { frameworks, failures } = integrationsOf(model.integrations, 'js');
  const prefixes = Object.fromEntries(
    frameworks.filter((f) => f.publicPrefix).map((f) => [f.name, f.publicPrefix]),
  );
  const table = Object.fromEntries(
    failures.map((f) => [
      f.kind,
      f.report
        ? {
            report: true,
            side: f.side,
            severity: f.severity,
            priority: f.priority,
            method: f.method,
            place: f.place,
            tags: f.tags,
          }
        : { report: false },
    ]),
  );
  const text = printStatements(createProject(), INTEGRATIONS_PATH, [
    constant('FRAMEWORKS', asConst(frameworks.map((f) => f.name)), ['The framework integrations.']),
    'export type FrameworkName = (typeof FRAMEWORKS)[number];',
    constant('PUBLIC_PREFIXES', asConst(prefixes), [
      "The prefix under which a framework's browser builds read a public setting (contract 5.5):",
      '`VITE_` + `SERVICE_API_KEY`.',
    ]),
    constant('FAILURES', asConst(table), [
      'How every integration reports each kind of failure: the reporting method (severity and',
      'priority), the place in the card title and the tags. `{method}` is the HTTP method, `{route}`',
      "the framework's route pattern, `{ui}` the component library, `{framework}` the integration.",
      'Kinds with `report: false` make no card.',
    ]),
    'export type FailureKindName = keyof typeof FAILURES;',
  ]);
  return { path: INTEGRATIONS_PATH, text };
}
