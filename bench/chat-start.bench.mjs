// Time to the first chat prompt: `tiny-claw chat` in a pseudo-terminal (util-linux `script`) until
// its prompt is on screen, against the floor `node -e 0` run through the same `script` wrapper, the
// two interleaved so machine noise hits them alike (goal: ≤ 1.3× the floor). The agent loads after
// the prompt is shown, so this is the start-up a person waits for before typing.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { quick, repoRoot, report, round, stats } from './lib.mjs';

const bin = join(repoRoot, 'apps/cli/bin/tiny-claw.js');
const runs = Number(process.env.BENCH_RUNS ?? (quick ? 7 : 15));
const warmup = 2;
const PROMPT = '› ';
const state = mkdtempSync(join(tmpdir(), 'tiny-claw-bench-chat-'));

const quote = (word) => `'${word.replaceAll("'", "'\\''")}'`;

/** Milliseconds from spawning `args` in a terminal until `marker` is printed (or it exits). */
function once(args, marker) {
  const command = [process.execPath, ...args].map(quote).join(' ');
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn('script', ['-qec', command, '/dev/null'], {
      cwd: state,
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: state,
        TERM: 'dumb',
        NO_COLOR: '1',
        XDG_CONFIG_HOME: join(state, 'config'),
        TINY_CLAW_STATE_DIR: join(state, 'state'),
        TINY_CLAW_PROVIDER: 'echo',
      },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    let output = '';
    let ms;
    const elapsed = () => Number(process.hrtime.bigint() - start) / 1e6;
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      output += chunk;
      if (ms === undefined && marker !== undefined && output.includes(marker)) {
        ms = elapsed();
        child.stdin.write('\x04'); // Ctrl-D: leave
      }
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (marker === undefined) resolve(elapsed());
      else if (ms === undefined) reject(new Error(`no prompt (exit ${code}):\n${output}`));
      else resolve(ms);
    });
  });
}

const samples = { floor: [], chat: [] };
try {
  for (let i = 0; i < runs + warmup; i += 1) {
    const floor = await once(['-e', '0'], undefined);
    const chat = await once([bin, 'chat'], PROMPT);
    if (i >= warmup) {
      samples.floor.push(floor);
      samples.chat.push(chat);
    }
  }
} finally {
  rmSync(state, { recursive: true, force: true });
}
const floor = stats(samples.floor).median;
const ratio = stats(samples.chat).median / floor;
report(
  'chat-start',
  [
    {
      measure: 'node -e 0 in a terminal (floor), median',
      figure: round(floor, 1),
      unit: 'ms',
      goal: '—',
    },
    {
      measure: 'tiny-claw chat, first prompt, median',
      figure: round(stats(samples.chat).median, 1),
      unit: 'ms',
      goal: '—',
    },
    {
      measure: 'tiny-claw chat first prompt / floor',
      figure: round(ratio, 3),
      unit: '×',
      goal: '≤ 1.3×',
      pass: ratio <= 1.3,
    },
  ],
  { runs, samples },
);
