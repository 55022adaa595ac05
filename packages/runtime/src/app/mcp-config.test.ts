import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { createTempWorkspace, type TempWorkspace } from '@tiny-claw/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSettings } from '../settings/load-settings.js';
import { trustFolder } from '../settings/trusted-folders.js';
import { projectMcpFile, readMcpConfig, userMcpFile } from './mcp-config.js';
import { createRuntimeMcp } from './runtime-mcp.js';

// A project's own .mcp.json may start programs: it counts only in a folder the user trusts.

let ws: TempWorkspace;
beforeEach(async () => {
  ws = await createTempWorkspace({ 'a.txt': 'alpha\n' });
});
afterEach(() => ws.cleanup());

const settings = () =>
  loadSettings({
    env: {
      TINY_CLAW_STATE_DIR: ws.path('.state'),
      TINY_CLAW_WORKDIR: ws.dir,
      XDG_CONFIG_HOME: ws.path('cfg'),
    },
    cwd: ws.dir,
    homeDir: ws.dir,
  });

async function writeJson(file: string, json: unknown): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, typeof json === 'string' ? json : JSON.stringify(json));
}

const USER = {
  mcpServers: { mine: { command: 'user-server' }, shared: { command: 'user-shared' } },
};
const PROJECT = {
  mcpServers: { db: { command: 'project-db' }, shared: { command: 'project-shared' } },
};

describe('which configured MCP servers count', () => {
  it('the user’s file is $XDG_CONFIG_HOME/tiny-claw/mcp.json, the project’s <workdir>/.mcp.json', () => {
    expect(userMcpFile(settings())).toBe(ws.path('cfg/tiny-claw/mcp.json'));
    expect(projectMcpFile(ws.dir)).toBe(ws.path('.mcp.json'));
  });

  it('in an untrusted folder only the user’s servers count; the project’s are named, not read', async () => {
    const s = settings();
    await writeJson(userMcpFile(s), USER);
    await writeJson(projectMcpFile(ws.dir), PROJECT);
    const read = await readMcpConfig(s, ws.dir);
    expect(read.servers.map((entry) => [entry.name, entry.origin])).toEqual([
      ['mine', 'user'],
      ['shared', 'user'],
    ]);
    expect(read.untrusted).toEqual({ file: projectMcpFile(ws.dir), names: ['db', 'shared'] });
  });

  it('an untrusted project’s invalid file is not an error: nothing of it is used', async () => {
    await writeJson(projectMcpFile(ws.dir), { mcpServers: { db: { command: 42 } } });
    await expect(readMcpConfig(settings(), ws.dir)).resolves.toMatchObject({ servers: [] });
  });

  it('in a trusted folder the project’s servers count too, and the user’s win a name', async () => {
    const s = settings();
    await writeJson(userMcpFile(s), USER);
    await writeJson(projectMcpFile(ws.dir), PROJECT);
    await trustFolder(s.stateDir, ws.dir);
    const read = await readMcpConfig(s, ws.dir);
    expect(read.servers.map((entry) => [entry.name, entry.origin, entry.config])).toEqual([
      ['mine', 'user', { command: 'user-server' }],
      ['shared', 'user', { command: 'user-shared' }],
      ['db', 'project', { command: 'project-db' }],
    ]);
    expect(read.shadowed).toEqual(['shared']);
    expect(read.untrusted).toBeUndefined();
  });

  it.each([
    ['not JSON', '{ nope', /mcp\.json: not valid JSON/],
    [
      'a bad field',
      { mcpServers: { mine: { command: 'x', args: 'y' } } },
      /mcp\.json: server "mine": args: /,
    ],
  ])('a user file that is %s is an error naming the file', async (_name, json, message) => {
    const s = settings();
    await writeJson(userMcpFile(s), json);
    await expect(readMcpConfig(s, ws.dir)).rejects.toThrow(message);
  });

  it('an untrusted project’s servers start nothing and get one notice naming them and how to trust', async () => {
    await writeJson(projectMcpFile(ws.dir), PROJECT);
    const warnings: string[] = [];
    const logger = {
      debug() {},
      info() {},
      error() {},
      warn: (line: string) => warnings.push(line),
    };
    const mcp = await createRuntimeMcp(settings(), logger);
    expect(mcp.tools).toEqual([]);
    expect(mcp.report.servers).toEqual([]);
    expect(warnings).toEqual([
      `Did not start the MCP servers db, shared of ${projectMcpFile(ws.dir)}: this folder is not trusted. To start them, trust it: tiny-claw trust ${ws.dir}`,
    ]);
  });
});
