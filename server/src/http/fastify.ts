import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import Fastify from 'fastify';
import { codeFromStringsAllowed } from '../core/code-from-strings.ts';

// Fastify in a process that forbids building code from strings (`node
// --disallow-code-generation-from-strings`, as hardened hosts run). Its router, find-my-way 9,
// builds small functions with `new Function` for every route it registers (a static prefix's
// matcher, a route's params object, its handler choice by constraints, the constraints' reader);
// nothing else Fastify does here needs it (no route has a schema, the router's compiled mode is
// off). In such a process, and only there, Fastify is loaded again with those written as closures
// of the same behaviour: find-my-way's node module from its own source with that one function
// replaced (an exact anchor: a find-my-way that changed fails the start with this file's name,
// never silently), the others replaced on their classes' prototypes. The request schemas are interpreted for the same reason
// (core/schema-check.ts). test/http/no-code-generation.test.ts starts the service under the flag.

/** find-my-way's static prefix matcher, built from a string (lib/node.js `compilePrefixMatch`). */
const PREFIX_MATCH_FROM_STRING =
  // biome-ignore lint/suspicious/noTemplateCurlyInString: find-my-way's source text, matched verbatim
  "  return new Function('path', 'i', `'use strict'\\nreturn ${lines.join(' && ')}`) // eslint-disable-line";
/** The same matcher as a closure: each char of the prefix after the first, at its offset. */
const PREFIX_MATCH_CLOSURE = `  return function matchPrefix (path, i) {
    for (let k = 1; k < prefix.length; k++) {
      if (path.charCodeAt(i + k) !== prefix.charCodeAt(k)) return false
    }
    return true
  }`;

interface CjsModule {
  filename: string;
  paths: string[];
  loaded: boolean;
  _compile(source: string, filename: string): void;
}
type ModuleClass = (new (id: string) => CjsModule) & { _nodeModulePaths(dir: string): string[] };
type NullObjectClass = new () => Record<string, unknown>;

interface Strategy {
  name: string;
  isCustom?: boolean;
  mustMatchWhenDerived?: boolean;
  deriveConstraint(req: unknown, ctx: unknown): unknown;
}
interface ConstraintStore {
  get(value: unknown): number | undefined;
}
interface Constrainer {
  strategies: Record<string, Strategy>;
  strategiesInUse: Set<string>;
  deriveSyncConstraints?: (req: unknown, ctx: unknown) => Record<string, unknown>;
  newStoreForConstraint(constraint: string): ConstraintStore;
}
interface HandlerStorage {
  constraints: string[];
  handlers: unknown[];
  constrainedHandlerStores: Record<string, ConstraintStore> | null;
  _getHandlerMatchingConstraints(derived: Record<string, unknown>): unknown;
  _buildConstraintStore(store: ConstraintStore, constraint: string): void;
  _constrainedIndexBitmask(constraint: string): number;
}

/**
 * find-my-way's `HandlerStorage#_compileGetHandlerMatchingConstraints` as a closure: the
 * candidates bitmap narrowed constraint by constraint, the highest candidate left chosen.
 */
function handlerMatchingConstraints(this: HandlerStorage, constrainer: Constrainer): void {
  const stores: Record<string, ConstraintStore> = {};
  this.constrainedHandlerStores = stores;
  for (const constraint of this.constraints) {
    stores[constraint] = constrainer.newStoreForConstraint(constraint);
    this._buildConstraintStore(stores[constraint], constraint);
  }
  const steps = this.constraints.map((constraint) => ({
    constraint,
    mask: this._constrainedIndexBitmask(constraint),
    mustMatch: constrainer.strategies[constraint]?.mustMatchWhenDerived === true,
  }));
  const mustBeAbsent = Object.keys(constrainer.strategies).filter(
    (c) => constrainer.strategies[c]!.mustMatchWhenDerived && !this.constraints.includes(c),
  );
  const all = (1 << this.handlers.length) - 1;
  const handlers = this.handlers;
  this._getHandlerMatchingConstraints = (derived) => {
    let candidates = all;
    for (const { constraint, mask, mustMatch } of steps) {
      const value = derived[constraint];
      if (value === undefined) candidates &= mask;
      else {
        const matches = stores[constraint]!.get(value) || 0;
        candidates &= mustMatch ? matches : matches | mask;
      }
      if (candidates === 0) return null;
    }
    for (const constraint of mustBeAbsent) if (derived[constraint] !== undefined) return null;
    return handlers[31 - Math.clz32(candidates)];
  };
}

/** find-my-way's `Constrainer#_buildDeriveConstraints` as a closure. */
function deriveConstraints(this: Constrainer): void {
  if (this.strategiesInUse.size === 0) return;
  const keys = [...this.strategiesInUse];
  this.deriveSyncConstraints = (req, ctx) => {
    const headers = (req as { headers: Record<string, string | undefined> }).headers;
    const derived: Record<string, unknown> = {};
    for (const key of keys) {
      const strategy = this.strategies[key]!;
      if (strategy.isCustom) derived[strategy.name] = strategy.deriveConstraint(req, ctx);
      else if (key === 'version') derived.version = headers['accept-version'];
      else derived.host = headers.host || headers[':authority'];
    }
    return derived;
  };
}

/** Fastify's factory: the one imported, or, where code from strings is forbidden, a copy whose router needs none. */
export function fastifyFactory(): typeof Fastify {
  if (codeFromStringsAllowed()) return Fastify;
  const here = createRequire(import.meta.url);
  const fastifyMain = here.resolve('fastify');
  const fromFastify = createRequire(fastifyMain);
  const router = fromFastify.resolve('find-my-way');
  const fromRouter = createRequire(router);
  const nodeFile = fromRouter.resolve('./lib/node.js');
  const source = readFileSync(nodeFile, 'utf8');
  if (!source.includes(PREFIX_MATCH_FROM_STRING))
    throw new Error(`svc-server: ${nodeFile} is not the find-my-way src/http/fastify.ts knows`);
  const Module = here('node:module') as ModuleClass;
  const node = new Module(nodeFile);
  node.filename = nodeFile;
  node.paths = Module._nodeModulePaths(dirname(nodeFile));
  node._compile(source.replace(PREFIX_MATCH_FROM_STRING, PREFIX_MATCH_CLOSURE), nodeFile);
  node.loaded = true;
  const { NullObject } = fromRouter('./lib/null-object.js') as { NullObject: NullObjectClass };
  const HandlerStorage = fromRouter('./lib/handler-storage.js') as {
    prototype: {
      _compileCreateParamsObject(params: string[]): unknown;
      _compileGetHandlerMatchingConstraints: typeof handlerMatchingConstraints;
    };
  };
  HandlerStorage.prototype._compileGetHandlerMatchingConstraints = handlerMatchingConstraints;
  const ConstrainerClass = fromRouter('./lib/constrainer.js') as {
    prototype: { _buildDeriveConstraints: typeof deriveConstraints };
  };
  ConstrainerClass.prototype._buildDeriveConstraints = deriveConstraints;
  HandlerStorage.prototype._compileCreateParamsObject = (names: string[]) =>
    function createParamsObject(...values: unknown[]) {
      // Values arrive by position: the first four as arguments, the rest in an array (the fifth).
      const params = new NullObject();
      names.forEach((name, i) => {
        params[name] = i < 4 ? values[i] : (values[4] as unknown[])[i - 4];
      });
      return params;
    };
  // Fresh copies of the modules holding the router's node module: Fastify's entry, its router
  // modules, the router's entry; then the patched node module in their way.
  for (const file of [
    fastifyMain,
    fromFastify.resolve('./lib/route.js'),
    fromFastify.resolve('./lib/four-oh-four.js'),
    router,
  ])
    delete here.cache[file];
  here.cache[nodeFile] = node as unknown as NodeJS.Module;
  return here(fastifyMain) as typeof Fastify;
}
