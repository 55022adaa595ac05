import { describe, expect, it } from 'vitest';
import { judgeBash } from './__fixtures__/judge.js';

// Commands that once ran without approval and must ask.

describe('a line that does not parse as bash asks', () => {
  it.each([
    ['echo (whoami)', '(whoami)'],
    ['ls (pwd)', '(pwd)'],
    ['cat (ls) foo', 'cannot parse'],
    ['echo hi &&& ls', 'cannot parse'],
    ['if true; then ls', 'cannot parse'],
    ['echo "unterminated', 'cannot parse'],
  ])('`%s` asks', async (command, detail) => {
    const verdict = await judgeBash(command);
    expect(verdict.verdict).toBe('approval_required');
    const reason = verdict.reasons.find((text) =>
      text.startsWith('the command does not parse as bash'),
    );
    expect(reason).toContain(detail);
  });

  it.each(['(cd src && ls)', 'echo "(whoami)"', 'echo $(whoami)', 'echo \\(x\\)'])(
    '`%s` parses and is not asked about for parsing',
    async (command) => {
      const verdict = await judgeBash(command);
      expect(verdict.reasons.join('\n')).not.toContain('does not parse');
    },
  );
});

describe('a file path computed at run time asks for commands that read or write files', () => {
  it.each([
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell expansion, not a template
    ['head -c16 ${SOME_PATH}', '`${SOME_PATH}`'],
    ['cat $F', '`$F`'],
    ['cat "$F"', '`"$F"`'],
    ['cp $A $B', '`$B`'],
    ['wc -l "$X"', '`"$X"`'],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell expansion, not a template
    ['sed -n 1p ${P}', '`${P}`'],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell expansion, not a template
    ['tail -n1 ${F}', '`${F}`'],
    ['grep foo $F', '`$F`'],
    ['diff $A b.txt', '`$A`'],
    ['od $F', '`$F`'],
    ['mv $A b', '`$A`'],
    ['touch $F', '`$F`'],
    ['tee $F', '`$F`'],
    ['git diff -- $F', '`$F`'],
    ['cat $(cat list.txt)', '`$(cat list.txt)`'],
  ])('`%s` asks, naming %s', async (command, part) => {
    const verdict = await judgeBash(command);
    expect(verdict.verdict).toBe('approval_required');
    expect(verdict.reasons.some((reason) => reason.endsWith(`(${part})`))).toBe(true);
  });
});
