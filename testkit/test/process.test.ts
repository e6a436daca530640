import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { spawnProcess } from '../src/process.js';

describe('spawnProcess', () => {
  it('matches output written in colours (as vite preview prints under FORCE_COLOR)', async () => {
    const script = String.raw`process.stdout.write('  \u001b[32m➜\u001b[39m  \u001b[1mLocal\u001b[22m:   \u001b[36mhttp://127.0.0.1:\u001b[1m4173\u001b[22m/\u001b[39m\n')`;
    const proc = spawnProcess(process.execPath, ['-e', script]);
    const match = await proc.waitFor(/Local:\s+(http\S+)/, 10_000);
    expect(match[1]).toBe('http://127.0.0.1:4173/');
    await proc.exited;
    expect(proc.output()).toBe('  ➜  Local:   http://127.0.0.1:4173/\n');
  });

  it('rejects with the output when the process ends before the pattern', async () => {
    const proc = spawnProcess(process.execPath, ['-e', 'console.log("bye")']);
    await expect(proc.waitFor(/never/, 10_000)).rejects.toThrow(
      /process exited before \/never\/; output:\nbye/,
    );
  });

  it('kill reaches what the process started (npm start -> next start -> next-server)', async () => {
    // A parent that starts a long-lived grandchild and prints its pid, as npm does.
    const parent = String.raw`const { spawn } = require('node:child_process');
      const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
      console.log('grandchild ' + child.pid);
      setInterval(() => {}, 1000);`;
    const proc = spawnProcess(process.execPath, ['-e', parent]);
    const [, pid] = await proc.waitFor(/grandchild (\d+)/, 10_000);
    // Running, not a zombie: PID 1 of a container may never reap a killed orphan.
    const alive = (id: number) => {
      try {
        return readFileSync(`/proc/${id}/stat`, 'utf8').split(' ')[2] !== 'Z';
      } catch {
        return false;
      }
    };
    expect(alive(Number(pid))).toBe(true);
    proc.kill();
    await proc.exited;
    for (let i = 0; i < 50 && alive(Number(pid)); i++) await new Promise((r) => setTimeout(r, 20));
    expect(alive(Number(pid))).toBe(false);
  });
});
