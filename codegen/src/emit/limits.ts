// Emits the limits files: runtime/src/generated/limits.gen.ts (field limits and the SDK clamp, read
// from the TaskReport schema, and the source-map upload limits) and server/src/generated/limits.gen.ts
// (the same plus the variant cap, signature skew, project quota share, tag bounds, the plans table
// and the quota-warning thresholds from `x-svc-limits` / `x-svc-plans` / `x-svc-quota-warnings`).
import { StructureKind } from 'ts-morph';
import type { Model } from '../model.ts';
import {
  type Artifact,
  asConst,
  constant,
  createProject,
  doc,
  literal,
  printStatements,
} from './common.ts';

export const RUNTIME_LIMITS_PATH = 'runtime/src/generated/limits.gen.ts';
export const SERVER_LIMITS_PATH = 'server/src/generated/limits.gen.ts';

const untitled = (model: Model) =>
  constant('UNTITLED_TITLE', literal(model.untitledTitle), [
    'Title of a report that has no title and no non-empty description line.',
  ]);

const sourceMapLimits = (model: Model) =>
  constant('SOURCEMAP_LIMITS', asConst(model.sourceMaps), [
    "Source-map uploads (`x-svc-sourcemaps`): the reference service's defaults (bytes of one upload",
    'body, map bytes one project keeps, releases kept, `mappings` segments and sources one map may',
    'have; a deployment may set others) and the longest `release` and `path` an upload may name.',
  ]);

/** The limits a client applies: every field limit but the service's `descriptionMax`. */
function sdkLimits(model: Model): Omit<Model['limits'], 'descriptionMax'> {
  const { descriptionMax: _serviceOnly, ...sdk } = model.limits;
  return sdk;
}

export function emitRuntimeLimits(model: Model): Artifact {
  const text = printStatements(createProject(), RUNTIME_LIMITS_PATH, [
    constant('LIMITS', asConst(sdkLimits(model)), [
      'Field limits the SDK applies (characters, except `lineNumberMin` and `lineNumberMax`): it clamps',
      '`title` to `titleMax`, each tag to `tagMax`, `description` to `sdkDescriptionMax` and leaves out a',
      "`line_number` outside the bounds. (The service's own `descriptionMax` is not needed here.)",
    ]),
    untitled(model),
    sourceMapLimits(model),
  ]);
  return { path: RUNTIME_LIMITS_PATH, text };
}

export function emitServerLimits(model: Model): Artifact {
  const text = printStatements(createProject(), SERVER_LIMITS_PATH, [
    constant('LIMITS', asConst({ ...model.limits, ...model.serverLimits }), [
      'Field limits (as the runtime) plus: variants kept per card, signature timestamp skew in seconds',
      'either way, the share of the account quota one project may use (with >1 active project), the',
      'most tags one report may carry and the most one card keeps.',
    ]),
    untitled(model),
    sourceMapLimits(model),
    constant('PLANS', asConst(model.plans), [
      'Per plan: events per minute per project (burst) and daily events per account (quota).',
    ]),
    constant('WARNING_THRESHOLDS', asConst(model.quotaWarnings), [
      'Percentages of the daily quota at which the account is warned by e-mail, ascending.',
    ]),
    {
      kind: StructureKind.TypeAlias,
      isExported: true,
      name: 'PlanName',
      type: 'keyof typeof PLANS',
      docs: doc('A plan name.'),
    },
  ]);
  return { path: SERVER_LIMITS_PATH, text };
}
