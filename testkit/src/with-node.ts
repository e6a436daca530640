// `tsx testkit/src/with-node.ts <major> <command> [args...]`: runs the command on the Node of that
// major from npm (./nodes.ts: first on PATH, npm's nodedir set), or as is where it is not installed.
// The build runs tsdown this way: tsdown warns on every start under a Node older than 22.18.
import { spawnSync } from 'node:child_process';
import { NODE_MAJORS, type NodeMajor, nodeEnv, testNode } from './nodes.ts';

const [major, command, ...args] = process.argv.slice(2);
if (!NODE_MAJORS.includes(Number(major) as NodeMajor) || !command) {
  console.error(`usage: with-node.ts <${NODE_MAJORS.join('|')}> <command> [args...]`);
  process.exit(2);
}
const node = testNode(Number(major) as NodeMajor);
const run = spawnSync(command, args, {
  stdio: 'inherit',
  env: node ? nodeEnv(node) : process.env,
});
process.exitCode = run.status ?? 1;
