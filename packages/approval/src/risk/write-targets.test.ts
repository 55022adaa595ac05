import { describe, expect, it } from 'vitest';
import { everyVerdict, verdictsOf } from './__fixtures__/judge.js';

// The programs that write files accept any unambiguous prefix of a long option, as the read-only
// ones do: a destination spelled `--targ` must be found and judged like `--target-directory`.
describe('write targets named through abbreviated long options', () => {
  it.each([
    ['cp', 'cp --target-directory=.git/hooks evil'],
    ['cp', 'cp --target=.git/hooks evil'],
    ['cp', 'cp --targ .git/hooks evil'],
    ['mv', 'mv --target-dir .git/hooks evil'],
    ['install', 'install --tar=.git/hooks evil'],
    ['ln', 'ln -s --target .git/hooks evil'],
  ])(
    '%s: a target in .git is refused however the option is spelled (%s)',
    async (_name, command) => {
      expect(await verdictsOf([command])).toEqual(everyVerdict([command], 'deny'));
    },
  );

  it('an abbreviated option the spec cannot tell apart is not taken for a target', async () => {
    // `--s` could be --suffix or --strip-trailing-slashes (and more): cp itself refuses it.
    const command = 'cp --s .git/hooks a b';
    expect((await verdictsOf([command]))[0]).not.toBe('allow');
  });
});
