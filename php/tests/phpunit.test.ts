// Runs the PHP SDK's PHPUnit suite (php/tests, Debian's phpunit 9.6) and turns every PHPUnit test
// into one vitest test, so its results count in `npm test`'s totals. Without php or its extensions
// or phpunit on the PATH, prints one line naming the missing Debian packages and skips. The
// framework groups (laravel, symfony, monolog) are left out the same way when their Debian
// packages are missing.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { APT_INSTALL, GROUPS, missingCore, missingFrameworks } from './harness/debian.ts';

const PACKAGE = fileURLToPath(new URL('..', import.meta.url));

/** The testsuites of phpunit.xml.dist that need Debian's framework packages (one group each). */
const FRAMEWORK_SUITES = ['laravel', 'symfony', 'monolog'];

interface Case {
  suite: string;
  name: string;
  problem?: string;
}

const decode = (text: string) =>
  text
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** The test cases of a PHPUnit JUnit report, with the failure, error or skip text of each. */
function parseJunit(xml: string): Case[] {
  const cases: Case[] = [];
  for (const m of xml.matchAll(/<testcase\s([^>]*?)(?:\/>|>([\s\S]*?)<\/testcase>)/g)) {
    const attrs = Object.fromEntries(
      [...m[1]!.matchAll(/(\w+)="([^"]*)"/g)].map((a) => [a[1], decode(a[2]!)]),
    );
    const body = m[2] ?? '';
    const problem = /<(failure|error)[^>]*>([\s\S]*?)<\/\1>/.exec(body);
    const skipped = /<skipped/.test(body);
    cases.push({
      suite: String(attrs.class ?? attrs.classname ?? 'phpunit').replace(/^Svc\\Tests\\/, ''),
      name: String(attrs.name),
      problem: problem ? decode(problem[2]!) : skipped ? 'skipped by PHPUnit' : undefined,
    });
  }
  return cases;
}

/** Runs PHPUnit once; resolves with its exit code, output and JUnit report. */
function runPhpunit(
  excludeGroups: string[],
): Promise<{ code: number | null; output: string; cases: Case[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-phpunit-'));
  const junit = join(dir, 'junit.xml');
  return new Promise((resolve) => {
    // The black-box suite starts the reference service with this Node (tests/harness/service.mjs).
    const env = { ...process.env, SVC_NODE: process.execPath };
    // The framework suites are also groups (PackageTest checks them); a missing group's suite is
    // not loaded at all (its test classes extend the framework's).
    const suites = [
      'unit',
      'black-box',
      ...FRAMEWORK_SUITES.filter((s) => !excludeGroups.includes(s)),
    ];
    const exclude = excludeGroups.length ? ['--exclude-group', excludeGroups.join(',')] : [];
    const args = ['--log-junit', junit, '--testsuite', suites.join(','), ...exclude];
    const child = spawn('phpunit', args, { cwd: PACKAGE, env });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (code) => {
      let cases: Case[] = [];
      try {
        cases = parseJunit(readFileSync(junit, 'utf8'));
      } catch {
        // no report: the run itself failed, shown by the exit-status test
      }
      rmSync(dir, { recursive: true, force: true });
      resolve({ code, output, cases });
    });
  });
}

const missing = missingCore();
if (missing.length > 0) {
  const line = `PHP SDK suite skipped: install the Debian packages ${missing.join(', ')} (${APT_INSTALL})`;
  console.log(line);
  describe.skip('php', () => {
    it(line, () => {});
  });
} else {
  const absent = missingFrameworks();
  const excluded = Object.entries(GROUPS)
    .filter(([, packages]) => packages.some((p) => absent.includes(p)))
    .map(([group]) => group);
  if (excluded.length > 0)
    console.log(
      `PHP SDK suite: groups ${excluded.join(', ')} skipped: install the Debian packages ${absent.join(', ')} (${APT_INSTALL})`,
    );
  const run = await runPhpunit(excluded);
  describe('php', () => {
    it('PHPUnit runs clean (exit status 0, no warnings or risky tests)', () => {
      expect(run.code, run.output.slice(-4000)).toBe(0);
      expect(run.cases.length, run.output.slice(-4000)).toBeGreaterThan(100);
    });
    const suites = new Map<string, Case[]>();
    for (const c of run.cases) suites.set(c.suite, [...(suites.get(c.suite) ?? []), c]);
    for (const [suite, cases] of suites) {
      describe(suite, () => {
        for (const c of cases) {
          it(c.name, () => {
            if (c.problem !== undefined) throw new Error(c.problem);
          });
        }
      });
    }
  });
}
