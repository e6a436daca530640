// Runs bench/php/sync-cost.php in the three PHP configurations users run: opcache off (the CLI
// default), opcache on (as under PHP-FPM), opcache with the tracing JIT. Skips with a line naming
// the Debian package when php is missing.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('./sync-cost.php', import.meta.url));
if (spawnSync('php', ['-v']).status !== 0) {
  console.log(
    'bench/php skipped: php is not on the PATH (apt-get install php-cli php-curl php-mbstring)',
  );
  process.exit(0);
}
const configurations = [
  [],
  ['-d', 'opcache.enable_cli=1'],
  ['-d', 'opcache.enable_cli=1', '-d', 'opcache.jit_buffer_size=64M', '-d', 'opcache.jit=tracing'],
];
for (const flags of configurations) {
  const run = spawnSync('php', [...flags, script, ...process.argv.slice(2)], { stdio: 'inherit' });
  if (run.status !== 0) process.exit(run.status ?? 1);
}
