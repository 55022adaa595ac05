import { describe, expect, it, vi } from 'vitest';

// The grammar file is read through node:fs/promises; here it is made to be missing, then damaged.
const readFile = vi.hoisted(() => vi.fn());
vi.mock('node:fs/promises', async (original) => ({
  ...(await original<typeof import('node:fs/promises')>()),
  readFile,
}));

const { bashParser } = await import('./bash-parser.js');
const { readFile: realReadFile } =
  await vi.importActual<typeof import('node:fs/promises')>('node:fs/promises');

describe('bashParser, when the packaged bash grammar cannot be read', () => {
  it('names the missing file and says to reinstall or rebuild the package; a later call tries again and works', async () => {
    readFile.mockRejectedValueOnce(
      Object.assign(new Error('ENOENT: no such file'), { code: 'ENOENT' }),
    );
    const failure = await bashParser().then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    expect(failure?.message).toMatch(
      /bash grammar of @tiny-claw\/approval is missing \(.*grammar[/\\]tree-sitter-bash\.wasm\.gz: ENOENT\); reinstall @tiny-claw\/approval/,
    );

    readFile.mockImplementationOnce(realReadFile);
    const parser = await bashParser();
    expect(parser.parse('ls -la')?.rootNode.type).toBe('program');
  });

  it('says the grammar is damaged when its bytes are not gzip data', async () => {
    vi.resetModules();
    const fresh = await import('./bash-parser.js');
    readFile.mockResolvedValueOnce(Buffer.from('not a grammar'));
    await expect(fresh.bashParser()).rejects.toThrow(
      /bash grammar of @tiny-claw\/approval is damaged .*reinstall @tiny-claw\/approval/,
    );
  });
});
