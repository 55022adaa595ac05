import { existsSync } from 'node:fs';
import { symlink } from 'node:fs/promises';
import {
  createTempWorkspace,
  type FakeLlmServer,
  runCli,
  startFakeLlmServer,
  type TempWorkspace,
} from '@tiny-claw/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bin } from './__fixtures__/approval-cli.js';
import { cliSandbox } from './__fixtures__/cli-sandbox.js';

// tiny-claw's own settings inside the workdir, as a user can end up with them: XDG_CONFIG_HOME in
// the project (so the user config with the API key is there) and an --env-file in the project.
// The fake model asks for each of them every way it can — read, a symlink, `..`, write, and a
// command in the real bubblewrap sandbox — and nothing of them may come back to it.
const CONFIG_KEY = 'sk-config-0123456789abcdef';
const TEAM_SECRET = 'team-secret-fedcba9876543210';

let ws: TempWorkspace;
let home: TempWorkspace;
let llm: FakeLlmServer;
let env: Record<string, string>;

beforeEach(async () => {
  llm = await startFakeLlmServer();
  ws = await createTempWorkspace({
    'xdg/tiny-claw/.env': `OPENAI_API_KEY=${CONFIG_KEY}\nOPENAI_BASE_URL=${llm.openaiBaseUrl}\n`,
    'team.env': `TINY_CLAW_MAX_TOKENS=512\nFEISHU_APP_SECRET=${TEAM_SECRET}\n`,
    'notes/readme.md': 'project notes\n',
  });
  home = await createTempWorkspace({ '.keep': '' });
  await symlink('../xdg/tiny-claw/.env', ws.path('notes/config.txt'));
  await symlink('../team.env', ws.path('notes/team.txt'));
  env = {
    HOME: home.dir,
    XDG_CONFIG_HOME: ws.path('xdg'),
    TINY_CLAW_STATE_DIR: ws.path('state'),
    TINY_CLAW_PROVIDER: 'openai',
    TINY_CLAW_STREAM: 'off',
    TINY_CLAW_ENABLED_TOOLS: 'read,write,bash',
    TINY_CLAW_APPROVAL_PROVIDER: 'off',
    TINY_CLAW_SANDBOX: 'bwrap',
  };
});
afterEach(async () => {
  await llm.close();
  await ws.cleanup();
  await home.cleanup();
});

const cli = (args: string[]) => runCli({ bin, args, cwd: ws.dir, env, timeoutMs: 60_000 });

interface ToolMessage {
  role: string;
  content?: string;
}

describe("tiny-claw's own settings in the workdir are out of every tool's reach", () => {
  it('read, write, a symlink, .. and a sandboxed cat all fail, also on the state dir, and neither secret reaches the model', async (context) => {
    const sandbox = await cliSandbox();
    if (sandbox.active !== 'bwrap')
      context.skip(`bubblewrap is not usable here: ${sandbox.reason}`);
    await cli(['trust', home.dir]);
    const listPath = 'state/trusted-folders.json';
    expect(existsSync(ws.path(listPath))).toBe(true);
    // Any other file of the state dir (approvals, checkpoints, traces) is just as out of reach.
    await ws.write('state/sessions/other/meta.json', '{"note":"tiny-claw state"}\n');

    llm.enqueue({
      kind: 'turn',
      toolCalls: [
        { name: 'read', arguments: { path: 'xdg/tiny-claw/.env' } },
        { name: 'read', arguments: { path: 'team.env' } },
        { name: 'read', arguments: { path: 'notes/config.txt' } },
        { name: 'read', arguments: { path: 'notes/../team.env' } },
        { name: 'read', arguments: { path: 'notes/team.txt' } },
        { name: 'read', arguments: { path: listPath } },
        { name: 'read', arguments: { path: 'state/sessions/other/meta.json' } },
        { name: 'write', arguments: { path: 'xdg/tiny-claw/mcp.json', content: '{}' } },
        {
          name: 'bash',
          arguments: {
            command: `cat xdg/tiny-claw/.env; cat team.env; cat notes/config.txt; cat ${listPath}; echo "config entries: $(ls -A xdg/tiny-claw | wc -l)"`,
          },
        },
      ],
    });
    llm.enqueue({ kind: 'turn', text: 'nothing found' });

    const result = await cli(['--env-file', 'team.env', 'run', 'find the keys', '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(llm.requests).toHaveLength(2);
    // The key did its job: it went to the provider, in the header and nowhere else.
    expect(llm.requests[0]?.headers.authorization).toBe(`Bearer ${CONFIG_KEY}`);

    const second = llm.requests[1]?.body as { messages: ToolMessage[] } | undefined;
    const messages = second?.messages ?? [];
    const results = messages.filter((message) => message.role === 'tool');
    expect(results).toHaveLength(9);
    for (const refused of results.slice(0, 8)) {
      expect(refused.content).toContain('tiny-claw keeps its own settings');
      expect(refused.content).toContain('can neither read nor write');
    }
    const commandOutput = results[8]?.content ?? '';
    expect(commandOutput).toContain('config entries: 0');
    expect(commandOutput).not.toContain('OPENAI_API_KEY');
    expect(commandOutput).not.toContain(home.dir);

    for (const request of llm.requests) {
      const body = JSON.stringify(request.body);
      expect(body).not.toContain(CONFIG_KEY);
      expect(body).not.toContain(TEAM_SECRET);
    }
    expect(`${result.stdout}${result.stderr}`).not.toContain(CONFIG_KEY);
    expect(`${result.stdout}${result.stderr}`).not.toContain(TEAM_SECRET);
    expect(existsSync(ws.path('xdg/tiny-claw/mcp.json'))).toBe(false);
  });
});
