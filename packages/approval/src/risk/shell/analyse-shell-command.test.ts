import { describe, expect, it } from 'vitest';
import { analyseShellCommand } from './analyse-shell-command.js';
import { bashParser } from './bash-parser.js';

async function programs(command: string): Promise<(string | null)[]> {
  return (await analyseShellCommand(command)).commands.map((found) => found.program);
}

describe('analyseShellCommand', () => {
  it('finds every simple command in lists, pipelines, subshells, groups and control flow', async () => {
    const source = [
      'a1 && a2 || a3; a4 & a5 | a6',
      '(b1; b2)',
      '{ c1; }',
      'if d1; then d2; elif d3; then d4; else d5; fi',
      'for x in y; do e1; done',
      'while f1; do f2; done',
      'case $v in p) g1;; *) g2;; esac',
      'h() { h1; }',
      '! i1',
    ].join('\n');
    expect(await programs(source)).toEqual(
      'a1 a2 a3 a4 a5 a6 b1 b2 c1 d1 d2 d3 d4 d5 e1 f1 f2 g1 g2 h1 i1'.split(' '),
    );
  });

  it('finds commands inside substitutions and expansions, each with where it was found', async () => {
    const analysis = await analyseShellCommand(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell expansion, not a template
      'echo $(s1) `s2` <(s3) >(s4) "$(s5)" ${v:-$(s6)} $((1 + $(s7))) a[$(s8)]=1',
    );
    const nested = analysis.commands.filter((found) => found.program?.startsWith('s'));
    expect(nested.map((found) => [found.program, found.origin.join(' > ')])).toEqual([
      ['s1', 'command substitution'],
      ['s2', 'command substitution'],
      ['s3', 'process substitution'],
      ['s4', 'process substitution'],
      ['s5', 'command substitution'],
      ['s6', 'command substitution'],
      ['s7', 'command substitution'],
      ['s8', 'command substitution'],
    ]);
  });

  it('reads an unquoted heredoc body for substitutions, and not a quoted one', async () => {
    expect(await programs('cat <<EOF\n$(inner)\nEOF')).toEqual(['cat', 'inner']);
    expect(await programs("cat <<'EOF'\n$(inner)\nEOF")).toEqual(['cat']);
  });

  it('parses shell -c payloads, static shell input, literal eval, alias values and trap handlers', async () => {
    const analysis = await analyseShellCommand(
      "bash -c 'p1'; sh -ec \"p2\"; dash <<< 'p3'; eval 'p4 x'; alias l='p5'; trap 'p6' EXIT; zsh -c 'eval p7'",
    );
    const inner = analysis.commands.filter((found) => found.program?.startsWith('p'));
    expect(inner.map((found) => [found.program, found.origin.join(' > ')])).toEqual([
      ['p1', 'bash -c'],
      ['p2', 'sh -c'],
      ['p3', 'dash standard input'],
      ['p4', 'eval'],
      ['p5', 'alias'],
      ['p6', 'trap'],
      ['p7', 'zsh -c > eval'],
    ]);
  });

  it('finds commands the grammar leaves as text: expansion patterns, escaped backticks, heredoc backticks', async () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell expansion, not a template
    expect(await programs('echo ${x#$(p1)} ${x:-`p2`}')).toEqual(['echo', 'p1', 'p2']);
    expect(await programs('echo `echo \\`p3\\``')).toEqual(['echo', 'echo', 'p3']);
    expect(await programs('cat <<EOF\n`p4`\nEOF')).toEqual(['cat', 'p4']);
    expect(await programs("cat <<'EOF'\n`p4`\nEOF")).toEqual(['cat']);
    // Quoted or escaped, nothing runs.
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell expansion, not a template
    expect(await programs('echo ${x#\'$(p5)\'} "\\`p6\\`"')).toEqual(['echo']);
  });

  it('records assignments wherever they are: statements, prefixes and assigning expansions', async () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell expansion, not a template
    const analysis = await analyseShellCommand('a=1; B=2 ls; : ${C:=3} ${D=4} ${E:-5}');
    expect(
      analysis.commands.map((found) => [
        found.kind,
        found.assignments.map((assignment) => assignment.name),
      ]),
    ).toEqual([
      ['assignment', ['a']],
      ['command', ['B']],
      ['command', []],
      ['assignment', ['C']],
      ['assignment', ['D']],
    ]);
  });

  it('records a payload known only at run time without guessing at it', async () => {
    const analysis = await analyseShellCommand('eval "$CODE"; bash -c "$(cat x)"');
    expect(analysis.commands.flatMap((found) => found.payloads)).toEqual([
      { via: 'eval', text: null },
      { via: 'bash -c', text: null },
    ]);
  });

  it('resolves quoting tricks in command names and gives up on names built from expansions', async () => {
    expect(await programs('\\rm a; "rm" a; r\'\'m a; \'r\'"m" a')).toEqual([
      'rm',
      'rm',
      'rm',
      'rm',
    ]);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell expansion, not a template
    expect(await programs('$\'\\x72\\x6d\' a; rm${IFS}a; $(echo rm) a; $"rm" a')).toEqual([
      null,
      null,
      null,
      'echo',
      null,
    ]);
  });

  it('expands brace lists into separate words, as bash does before running anything', async () => {
    const [find] = (await analyseShellCommand('find . {-delete,-name} x')).commands;
    expect(find?.args.map((arg) => arg.value)).toEqual(['.', '-delete', '-name', 'x']);
    expect((await analyseShellCommand("echo '{a,b}' \\{c,d\\}")).commands[0]?.args.length).toBe(2);
    const { problems } = await analyseShellCommand('test {-v,$x}');
    expect(problems).toEqual([
      {
        kind: 'unsupported_syntax',
        detail: 'a brace expansion around a value known only at run time: `{-v,$x}`',
      },
    ]);
  });

  it('unwraps a chain of known wrappers and keeps their environment assignments', async () => {
    const [found] = (
      await analyseShellCommand(
        'sudo -u root env -i A=1 nice -n 5 timeout -s KILL 5 nohup stdbuf -oL xargs -I{} rm -rf {}',
      )
    ).commands;
    expect(found?.program).toBe('rm');
    expect(found?.wrappers).toEqual(['sudo', 'env', 'nice', 'timeout', 'nohup', 'stdbuf', 'xargs']);
    expect(found?.args.map((arg) => arg.value)).toEqual(['-rf', '{}']);
    expect(found?.assignments.map((assignment) => assignment.name)).toEqual(['A']);
  });

  it('stops unwrapping at a wrapper option it does not know, and at command -v', async () => {
    const [unknown] = (await analyseShellCommand('timeout --weird 5 rm -rf x')).commands;
    expect(unknown?.program).toBe('timeout');
    expect(unknown?.unwrapProblem).toBe(
      '`timeout` has an option the analysis does not know (`--weird`)',
    );
    expect(await programs('command -v rm')).toEqual(['command']);
  });

  it('runs the commands of find -exec through the same analysis', async () => {
    const analysis = await analyseShellCommand(
      "find . -name '*.o' -exec sh -c 'rm \"$1\"' _ {} \\;",
    );
    expect(analysis.commands.map((found) => [found.program, found.origin.join(' > ')])).toEqual([
      ['find', ''],
      ['sh', 'find -exec'],
      ['rm', 'find -exec > sh -c'],
    ]);
  });

  it('records redirections with their target, and descriptor copies without one', async () => {
    const { redirects } = await analyseShellCommand('cmd > out 2>&1 < in >> log; { x; } &> both');
    expect(
      redirects.map((redirect) => [
        redirect.operator,
        redirect.target?.value ?? null,
        redirect.writes,
        redirect.reads,
      ]),
    ).toEqual([
      ['>', 'out', true, false],
      ['>&', null, false, false],
      ['<', 'in', false, true],
      ['>>', 'log', true, false],
      ['&>', 'both', true, false],
    ]);
  });

  it('reports syntax errors, missing tokens and misplaced case terminators', async () => {
    const kinds = async (command: string) =>
      (await analyseShellCommand(command)).problems.map((problem) => problem.detail);
    expect(await kinds('ls &&& rm')).toEqual(['cannot parse `&`']);
    expect(await kinds('ls &&')).toEqual(['a `word` is missing']);
    expect(await kinds('ls ;; pwd')).toEqual(['`;;` outside a case statement']);
    expect(await kinds('case a in a) ls;; esac')).toEqual([]);
  });

  it('reports control and invisible characters by code point', async () => {
    const { problems } = await analyseShellCommand('ls\r;\u200b\u2028ls');
    expect(problems).toEqual([
      {
        kind: 'invisible_characters',
        detail: 'U+000D at offset 2, U+200B at offset 4, U+2028 at offset 5',
      },
    ]);
  });

  it('reports functions, strings in arithmetic and indirect expansions', async () => {
    const kinds = async (command: string) =>
      (await analyseShellCommand(command)).problems.map((problem) => problem.kind);
    expect(await kinds('f() { :; }')).toEqual(['function_definition']);
    expect(await kinds("[[ 'a[$(id)]' -eq 1 ]]")).toEqual(['arithmetic_string']);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell expansion, not a template
    expect(await kinds("echo ${a['b[$(id)]']}")).toEqual(['arithmetic_string']);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell expansion, not a template
    expect(await kinds('echo ${!name} ${x@P}')).toEqual([
      'indirect_expansion',
      'indirect_expansion',
    ]);
  });

  it('reports variables where bash evaluates arithmetic, except special parameters', async () => {
    const details = async (command: string) =>
      (await analyseShellCommand(command)).problems
        .filter((problem) => problem.kind === 'arithmetic_variable')
        .map((problem) => problem.detail);
    expect(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell expansion, not a template
      await details('echo $((x)) $(($Y)) ${s:o:l} ${a[i]}; (( z > 1 )); [[ w -lt 2 ]]'),
    ).toEqual(['x', 'Y', 'o', 'l', 'i', 'z', 'w']);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell expansion, not a template
    expect(await details('echo $(( $? + $# + 1 )) ${s:1:2} ${s:-x}; [[ $? -eq 0 ]]')).toEqual([]);
  });

  it('reports a line continuation inside a word, which bash joins but the grammar splits', async () => {
    const { problems } = await analyseShellCommand('rg --pr\\\ne=sh x');
    expect(problems).toEqual([
      {
        kind: 'unsupported_syntax',
        detail:
          'a line continuation inside a word at offset 7, which bash joins and the parser splits',
      },
    ]);
    expect((await analyseShellCommand('ls \\\n  -la')).problems).toEqual([]);
  });

  it('loads the bash grammar once and shares the parser', async () => {
    const [first, second] = await Promise.all([bashParser(), bashParser()]);
    expect(first).toBe(second);
    expect(await bashParser()).toBe(first);
  });
});

describe('analysis budget', () => {
  it('refuses a 1 MB command before parsing it', { timeout: 10_000 }, async () => {
    const analysis = await analyseShellCommand(`echo ${'a'.repeat(1_000_000)}`);
    expect(analysis.commands).toEqual([]);
    expect(analysis.problems).toEqual([
      {
        kind: 'over_budget',
        detail: 'the command is 1000005 characters long; the analysis reads at most 65536',
      },
    ]);
  });

  it('refuses 10,000 nested command substitutions before parsing them', {
    timeout: 10_000,
  }, async () => {
    const analysis = await analyseShellCommand(`${'$('.repeat(10_000)}ls${')'.repeat(10_000)}`);
    expect(analysis.problems.map((problem) => problem.kind)).toEqual(['over_budget']);
    expect(analysis.problems[0]?.detail).toMatch(/nests brackets 10000 deep/);
  });

  // The node, depth and payload limits are checked without the clock's: a loaded machine can take
  // longer than the default second to parse these long commands.
  const UNHURRIED = 60_000;

  it('stops at the node limit but keeps what it found before it', { timeout: 10_000 }, async () => {
    const analysis = await analyseShellCommand(`rm -rf x; ${'ls; '.repeat(5_000)}`, {
      budget: { maxNodes: 1_000, maxMilliseconds: UNHURRIED },
    });
    expect(analysis.commands[0]?.program).toBe('rm');
    expect(analysis.problems).toEqual([
      { kind: 'over_budget', detail: 'the command has more than 1000 syntax nodes' },
    ]);
  });

  it('stops at the depth limit, which a long && chain reaches', { timeout: 10_000 }, async () => {
    const analysis = await analyseShellCommand(`${'true && '.repeat(300)}ls`, {
      budget: { maxDepth: 100, maxMilliseconds: UNHURRIED },
    });
    expect(analysis.problems).toEqual([
      { kind: 'over_budget', detail: 'the command nests more than 100 levels deep' },
    ]);
  });

  it('stops following payloads nested deeper than the limit', async () => {
    const analysis = await analyseShellCommand('eval "eval \'eval ls\'"', {
      budget: { maxPayloadDepth: 1, maxMilliseconds: UNHURRIED },
    });
    expect(analysis.problems).toEqual([
      { kind: 'over_budget', detail: 'shell payloads nest more than 1 deep' },
    ]);
  });

  it('stops when the clock passes the time limit', async () => {
    let clock = 0;
    // Each reading of this clock is a second later than the last.
    const analysis = await analyseShellCommand('ls; '.repeat(2_000), {
      now: () => (clock += 1_000),
      budget: { maxMilliseconds: 500 },
    });
    expect(analysis.problems.map((problem) => problem.kind)).toEqual(['over_budget']);
    expect(analysis.problems[0]?.detail).toMatch(/longer than 500 ms/);
  });
});
