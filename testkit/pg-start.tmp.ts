import { writeFileSync } from 'node:fs';
import { startPostgres } from './src/postgres.ts';
const pgs = await startPostgres();
writeFileSync('/tmp/triage/pg-url', pgs.url);
console.log(pgs.url);
process.on('SIGTERM', async () => { await pgs.stop(); process.exit(0); });
setInterval(() => {}, 1 << 30);
