// `npm test`'s vitest step (run with tsx): vitest on Node 24 from npm for every project, then on
// this machine's Node for the projects whose packages claim it (./legs.ts), one after the other.
// Arguments go to every run; `--outputFile=<f>` (the JSON reporter's) becomes one file per run
// (`<f>.node24.json`...) and `<f>` their sum (the counts CI prints). Exits 1 if any run failed.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { REPO_ROOT } from './generated-app.ts';
import { AFTER_NODE24_LEG, type Leg, projectsClaiming } from './legs.ts';
import { nodeEnv, testNode } from './nodes.ts';

const VITEST = join(REPO_ROOT, 'node_modules/vitest/vitest.mjs');

function legs(): Leg[] {
  const node24 = testNode(24);
  const here = process.versions.node;
  if (!node24) {
    return [
      {
        name: `node${here.split('.')[0]}`,
        execPath: process.execPath,
        env: process.env,
        why: `every project on this machine's Node ${here}: no Node 24 from npm for ${process.platform}-${process.arch}`,
      },
    ];
  }
  const all: Leg = {
    name: 'node24',
    execPath: node24.execPath,
    env: nodeEnv(node24),
    why: `every project on Node ${node24.version} (testkit/nodes)`,
  };
  if (here.split('.')[0] === '24') return [all];
  const projects = projectsClaiming(here);
  return [
    all,
    {
      name: `node${here.split('.')[0]}`,
      execPath: process.execPath,
      env: { ...process.env, [AFTER_NODE24_LEG]: node24.version },
      projects,
      why: `${projects.join(', ')} on this machine's Node ${here} (their packages claim it)`,
    },
  ];
}

/** The JSON reporter's file named in `args` (`--outputFile=f` or `--outputFile f`), and the rest. */
function splitOutputFile(args: string[]): { rest: string[]; output?: string } {
  const at = args.findIndex((a) => a === '--outputFile' || a.startsWith('--outputFile='));
  if (at < 0) return { rest: args };
  const inline = args[at]!.startsWith('--outputFile=');
  const output = inline ? args[at]!.slice('--outputFile='.length) : args[at + 1];
  return { rest: args.filter((_, i) => i !== at && (inline || i !== at + 1)), output };
}

/** Sums the counts of the legs' JSON results into `target` (what .ci/run prints). */
function sumResults(files: string[], target: string): void {
  const keys = ['numPassedTests', 'numFailedTests', 'numTotalTests', 'numRuntimeErrorTestSuites'];
  const sum: Record<string, unknown> = Object.fromEntries(keys.map((k) => [k, 0]));
  sum.legs = files;
  for (const file of files) {
    let result: Record<string, number>;
    try {
      result = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      (sum.numRuntimeErrorTestSuites as number)++; // a run that wrote nothing failed
      continue;
    }
    for (const k of keys) (sum[k] as number) += result[k] ?? 0;
  }
  writeFileSync(target, `${JSON.stringify(sum, null, 2)}\n`);
}

interface LegResult {
  testResults?: {
    name: string;
    status: string;
    message?: string;
    assertionResults?: { status: string; fullName: string }[];
  }[];
}

/**
 * One line per failed test (or file that failed to run) of each leg's JSON results, printed last
 * so the end of a long log says what failed in every leg.
 */
function failedLines(files: string[]): string[] {
  const lines: string[] = [];
  for (const file of files) {
    const leg = file
      .replace(/\.json$/, '')
      .split('.')
      .pop();
    let result: LegResult;
    try {
      result = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      lines.push(`[test] ${leg}: no results written`);
      continue;
    }
    for (const suite of result.testResults ?? []) {
      const where = relative(REPO_ROOT, suite.name);
      const failed = (suite.assertionResults ?? []).filter((a) => a.status === 'failed');
      for (const a of failed) lines.push(`[test] ${leg} failed: ${where} > ${a.fullName}`);
      if (!failed.length && suite.status === 'failed')
        lines.push(`[test] ${leg} failed: ${where}: ${(suite.message ?? '').split('\n')[0]}`);
    }
  }
  return lines;
}

function main(args: string[]): number {
  const { rest, output } = splitOutputFile(args);
  let failed = false;
  const outputs: string[] = [];
  for (const leg of legs()) {
    const file = output && `${output.replace(/\.json$/, '')}.${leg.name}.json`;
    if (file) outputs.push(file);
    const projects = (leg.projects ?? []).flatMap((p) => ['--project', p]);
    const vitestArgs = [
      VITEST,
      'run',
      ...projects,
      ...rest,
      ...(file ? [`--outputFile=${file}`] : []),
    ];
    console.log(`\n[test] ${leg.name}: ${leg.why}\n`);
    const started = Date.now();
    const run = spawnSync(leg.execPath, vitestArgs, {
      cwd: REPO_ROOT,
      env: leg.env,
      stdio: 'inherit',
    });
    const seconds = Math.round((Date.now() - started) / 1000);
    console.log(`\n[test] ${leg.name}: exit ${run.status ?? run.signal} in ${seconds} s`);
    failed ||= run.status !== 0;
  }
  if (output) {
    sumResults(outputs, output);
    for (const line of failedLines(outputs)) console.log(line);
  }
  return failed ? 1 : 0;
}

process.exitCode = main(process.argv.slice(2));
