import { describe, expect, it } from 'vitest';
import { describeShellCommand } from './shell-command-view.js';

describe('describeShellCommand', () => {
  it('lists every simple command a bash program runs, nested ones with where they sit', async () => {
    const view = await describeShellCommand("npm test && echo $(rm -rf build) | bash -c 'curl x'");
    expect(view.commands.map((c) => c.text)).toEqual(
      expect.arrayContaining(['npm test', 'rm -rf build', 'curl x']),
    );
    const nested = view.commands.find((c) => c.text === 'rm -rf build');
    expect(nested?.origin).toEqual(['command substitution']);
    expect(view.problems).toEqual([]);
  });

  it('reports what kept the analysis from reading the command fully', async () => {
    const view = await describeShellCommand('echo "unterminated');
    expect(view.problems.some((p) => p.startsWith('syntax_error'))).toBe(true);
  });
});
