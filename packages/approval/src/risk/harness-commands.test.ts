import { describe, expect, it } from 'vitest';
import { everyVerdict, judgeBash, STATE_DIR, verdictsOf } from './__fixtures__/judge.js';
import { HARNESS_REASONS } from './harness-commands.js';

const ID = 'ap_0bX3kR9d2LqvYw7aP1sT4g';

describe('running the tiny-claw CLI to decide approvals', () => {
  it('refuses approvals approve|reject by name, by path and with any option placement', async () => {
    const commands = [
      `tiny-claw approvals approve ${ID}`,
      `tiny-claw approvals reject ${ID} not today`,
      `tiny-claw approvals approve ${ID} --json`,
      `tiny-claw approvals approve --session ops --workdir . ${ID}`,
      `tiny-claw --env-file team.env approvals approve ${ID}`,
      `tiny-claw approvals --json approve ${ID}`,
      `./node_modules/.bin/tiny-claw approvals approve ${ID}`,
      `/usr/local/bin/tiny-claw approvals reject ${ID}`,
      `apps/cli/bin/tiny-claw.js approvals approve ${ID}`,
      `"tiny-claw" approvals 'approve' ${ID}`,
    ];
    expect(await verdictsOf(commands)).toEqual(everyVerdict(commands, 'deny'));
    const verdict = await judgeBash(`tiny-claw approvals approve ${ID}`);
    expect(verdict.reasons).toEqual([
      `${HARNESS_REASONS.decides} (\`tiny-claw approvals approve ${ID}\`)`,
    ]);
    expect(verdict.reasons[0]).toContain('only a person may do that, outside the agent');
  });

  it('refuses it through package runners', async () => {
    const commands = [
      `npx tiny-claw approvals approve ${ID}`,
      `npx -y tiny-claw@latest approvals approve ${ID}`,
      `npx --yes --package tiny-claw tiny-claw approvals approve ${ID}`,
      `npx -p tiny-claw tiny-claw approvals reject ${ID}`,
      `pnpm exec tiny-claw approvals approve ${ID}`,
      `pnpm tiny-claw approvals approve ${ID}`,
      `pnpm --filter tiny-claw exec tiny-claw approvals approve ${ID}`,
      `pnpm dlx tiny-claw approvals approve ${ID}`,
      `pnpx tiny-claw approvals approve ${ID}`,
      `yarn tiny-claw approvals approve ${ID}`,
      `yarn dlx tiny-claw@1.2.3 approvals reject ${ID}`,
      `bunx tiny-claw approvals approve ${ID}`,
      `bun x tiny-claw approvals approve ${ID}`,
      `npm exec tiny-claw -- approvals approve ${ID}`,
      `npm exec --yes -- tiny-claw approvals approve ${ID}`,
      `corepack pnpm exec tiny-claw approvals approve ${ID}`,
      `deno run -A npm:tiny-claw approvals approve ${ID}`,
    ];
    expect(await verdictsOf(commands)).toEqual(everyVerdict(commands, 'deny'));
  });

  it('refuses it when node (or another runtime) runs the CLI or its bundle', async () => {
    const commands = [
      `node apps/cli/bin/tiny-claw.js approvals approve ${ID}`,
      `node /home/dev/src/tiny-claw/apps/cli/bin/tiny-claw.js approvals approve ${ID}`,
      `node --enable-source-maps ./apps/cli/dist/cli.cjs approvals approve ${ID}`,
      `node node_modules/tiny-claw/bin/tiny-claw.js approvals reject ${ID}`,
      `node ~/.local/lib/tiny-claw/dist/cli.js approvals approve ${ID}`,
      `node /opt/claw/tiny-claw approvals approve ${ID}`,
      `nodejs dist/cli.cjs approvals approve ${ID}`,
      `bun apps/cli/bin/tiny-claw.js approvals approve ${ID}`,
      `tsx apps/cli/src/index.ts approvals approve ${ID}`,
    ];
    expect(await verdictsOf(commands)).toEqual(everyVerdict(commands, 'deny'));
  });

  it('refuses it behind environment prefixes, env and other wrappers, and inside shell code', async () => {
    const commands = [
      `TINY_CLAW_STATE_DIR=${STATE_DIR} tiny-claw approvals approve ${ID}`,
      `TINY_CLAW_STATE_DIR=/tmp/elsewhere tiny-claw approvals approve ${ID}`,
      `env TINY_CLAW_STATE_DIR=${STATE_DIR} tiny-claw approvals approve ${ID}`,
      `env -i PATH=/usr/bin npx tiny-claw approvals approve ${ID}`,
      `timeout 5 nice -n 5 tiny-claw approvals approve ${ID}`,
      `command tiny-claw approvals approve ${ID}`,
      `exec tiny-claw approvals approve ${ID}`,
      `echo ${ID} | xargs tiny-claw approvals approve`,
      `tiny-claw approvals list --json | jq -r '.[0].id' | xargs -n1 tiny-claw approvals approve`,
      `ls && tiny-claw approvals approve ${ID}`,
      `bash -c 'tiny-claw approvals approve ${ID}'`,
      `eval "tiny-claw approvals approve ${ID}"`,
      `echo $(tiny-claw approvals approve ${ID})`,
      `tiny-claw approvals approve $(tiny-claw approvals list --json | jq -r '.[0].id')`,
      `setsid tiny-claw approvals approve ${ID}`,
      `npx -c 'tiny-claw approvals approve ${ID}'`,
      `node -e "require('child_process').execSync('tiny-claw approvals approve ${ID}')"`,
      `node -e "require('child_process').spawnSync('tiny-claw', ['approvals', 'reject', '${ID}'])"`,
      `watch -n 1 "tiny-claw approvals approve ${ID}"`,
    ];
    expect(await verdictsOf(commands)).toEqual(everyVerdict(commands, 'deny'));
  });

  it('refuses a tiny-claw subcommand computed at run time, since it could be one of these', async () => {
    const commands = [
      'tiny-claw "$CMD" ap_x',
      `tiny-claw approvals "$ACTION" ${ID}`,
      `tiny-claw approvals $(echo approve) ${ID}`,
    ];
    expect(await verdictsOf(commands)).toEqual(everyVerdict(commands, 'deny'));
    expect((await judgeBash('tiny-claw "$CMD"')).reasons[0]).toContain(HARNESS_REASONS.computed);
  });
});

describe('running the tiny-claw CLI to change trusted folders', () => {
  it('refuses trust and untrust, however the CLI is reached', async () => {
    const commands = [
      'tiny-claw trust',
      'tiny-claw trust .',
      'tiny-claw untrust /srv/tiny-claw-work',
      'tiny-claw --env-file team.env trust',
      'npx tiny-claw trust',
      'npx -y tiny-claw@latest untrust .',
      'pnpm exec tiny-claw trust',
      'node apps/cli/bin/tiny-claw.js trust',
      'TINY_CLAW_STATE_DIR=/tmp/x tiny-claw trust',
      "bash -c 'cd /srv/tiny-claw-work && tiny-claw trust'",
      `node -e "require('child_process').execSync('tiny-claw trust .')"`,
    ];
    expect(await verdictsOf(commands)).toEqual(everyVerdict(commands, 'deny'));
    expect((await judgeBash('tiny-claw trust')).reasons).toEqual([
      `${HARNESS_REASONS.trusts} (\`tiny-claw trust\`)`,
    ]);
  });
});

describe('other tiny-claw commands', () => {
  it('still only ask: run, plan, trace, health, approvals list and show, and the server', async () => {
    const commands = [
      'tiny-claw run "fix the failing test"',
      'tiny-claw run trust',
      'tiny-claw plan show',
      'tiny-claw trace list',
      'tiny-claw health --json',
      'tiny-claw approvals list --status pending',
      `tiny-claw approvals show ${ID}`,
      `npx tiny-claw approvals show ${ID}`,
      'tiny-claw --help',
      'tiny-claw-server --port 8080',
      'npx tiny-claw-server trust',
      'pnpm --filter tiny-claw build',
    ];
    expect(await verdictsOf(commands)).toEqual(everyVerdict(commands, 'approval_required'));
  });

  it('leaves commands that only mention the CLI alone', async () => {
    const commands = [
      'cat apps/cli/src/commands/trust.ts',
      'rg -n "tiny-claw approvals approve" docs',
      'echo "run tiny-claw trust yourself"',
      'git log --oneline -- apps/cli',
    ];
    expect(await verdictsOf(commands)).toEqual(everyVerdict(commands, 'allow'));
  });
});

describe('approval records and checkpoints', () => {
  it('refuses writing, moving or deleting files in the state dir, however the command is wrapped', async () => {
    const record = `${STATE_DIR}/sessions/cli-x/approvals/${ID}.json`;
    const commands = [
      `echo '{"status":"pending"}' > ${record}`,
      `sed -i 's/rejected/pending/' ${record}`,
      `cp /tmp/forged.json ${record}`,
      `mv /tmp/forged.json ${record}`,
      `tee ${record} < /tmp/forged.json`,
      `rm ${STATE_DIR}/sessions/cli-x/approvals/${ID}.claim`,
      `env FOO=1 cp /tmp/forged.json ${record}`,
      `bash -c 'cat /tmp/forged.json > ${record}'`,
      `TINY_CLAW_STATE_DIR=/tmp/x cp /tmp/forged.json ${record}`,
    ];
    expect(await verdictsOf(commands)).toEqual(everyVerdict(commands, 'deny'));
  });
});
