// The repository's two structure rules, read with TypeScript's own parser: no hand-written
// function over 100 lines, no import circle. `test/structure.test.ts` runs them over the packages'
// sources; the functions here take any folder, so a test can plant an offender and see it caught.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** Longest body a hand-written function may have, in lines. */
export const MAX_FUNCTION_LINES = 100;

const SOURCE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;
const GENERATED = /\.gen\.ts$/;
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'generated-fixtures']);

/** A function whose body is longer than the limit. */
export interface LongFunction {
  /** Path relative to the root given, `/`-separated. */
  file: string;
  /** The name a reader finds it by: the function's, the method's or the variable's it is bound to. */
  name: string;
  /** 1-based line where the function starts. */
  line: number;
  /** Lines from the function's first (its signature, decorators and comments aside) to its last. */
  lines: number;
}

/** The source files under `dirs` (relative to `root`), generated ones aside, sorted. */
export function sourceFiles(root: string, dirs: readonly string[]): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir)) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) {
        if (!SKIPPED_DIRS.has(entry)) walk(path);
      } else if (SOURCE.test(entry) && !GENERATED.test(entry) && !entry.endsWith('.d.ts')) {
        found.push(path);
      }
    }
  };
  for (const dir of dirs) walk(resolve(root, dir));
  return found.sort();
}

const parsed = new Map<string, { text: string; file: ts.SourceFile }>();

/** A file parsed once while its text stays the same (both rules read every file). */
function parse(path: string): ts.SourceFile {
  const text = readFileSync(path, 'utf8');
  const known = parsed.get(path);
  if (known?.text === text) return known.file;
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  parsed.set(path, { text, file });
  return file;
}

function lineOf(file: ts.SourceFile, pos: number): number {
  return file.getLineAndCharacterOfPosition(pos).line + 1;
}

/** A function's own name: its name, else the property or variable it is bound to. */
function ownName(node: ts.FunctionLikeDeclaration, file: ts.SourceFile): string | null {
  if (node.name) return node.name.getText(file);
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if (
    (ts.isVariableDeclaration(parent) ||
      ts.isPropertyAssignment(parent) ||
      ts.isPropertyDeclaration(parent)) &&
    parent.name
  ) {
    return parent.name.getText(file);
  }
  if (ts.isBinaryExpression(parent)) return parent.left.getText(file);
  if (ts.isExportAssignment(parent)) return 'default';
  return null;
}

/** What an unnamed function is to the code around it: a callback, a returned function. */
function anonymousRole(node: ts.FunctionLikeDeclaration, file: ts.SourceFile): string {
  let parent = node.parent;
  while (ts.isParenthesizedExpression(parent) || ts.isAsExpression(parent)) parent = parent.parent;
  if (ts.isCallExpression(parent) || ts.isNewExpression(parent)) {
    return `callback of ${parent.expression.getText(file)}`;
  }
  if (ts.isReturnStatement(parent) || ts.isArrowFunction(parent)) return 'returned function';
  return 'anonymous function';
}

/**
 * The name a reader finds a function by, and the allowlist keys it by (no line number, so edits
 * above it do not move it): the enclosing functions' and classes' names, then its own, joined by
 * ` > `, e.g. `registerBoard > callback of app.register`, `Store > ingest`.
 */
function functionName(node: ts.FunctionLikeDeclaration, file: ts.SourceFile): string {
  const parts = [ownName(node, file) ?? anonymousRole(node, file)];
  for (let up = node.parent; up && !ts.isSourceFile(up); up = up.parent) {
    if (ts.isClassLike(up) && up.name) parts.unshift(up.name.text);
    else if (ts.isFunctionLike(up) && 'body' in up) {
      const fn = up as ts.FunctionLikeDeclaration;
      parts.unshift(ownName(fn, file) ?? anonymousRole(fn, file));
    }
  }
  return parts.join(' > ');
}

/**
 * Every function declaration, method (constructors and accessors included), arrow function and
 * function expression that spans more than `max` lines, from its signature's first line to its
 * body's last (leading comments aside). Nested functions count on their own and inside their
 * parent.
 */
export function longFunctions(
  root: string,
  files: readonly string[],
  max = MAX_FUNCTION_LINES,
): LongFunction[] {
  const long: LongFunction[] = [];
  for (const path of files) {
    const file = parse(path);
    const visit = (node: ts.Node): void => {
      if (ts.isFunctionLike(node) && 'body' in node && node.body) {
        const fn = node as ts.FunctionLikeDeclaration;
        const first = lineOf(file, fn.getStart(file));
        const lines = lineOf(file, fn.getEnd()) - first + 1;
        if (lines > max) {
          long.push({
            file: relative(root, path).split('\\').join('/'),
            name: functionName(fn, file),
            line: first,
            lines,
          });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return long;
}

/**
 * The module specifiers a file refers to: imports (`import type` included), re-exports,
 * `import x = require()`, type queries `typeof import('x')` and `import('x')` expressions.
 */
export function moduleReferences(path: string): string[] {
  const file = parse(path);
  const specifiers: string[] = [];
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      specifiers.push(node.moduleSpecifier.text);
    } else if (ts.isExternalModuleReference(node) && ts.isStringLiteral(node.expression)) {
      specifiers.push(node.expression.text);
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      specifiers.push(node.argument.literal.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      specifiers.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return specifiers;
}

/** The file a relative specifier names: `./x.js` may be `x.ts`, `./x` may be `x/index.ts`. */
function resolveImport(from: string, specifier: string, known: ReadonlySet<string>): string | null {
  const base = resolve(dirname(from), specifier);
  const stem = base.replace(/\.(js|mjs|cjs|jsx)$/, '');
  const candidates = [
    base,
    `${stem}.ts`,
    `${stem}.tsx`,
    `${stem}.mts`,
    `${stem}.cts`,
    `${base}.ts`,
    `${base}.tsx`,
    join(base, 'index.ts'),
    join(base, 'index.tsx'),
    join(base, 'index.js'),
  ];
  return candidates.find((c) => known.has(c)) ?? null;
}

/** The import graph of `files`: each file and the files it imports statically (types included). */
export function importGraph(files: readonly string[]): Map<string, string[]> {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const path of files) {
    const targets = moduleReferences(path)
      .filter((s) => s.startsWith('./') || s.startsWith('../'))
      .map((s) => resolveImport(path, s, known))
      .filter((t): t is string => t !== null);
    graph.set(path, [...new Set(targets)].sort());
  }
  return graph;
}

/**
 * The import circles among `files`: each strongly connected set of two or more files (or one file
 * importing itself), as paths relative to `root`, sorted. Tarjan's algorithm, iterative.
 */
export function importCircles(root: string, files: readonly string[]): string[][] {
  const graph = importGraph(files);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const circles: string[][] = [];
  let next = 0;
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: Array<{ node: string; edge: number }> = [{ node: start, edge: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const top = work[work.length - 1]!;
      const edges = graph.get(top.node)!;
      if (top.edge < edges.length) {
        const to = edges[top.edge++]!;
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, edge: 0 });
        } else if (onStack.has(to)) {
          low.set(top.node, Math.min(low.get(top.node)!, index.get(to)!));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1]!.node;
        low.set(parent, Math.min(low.get(parent)!, low.get(top.node)!));
      }
      if (low.get(top.node) === index.get(top.node)) {
        const members: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          members.push(member);
        } while (member !== top.node);
        if (members.length > 1 || graph.get(top.node)!.includes(top.node)) {
          circles.push(members.map((m) => relative(root, m).split('\\').join('/')).sort());
        }
      }
    }
  }
  return circles.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/** The folders of hand-written code a package may hold: its sources and its bin shims. */
export const PACKAGE_CODE_DIRS = ['src', 'bin'] as const;

/**
 * The folders the rules cover, found on disk (no list to keep): each package's `src` and `bin`,
 * for every folder at the root and under `integrations/` that has them, so a package that lands
 * is covered the day it lands.
 */
export function packageSourceDirs(root: string): string[] {
  const dirs: string[] = [];
  for (const parent of ['.', 'integrations']) {
    for (const entry of readdirSync(resolve(root, parent)).sort()) {
      for (const code of PACKAGE_CODE_DIRS) {
        const dir = join(parent, entry, code).split('\\').join('/');
        if (isDirectory(resolve(root, dir))) dirs.push(dir);
      }
    }
  }
  return dirs;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** What breaks the rules under `dirs`, one line each: a function over the limit, an import circle. */
export function structureProblems(root: string, dirs: readonly string[]): string[] {
  const files = sourceFiles(root, dirs);
  const long = longFunctions(root, files).map(
    (f) =>
      `${f.file}:${f.line} ${f.name} is ${f.lines} lines (at most ${MAX_FUNCTION_LINES}): split it by concern`,
  );
  const circles = importCircles(root, files).map(
    (circle) => `import circle: ${circle.join(' <-> ')}`,
  );
  return [...long, ...circles];
}
