import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../errors.js';
import { loadScript, parseScript } from './script.js';
import { SCRIPT_EXHAUSTED_TEXT, ScriptedProvider } from './scripted-provider.js';

const request = { messages: [], tools: [], toolChoice: 'auto' as const };

describe('ScriptedProvider', () => {
  it('serves turns in order, then answers "(script exhausted)"', async () => {
    const provider = new ScriptedProvider({
      turns: [
        { text: 'one', tool_calls: [{ name: 'read', arguments: { path: 'a.txt' } }] },
        { text: 'two' },
      ],
    });
    const first = await provider.complete(request);
    expect(first.message).toEqual({
      role: 'assistant',
      content: 'one',
      toolCalls: [{ id: 'call_1_1', name: 'read', arguments: { path: 'a.txt' } }],
    });
    expect((await provider.complete(request)).message.content).toBe('two');
    expect((await provider.complete(request)).message.content).toBe(SCRIPT_EXHAUSTED_TEXT);
    expect((await provider.complete(request)).message.content).toBe(SCRIPT_EXHAUSTED_TEXT);
  });

  it('reports raw string arguments that are not a JSON object as an arguments error', async () => {
    const provider = new ScriptedProvider({
      turns: [
        {
          tool_calls: [
            { name: 'read', arguments: '[1]' },
            { name: 'read', arguments: '{"path":"a"}' },
          ],
        },
      ],
    });
    const [bad, good] = (await provider.complete(request)).message.toolCalls ?? [];
    expect(bad?.argumentsError).toContain('must be a JSON object');
    expect(good).toEqual({ id: 'call_1_2', name: 'read', arguments: { path: 'a' } });
  });

  it('streams the turn text to onTextDelta', async () => {
    const deltas: string[] = [];
    await new ScriptedProvider({ turns: [{ text: 'hey' }] }).complete(request, {
      onTextDelta: (t) => deltas.push(t),
    });
    expect(deltas).toEqual(['hey']);
  });
});

describe('script files', () => {
  it('names the file and the bad field of an invalid script', () => {
    expect(() => parseScript({ turns: [{ txt: 'x' }] }, 'demo.json')).toThrowError(
      ConfigurationError,
    );
    expect(() => parseScript({ turns: [{ txt: 'x' }] }, 'demo.json')).toThrow(
      /Invalid script demo\.json:[\s\S]*turns\.0/,
    );
  });

  it('rejects a missing file and invalid JSON with a configuration error', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tc-script-'));
    await expect(loadScript(join(dir, 'missing.json'))).rejects.toThrow(/Cannot read script file/);
    await writeFile(join(dir, 'bad.json'), '{"turns": [');
    await expect(loadScript(join(dir, 'bad.json'))).rejects.toThrow(/is not valid JSON/);
    await writeFile(join(dir, 'ok.json'), '{"turns": [{"text": "hi"}]}');
    expect(await loadScript(join(dir, 'ok.json'))).toEqual({ turns: [{ text: 'hi' }] });
  });
});
