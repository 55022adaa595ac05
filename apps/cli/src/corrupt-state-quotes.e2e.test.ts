import { readdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTempWorkspace, runCli, type TempWorkspace } from '@tiny-claw/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

// The built CLI reading state files someone corrupted with terminal escape sequences: what it says
// about them quotes the file escaped and short, so nothing in the file can act on the terminal.
const bin = resolve(dirname(fileURLToPath(import.meta.url)), '../bin/tiny-claw.js');

/** Any control character but the newline, and the bidi overrides and isolates. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to find control characters.
const UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

const CORRUPT = [
  ['a title escape', '\x1b]0;pwned\x07{"broken'],
  ['a clipboard write', '{"a": \x1b]52;c;cm0gLXJmIH4=\x07}'],
  ['a screen clear and cursor move', '\x1b[2J\x1b[H not json'],
  ['an 8-bit CSI', '\u009b31m{'],
  ['a bidi override', '{\u202e"schemaVersion": 1'],
];

let ws: TempWorkspace;
let env: Record<string, string>;

beforeEach(async () => {
  ws = await createTempWorkspace({ 'a.txt': 'alpha\n' });
  env = { TINY_CLAW_STATE_DIR: ws.path('.state'), TINY_CLAW_WORKDIR: ws.dir };
});
afterEach(() => ws.cleanup());

const cli = (args: string[]) => runCli({ bin, args, env, cwd: ws.dir, timeoutMs: 60_000 });

/** The only session folder of the state dir. */
async function sessionDir(): Promise<string> {
  const [key] = await readdir(ws.path('.state/sessions'));
  return ws.path(`.state/sessions/${key}`);
}

describe('a corrupt state file is quoted escaped, never raw', () => {
  it.each(CORRUPT)(
    'a meta.json with %s: the warning on stderr holds no ESC or control byte',
    async (_what, text) => {
      expect((await cli(['run', 'hello'])).code).toBe(0);
      await writeFile(join(await sessionDir(), 'meta.json'), text);
      const result = await cli(['run', 'hello again']);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toMatch(/meta\.json is unreadable: it is not valid JSON/);
      expect(result.stderr).toMatch(/moved to .*meta\.json\.unreadable-/);
      expect(result.stderr).not.toMatch(UNSAFE);
      expect(result.stdout).not.toMatch(UNSAFE);
    },
  );

  it.each(CORRUPT)(
    'a trace file with %s: trace show says it is not valid JSON without a control byte',
    async (_what, text) => {
      const run = await cli(['run', 'hello']);
      expect(run.code).toBe(0);
      const traceId = /trace=\S*\/([0-9a-f]+)\.json/.exec(run.stderr)?.[1] as string;
      await writeFile(join(await sessionDir(), 'traces', `${traceId}.json`), text);
      const result = await cli(['trace', 'show', traceId]);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/is not valid JSON/);
      expect(result.stderr).not.toMatch(UNSAFE);
    },
  );
});
