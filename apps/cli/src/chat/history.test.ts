import { readFile, stat, writeFile } from 'node:fs/promises';
import { redactSecrets } from '@tiny-claw/core/utils';
import { createTempWorkspace, type TempWorkspace } from '@tiny-claw/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendHistory, HISTORY_LINES, historyPath, readHistory } from './history.js';

let ws: TempWorkspace;
beforeEach(async () => {
  ws = await createTempWorkspace({});
});
afterEach(() => ws.cleanup());

describe('the chat history of a workdir', () => {
  it('is one file per workdir hash under the state dir', () => {
    expect(historyPath('/state', 'cli-1a2b3c4d5e6f-default')).toBe(
      '/state/chat-history/1a2b3c4d5e6f.jsonl',
    );
  });

  it('keeps prompts in order, multi-line ones whole, in a private file', async () => {
    const path = historyPath(ws.dir, 'cli-1a2b3c4d5e6f-default');
    await appendHistory(path, 'first', redactSecrets);
    await appendHistory(path, 'two\nlines', redactSecrets);
    expect(await readHistory(path)).toEqual(['first', 'two\nlines']);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
  });

  it.each([
    ['password=hunter2222 please', 'hunter2222'],
    ['use sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD now', 'sk-proj-abcdefghij'],
  ])('redacts secrets before they reach the file: %j', async (prompt, secret) => {
    const path = historyPath(ws.dir, 'cli-1a2b3c4d5e6f-default');
    await appendHistory(path, prompt, redactSecrets);
    const kept = await readFile(path, 'utf8');
    expect(kept).not.toContain(secret);
    expect(kept).toContain('[REDACTED:');
  });

  it('shows control characters of a recalled prompt as escapes, never as terminal commands', async () => {
    const path = ws.path('history.jsonl');
    await writeFile(path, `${JSON.stringify({ prompt: 'a\x1b]0;owned\x07b\nc' })}\n`);
    expect(await readHistory(path)).toEqual(['a\\x1b]0;owned\\x07b\nc']);
  });

  it('reads a missing file as empty, skips torn lines, and offers only the latest prompts', async () => {
    const path = ws.path('history.jsonl');
    expect(await readHistory(path)).toEqual([]);
    const lines = Array.from({ length: HISTORY_LINES + 3 }, (_, i) =>
      JSON.stringify({ prompt: `p${i}` }),
    );
    await writeFile(path, `{"prompt":\n${lines.join('\n')}\n[1,2]\n`);
    const read = await readHistory(path);
    expect(read).toHaveLength(HISTORY_LINES);
    expect(read.at(-1)).toBe(`p${HISTORY_LINES + 2}`);
  });
});
