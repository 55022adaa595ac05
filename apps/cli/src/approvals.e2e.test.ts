import { access, readFile, writeFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ApprovalWorld, createApprovalWorld, editJson } from './__fixtures__/approval-cli.js';

// Approvals as a user meets them: the real binary, one process that pauses, others that decide.
let world: ApprovalWorld;

beforeEach(async () => {
  world = await createApprovalWorld({
    'a.txt': 'alpha\n',
    'app.ts': `${Array.from({ length: 25 }, (_, i) => `export const line${i + 1} = ${i + 1};`).join('\n')}\n`,
  });
});
afterEach(() => world.cleanup());

const writeEnv = (content = 'TOKEN=1\n') => ({
  tool_calls: [{ name: 'write', arguments: { path: '.env', content } }],
});
const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

/** The messages the model was sent in the first model call of a replay-mode trace. */
async function firstModelRequest(tracePath: string): Promise<Array<Record<string, unknown>>> {
  type Span = { name: string; attributes: Record<string, unknown>; children?: Span[] };
  const trace = JSON.parse(await readFile(tracePath, 'utf8')) as { root: Span };
  const spans: Span[] = [];
  const walk = (span: Span) => {
    spans.push(span);
    for (const child of span.children ?? []) walk(child);
  };
  walk(trace.root);
  const call = spans.find((span) => Array.isArray(span.attributes.llm_request));
  if (!call) throw new Error('the trace has no model request');
  return call.attributes.llm_request as Array<Record<string, unknown>>;
}

describe('a run that pauses for approval', () => {
  it('stops with exit 4 before writing .env and names the commands that approve or reject it', async () => {
    const { cli, result } = await world.run([writeEnv(), { text: 'never' }]);
    expect(cli.code, cli.stderr).toBe(4);
    expect(result.stopReason).toBe('approval_required');
    expect(result.approvalId).toMatch(/^ap_[A-Za-z0-9_-]{16,}$/);
    expect(await exists(world.ws.path('.env'))).toBe(false);
    expect(cli.stderr).toContain(`tiny-claw approvals approve ${result.approvalId}\n`);
    expect(cli.stderr).toContain(`tiny-claw approvals reject ${result.approvalId} "<reason>"\n`);
    expect(cli.stderr).toContain('paused — write needs approval');
    expect(cli.stderr).toContain('.env files hold secrets');
  });

  it('prints nothing on stdout without --json, and repeats --session and --workdir in the commands', async () => {
    const script = await world.script([writeEnv(), { text: 'never' }]);
    const cli = await world.cli(['run', 'go', '--session', 'ops', '--workdir', world.ws.dir], {
      TINY_CLAW_SCRIPT: script,
      TINY_CLAW_WORKDIR: world.outside.dir,
    });
    expect(cli.code, cli.stderr).toBe(4);
    expect(cli.stdout).toBe('');
    const id = /approvals approve (ap_[A-Za-z0-9_-]+)/.exec(cli.stderr)?.[1] as string;
    const flags = ` --session ops --workdir ${world.ws.dir}`;
    expect(cli.stderr).toContain(`tiny-claw approvals approve ${id}${flags}\n`);
    expect(cli.stderr).toContain(`tiny-claw approvals reject ${id} "<reason>"${flags}\n`);
    const approved = await world.decide(
      ['approve', id, '--session', 'ops', '--workdir', world.ws.dir],
      undefined,
      {
        TINY_CLAW_WORKDIR: world.outside.dir,
      },
    );
    expect(approved.code, approved.stderr).toBe(0);
    expect(await readFile(world.ws.path('.env'), 'utf8')).toBe('TOKEN=1\n');
  });

  it('records who asked: cli:<os user>', async () => {
    const { result } = await world.run([writeEnv()]);
    const record = await world.record(result.approvalId as string);
    expect(record.requestedBy).toMatch(/^cli:.+/);
    expect(record.requestedBy).not.toBe('cli:unknown');
  });
});

describe('tiny-claw approvals approve', () => {
  it('runs the paused write from another process, reaches final, and refuses a second approval', async () => {
    const { result } = await world.run([writeEnv(), { text: 'never' }]);
    const id = result.approvalId as string;
    const approved = await world.decide(['approve', id], [{ text: 'the token is set' }]);
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.stdout).toBe('the token is set\n');
    expect(approved.stderr).toContain(`✓ write approved by cli:`);
    expect(approved.stderr).toContain('← write ok');
    expect(approved.stderr).toContain('stop=final');
    expect(await readFile(world.ws.path('.env'), 'utf8')).toBe('TOKEN=1\n');
    expect((await world.record(id)).status).toBe('consumed');

    await writeFile(world.ws.path('.env'), 'TOKEN=changed-by-hand\n');
    const again = await world.decide(['approve', id]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(new RegExp(`^tiny-claw: approval ${id} was already used`, 'm'));
    expect(again.stderr).not.toMatch(/\n\s+at /);
    expect(await readFile(world.ws.path('.env'), 'utf8')).toBe('TOKEN=changed-by-hand\n');
  });

  it('prints the resumed run as RunResult JSON with --json, and exits 4 again when it pauses again', async () => {
    const { result } = await world.run([writeEnv()]);
    const approved = await world.decide(
      ['approve', result.approvalId as string, '--json'],
      [writeEnv('TOKEN=2\n'), { text: 'never' }],
    );
    expect(approved.code, approved.stderr).toBe(4);
    const resumed = JSON.parse(approved.stdout);
    expect(resumed.stopReason).toBe('approval_required');
    expect(resumed.approvalId).not.toBe(result.approvalId);
    expect(approved.stderr).toContain(`tiny-claw approvals approve ${resumed.approvalId}\n`);
    expect(await readFile(world.ws.path('.env'), 'utf8')).toBe('TOKEN=1\n');
  });

  it('runs the rest of the paused turn in order: [read, write .env, read] gives the model three observations', async () => {
    const { cli, result } = await world.run(
      [
        {
          tool_calls: [
            { name: 'read', arguments: { path: 'a.txt' } },
            { name: 'write', arguments: { path: '.env', content: 'TOKEN=3\n' } },
            { name: 'read', arguments: { path: '.env' } },
          ],
        },
      ],
      [],
      { TINY_CLAW_TRACE_MODE: 'replay' },
    );
    expect(cli.code, cli.stderr).toBe(4);
    expect(cli.stderr).toContain('← read ok');
    expect(cli.stderr).not.toContain('→ read {"path":".env"}');
    const approved = await world.decide(
      ['approve', result.approvalId as string, '--json'],
      undefined,
      {
        TINY_CLAW_TRACE_MODE: 'replay',
      },
    );
    expect(approved.code, approved.stderr).toBe(0);
    const resumed = JSON.parse(approved.stdout);
    const sent = await firstModelRequest(resumed.tracePath);
    const answers = sent.filter((message) => message.role === 'tool');
    expect(answers.map((m) => [m.toolCallId, m.name])).toEqual([
      ['call_1_1', 'read'],
      ['call_1_2', 'write'],
      ['call_1_3', 'read'],
    ]);
    expect(answers[0]?.content).toContain('alpha');
    // The second read ran after the approved write: it sees the new file.
    expect(answers[2]?.content).toContain('TOKEN=3');
  });

  it('applies an approved edit of a file read before the pause, in a new process (no "read it first")', async () => {
    const { cli, result } = await world.run([
      { tool_calls: [{ name: 'read', arguments: { path: 'app.ts' } }] },
      { tool_calls: [{ name: 'edit', arguments: collapseEdit() }] },
    ]);
    expect(cli.code, cli.stderr).toBe(4);
    expect(cli.stderr).toContain('the edit deletes');
    const approved = await world.decide(
      ['approve', result.approvalId as string],
      [{ text: 'collapsed' }],
    );
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.stderr).toContain('← edit ok');
    expect(approved.stderr).not.toMatch(/read it first|has not been read/i);
    const text = await readFile(world.ws.path('app.ts'), 'utf8');
    expect(text.startsWith('export const collapsed = true;\nexport const line23 = 23;')).toBe(true);
  });

  it('fails closed when the file to edit changed after the request: nothing runs', async () => {
    const { result } = await world.run([
      { tool_calls: [{ name: 'read', arguments: { path: 'app.ts' } }] },
      { tool_calls: [{ name: 'edit', arguments: collapseEdit() }] },
    ]);
    const changed = `${await readFile(world.ws.path('app.ts'), 'utf8')}// a person edited this\n`;
    await writeFile(world.ws.path('app.ts'), changed);
    const approved = await world.decide(['approve', result.approvalId as string]);
    expect(approved.code).toBe(1);
    expect(approved.stderr).toContain('file changed since approval was requested');
    expect(approved.stderr).not.toContain('→ edit');
    expect(await readFile(world.ws.path('app.ts'), 'utf8')).toBe(changed);
    expect((await world.record(result.approvalId as string)).status).toBe('failed');
  });

  it('fails closed when .env appeared after the request: the file keeps what the person wrote', async () => {
    const { result } = await world.run([writeEnv()]);
    await writeFile(world.ws.path('.env'), 'MINE=1\n');
    const approved = await world.decide(['approve', result.approvalId as string]);
    expect(approved.code).toBe(1);
    expect(approved.stderr).toContain('file changed since approval was requested');
    expect(await readFile(world.ws.path('.env'), 'utf8')).toBe('MINE=1\n');
  });

  it("fails closed when the checkpoint's pending call arguments were edited: nothing runs", async () => {
    const { result } = await world.run([writeEnv()]);
    await editJson(world.sessionFile(result, 'checkpoints'), (checkpoint) => {
      const state = checkpoint.state as {
        batch: { calls: Array<{ call: { arguments: Record<string, unknown> } }> };
      };
      const entry = state.batch.calls[0];
      if (entry) entry.call.arguments.content = 'TOKEN=stolen\n';
    });
    const approved = await world.decide(['approve', result.approvalId as string]);
    expect(approved.code).toBe(1);
    expect(approved.stderr).toMatch(
      /^tiny-claw: approval ap_\S+ cannot be resumed: the checkpoint .*changed after the request/m,
    );
    expect(approved.stderr).not.toContain('→ write');
    expect(await exists(world.ws.path('.env'))).toBe(false);
    expect((await world.record(result.approvalId as string)).status).toBe('failed');
  });

  it("fails closed when the approval record's arguments were edited: nothing runs", async () => {
    const { result } = await world.run([writeEnv()]);
    await editJson(world.sessionFile(result, 'approvals'), (record) => {
      (record.arguments as Record<string, unknown>).content = 'TOKEN=stolen\n';
    });
    const approved = await world.decide(['approve', result.approvalId as string]);
    expect(approved.code).toBe(1);
    expect(approved.stderr).toContain('was changed after it was requested');
    expect(await exists(world.ws.path('.env'))).toBe(false);
  });
});

describe('refused decisions', () => {
  it('refuses an approval from another session, and nothing runs', async () => {
    const { result } = await world.run([writeEnv()]);
    const approved = await world.decide([
      'approve',
      result.approvalId as string,
      '--session',
      'other',
    ]);
    expect(approved.code).toBe(1);
    expect(approved.stderr).toContain('belongs to another session');
    expect(await exists(world.ws.path('.env'))).toBe(false);
    expect((await world.record(result.approvalId as string)).status).toBe('pending');
  });

  it('refuses an expired request (the expiry instant counts as expired), and nothing runs', async () => {
    const { result } = await world.run([writeEnv()]);
    await editJson(world.sessionFile(result, 'approvals'), (record) => {
      record.expiresAt = record.createdAt;
    });
    const listed = await world.cli(['approvals', 'list']);
    expect(listed.stdout).toMatch(/pending \(expired\)/);
    const approved = await world.decide(['approve', result.approvalId as string]);
    expect(approved.code).toBe(1);
    expect(approved.stderr).toMatch(/expired at .*the call was not run/);
    expect(await exists(world.ws.path('.env'))).toBe(false);
  });

  it('refuses a request that expired with TINY_CLAW_APPROVAL_TIMEOUT_SECONDS', async () => {
    const { result } = await world.run([writeEnv()], [], {
      TINY_CLAW_APPROVAL_TIMEOUT_SECONDS: '1',
    });
    const record = await world.record(result.approvalId as string);
    expect(Date.parse(record.expiresAt as string) - Date.parse(record.createdAt as string)).toBe(
      1000,
    );
    // Waits out the one-second lifetime; the check below only needs the clock to have passed it.
    await new Promise((done) => setTimeout(done, 1100));
    const approved = await world.decide(['approve', result.approvalId as string]);
    expect(approved.code).toBe(1);
    expect(approved.stderr).toContain('expired');
    expect(await exists(world.ws.path('.env'))).toBe(false);
  });

  it('refuses ids like ../../x before touching any file: the state dir is never created', async () => {
    for (const args of [
      ['approve', '../../x'],
      ['reject', '../../etc/passwd', 'no'],
      ['show', 'ap_short'],
      ['approve', `ap_${'a'.repeat(70)}`],
    ]) {
      const refused = await world.cli(['approvals', ...args]);
      expect(refused.code, args.join(' ')).toBe(1);
      expect(refused.stderr).toMatch(/^tiny-claw: ".*" is not an approval id: an id has 16 to 64/);
      expect(refused.stderr).not.toMatch(/\n\s+at /);
    }
    expect(await exists(world.stateDir)).toBe(false);
  });

  it('says an unknown id was not found, and exits 1', async () => {
    const approved = await world.decide(['approve', 'ap_AAAAAAAAAAAAAAAAAAAAAA']);
    expect(approved.code).toBe(1);
    expect(approved.stderr).toContain('no approval request ap_AAAAAAAAAAAAAAAAAAAAAA was found');
    const shown = await world.cli(['approvals', 'show', 'ap_AAAAAAAAAAAAAAAAAAAAAA']);
    expect(shown.code).toBe(1);
    expect(shown.stderr).toContain("see the requests with 'tiny-claw approvals list'");
  });

  it('says how to turn approvals on when they are off, exit 78', async () => {
    const { result } = await world.run([writeEnv()]);
    const approved = await world.decide(['approve', result.approvalId as string], undefined, {
      TINY_CLAW_APPROVAL_PROVIDER: 'off',
    });
    expect(approved.code).toBe(78);
    expect(approved.stderr).toContain('TINY_CLAW_APPROVAL_PROVIDER=off');
    expect(await exists(world.ws.path('.env'))).toBe(false);
  });
});

describe('tiny-claw approvals reject', () => {
  it('leaves the file absent and hands the model an observation naming who rejected it and why', async () => {
    const { result } = await world.run([writeEnv()], [], { TINY_CLAW_TRACE_MODE: 'replay' });
    const rejected = await world.decide(
      ['reject', result.approvalId as string, 'secrets', 'stay', 'out', '--json'],
      [{ text: 'understood, leaving .env alone' }],
      { TINY_CLAW_TRACE_MODE: 'replay' },
    );
    expect(rejected.code, rejected.stderr).toBe(0);
    const resumed = JSON.parse(rejected.stdout);
    expect(resumed).toMatchObject({ stopReason: 'final', text: 'understood, leaving .env alone' });
    expect(await exists(world.ws.path('.env'))).toBe(false);
    const sent = await firstModelRequest(resumed.tracePath);
    const answer = sent.find((message) => message.role === 'tool');
    expect(answer?.content).toMatch(
      /^rejected by cli:\S+: secrets stay out\. The tool call was not executed\./,
    );
    expect(rejected.stderr).toMatch(/✗ write rejected by cli:\S+: secrets stay out/);
    const record = await world.record(result.approvalId as string);
    expect(record).toMatchObject({
      status: 'rejected',
      decision: 'reject',
      decisionReason: 'secrets stay out',
    });
  });

  it('rejects without a reason, and refuses a second decision on the same request', async () => {
    const { result } = await world.run([writeEnv()]);
    const id = result.approvalId as string;
    const rejected = await world.decide(['reject', id]);
    expect(rejected.code, rejected.stderr).toBe(0);
    expect(rejected.stderr).toContain('no reason given');
    const approved = await world.decide(['approve', id]);
    expect(approved.code).toBe(1);
    expect(approved.stderr).toContain('was already handled: rejected by cli:');
    expect(await exists(world.ws.path('.env'))).toBe(false);
  });
});

describe('tiny-claw approvals list and show', () => {
  it('lists requests newest first as a table and as JSON, filtered by status and session', async () => {
    const first = (await world.run([writeEnv()])).result;
    const second = (await world.run([writeEnv()], ['--session', 'ops'])).result;
    await world.decide(['reject', first.approvalId as string, 'no']);

    const listed = await world.cli(['approvals', 'list']);
    expect(listed.code, listed.stderr).toBe(0);
    const lines = listed.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+STATUS\s+TOOL\s+CREATED\s+SESSION\s+REASON$/);
    expect(lines[1]).toMatch(
      new RegExp(
        `^${second.approvalId}\\s+pending\\s+write\\s+\\S+ \\S+\\s+ops\\s+\\.env files hold secrets`,
      ),
    );
    expect(lines[2]).toMatch(new RegExp(`^${first.approvalId}\\s+rejected\\s+write\\s+.*default`));

    const pending = await world.cli(['approvals', 'list', '--status', 'pending', '--json']);
    expect(JSON.parse(pending.stdout).map((r: { id: string }) => r.id)).toEqual([
      second.approvalId,
    ]);
    const ops = await world.cli(['approvals', 'list', '--session', 'ops', '--json']);
    expect(JSON.parse(ops.stdout).map((r: { id: string }) => r.id)).toEqual([second.approvalId]);
    const none = await world.cli(['approvals', 'list', '--status', 'consumed']);
    expect(none.code).toBe(0);
    expect(none.stdout).toBe('');
    expect(none.stderr).toContain('no approval requests consumed in');
  });

  it('shows the whole record with the change it would make, and the record itself with --json', async () => {
    await writeFile(world.ws.path('.env'), 'TOKEN=0\nKEEP=1\n');
    const { result } = await world.run([writeEnv('TOKEN=1\nKEEP=1\n')]);
    const id = result.approvalId as string;
    const shown = await world.cli(['approvals', 'show', id]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(new RegExp(`^id\\s+${id}$`, 'm'));
    expect(shown.stdout).toMatch(/^status\s+pending$/m);
    expect(shown.stdout).toMatch(/^tool\s+write$/m);
    expect(shown.stdout).toMatch(/^requested\s+\S+ by cli:/m);
    expect(shown.stdout).toContain('  - .env files hold secrets');
    expect(shown.stdout).toContain('"content": "TOKEN=1\\nKEEP=1\\n"');
    expect(shown.stdout).toContain('-TOKEN=0\n+TOKEN=1\n KEEP=1\n');
    const json = JSON.parse((await world.cli(['approvals', 'show', id, '--json'])).stdout);
    expect(json).toMatchObject({
      id,
      status: 'pending',
      toolName: 'write',
      arguments: { path: '.env', content: 'TOKEN=1\nKEEP=1\n' },
      workdir: world.ws.dir,
    });
  });

  it('shows text from the model with its escape sequences made visible, never raw', async () => {
    const payload = 'A=1\n\x1b]0;pwned\x07\x1b[2J\u202eevil\n';
    const { result } = await world.run([writeEnv(payload)]);
    const shown = await world.cli(['approvals', 'show', result.approvalId as string]);
    for (const raw of ['\x1b', '\x07', '\u202e']) expect(shown.stdout).not.toContain(raw);
    expect(shown.stdout).toContain('\\x1b[2J');
    expect(shown.stdout).toContain('\\u202e');
    const json = await world.cli(['approvals', 'show', result.approvalId as string, '--json']);
    for (const raw of ['\x1b', '\x07', '\u202e']) expect(json.stdout).not.toContain(raw);
    expect(JSON.parse(json.stdout).arguments.content).toBe(payload);
  });

  it('rejects bad subcommands and flags with exit 2 and a pointer to help', async () => {
    for (const args of [
      ['approvals'],
      ['approvals', 'frob'],
      ['approvals', 'approve'],
      ['approvals', 'list', '--status', 'done'],
      ['approvals', 'list', 'extra'],
      ['approvals', 'approve', 'ap_AAAAAAAAAAAAAAAAAAAAAA', 'extra'],
      ['approvals', 'approve', 'ap_AAAAAAAAAAAAAAAAAAAAAA', '--nope'],
      ['approvals', 'reject', 'ap_AAAAAAAAAAAAAAAAAAAAAA', '--session', 'a\tb'],
    ]) {
      const result = await world.cli(args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toContain("Run 'tiny-claw approvals --help' for usage.");
    }
    const help = await world.cli(['approvals', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('tiny-claw approvals approve ID');
  });
});

/** An edit of app.ts that collapses its first 22 lines into one: large enough to need approval. */
function collapseEdit() {
  const lines = Array.from({ length: 22 }, (_, i) => `export const line${i + 1} = ${i + 1};`);
  return { path: 'app.ts', old_text: lines.join('\n'), new_text: 'export const collapsed = true;' };
}
