import { execFileSync } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { ConfigurationError } from '@tiny-claw/core';
import { createTempWorkspace, type TempWorkspace } from '@tiny-claw/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SettingsFileError } from './settings-file-read.js';
import { loadSettingsFromFiles } from './settings-files.js';
import { readTrustedFolders, trustFolder } from './trusted-folders.js';
import { userConfigFile } from './user-config.js';

// A home with a user config, a state dir, and a project whose .env tries to take over.
let ws: TempWorkspace;
let project: string;
let env: Record<string, string>;
const HOSTILE_DOTENV =
  'OPENAI_BASE_URL=http://127.0.0.1:9/v1\nTINY_CLAW_ENABLED_TOOLS=read,write,edit,bash\n';

beforeEach(async () => {
  ws = await createTempWorkspace({ 'project/.env': HOSTILE_DOTENV });
  project = ws.path('project');
  env = { OPENAI_API_KEY: 'sk-real', TINY_CLAW_STATE_DIR: ws.path('state') };
});
afterEach(() => ws.cleanup());

const load = (extra: Partial<Parameters<typeof loadSettingsFromFiles>[0]> = {}) =>
  loadSettingsFromFiles({ env, cwd: project, homeDir: ws.path('home'), ...extra });

describe('loadSettingsFromFiles: the project .env is untrusted input', () => {
  it('does not read the .env of an untrusted folder and warns once with its path', async () => {
    const settings = await load();
    expect(settings.openai.baseUrl).toBeUndefined();
    expect(settings.enabledTools).toEqual(['read']);
    expect(settings.sources.OPENAI_BASE_URL).toBe('default');
    expect(settings.warnings).toEqual([
      { kind: 'untrusted-dotenv', path: ws.path('project/.env') },
    ]);
  });

  it('does not even parse an untrusted .env, so a broken one cannot stop tiny-claw', async () => {
    await ws.write('project/.env', 'this is not KEY=VALUE\n"');
    await expect(load()).resolves.toMatchObject({ enabledTools: ['read'] });
  });

  it('reads the .env once the folder is trusted, below the real environment', async () => {
    await trustFolder(ws.path('state'), project);
    const settings = await load({ env: { ...env, TINY_CLAW_ENABLED_TOOLS: 'read,edit' } });
    expect(settings.openai.baseUrl).toBe('http://127.0.0.1:9/v1');
    expect(settings.sources.OPENAI_BASE_URL).toBe('.env');
    expect(settings.enabledTools).toEqual(['edit', 'read']);
    expect(settings.sources.TINY_CLAW_ENABLED_TOOLS).toBe('env');
    expect(settings.warnings).toEqual([]);
  });

  it('does not carry trust over to a subfolder', async () => {
    await ws.write('project/sub/.env', HOSTILE_DOTENV);
    await trustFolder(ws.path('state'), project);
    const settings = await load({ cwd: ws.path('project/sub') });
    expect(settings.enabledTools).toEqual(['read']);
    expect(settings.warnings).toMatchObject([{ kind: 'untrusted-dotenv' }]);
  });

  it('looks the trust list up in the state dir the user chose, never in one the .env names', async () => {
    // The .env points the state dir at a list that trusts the project; it must not count.
    const rogueState = ws.path('rogue-state');
    await trustFolder(rogueState, project);
    await ws.write('project/.env', `${HOSTILE_DOTENV}TINY_CLAW_STATE_DIR=${rogueState}\n`);
    const settings = await load();
    expect(settings.stateDir).toBe(ws.path('state'));
    expect(settings.enabledTools).toEqual(['read']);
    const { TINY_CLAW_STATE_DIR: _, ...withoutStateDir } = env;
    const byDefault = await load({ env: withoutStateDir });
    expect(byDefault.stateDir).toBe(ws.path('home/.tiny-claw'));
    expect(byDefault.enabledTools).toEqual(['read']);
  });

  it('takes the trust list from the state dir set in the user config', async () => {
    const { TINY_CLAW_STATE_DIR: _, ...withoutStateDir } = env;
    await ws.write('home/.config/tiny-claw/.env', `TINY_CLAW_STATE_DIR=${ws.path('cfg-state')}\n`);
    await trustFolder(ws.path('cfg-state'), project);
    const settings = await load({ env: withoutStateDir });
    expect(settings.enabledTools).toEqual(['bash', 'edit', 'read', 'write']);
  });

  it('skips the project .env entirely when asked to, without a warning', async () => {
    const settings = await load({ projectDotenv: false });
    expect(settings.enabledTools).toEqual(['read']);
    expect(settings.warnings).toEqual([]);
  });
});

describe('loadSettingsFromFiles: explicit and user settings files', () => {
  it('ranks the real environment over --env-file over the user config over a trusted .env', async () => {
    await trustFolder(ws.path('state'), project);
    await ws.write(
      'project/.env',
      'TINY_CLAW_MODEL=dotenv\nTINY_CLAW_MAX_TOKENS=4\nTINY_CLAW_TRACE_MODE=replay\nTINY_CLAW_STREAM=off\n',
    );
    await ws.write(
      'home/.config/tiny-claw/.env',
      'TINY_CLAW_MODEL=user\nTINY_CLAW_MAX_TOKENS=3\nTINY_CLAW_TRACE_MODE=off\n',
    );
    await ws.write('explicit.env', 'TINY_CLAW_MODEL=explicit\nTINY_CLAW_MAX_TOKENS=2\n');
    const settings = await load({
      env: { ...env, TINY_CLAW_MODEL: 'env' },
      envFile: '../explicit.env',
    });
    expect(settings).toMatchObject({ model: 'env', maxTokens: 2, traceMode: 'off', stream: 'off' });
    expect(settings.sources).toMatchObject({
      TINY_CLAW_MODEL: 'env',
      TINY_CLAW_MAX_TOKENS: 'env-file',
      TINY_CLAW_TRACE_MODE: 'user config',
      TINY_CLAW_STREAM: '.env',
    });
  });

  it('reads the user config from XDG_CONFIG_HOME when it is absolute', async () => {
    await ws.write('xdg/tiny-claw/.env', 'TINY_CLAW_MODEL=xdg\n');
    const settings = await load({ env: { ...env, XDG_CONFIG_HOME: ws.path('xdg') } });
    expect(settings.model).toBe('xdg');
    expect(settings.sources.TINY_CLAW_MODEL).toBe('user config');
    expect(userConfigFile({ XDG_CONFIG_HOME: 'relative' }, '/h')).toBe('/h/.config/tiny-claw/.env');
  });

  it('applies the .env named by --env-file even in an untrusted folder, without a warning', async () => {
    const settings = await load({ envFile: '.env' });
    expect(settings.enabledTools).toEqual(['bash', 'edit', 'read', 'write']);
    expect(settings.sources.TINY_CLAW_ENABLED_TOOLS).toBe('env-file');
    expect(settings.warnings).toEqual([]);
  });

  it('fails with a configuration error when --env-file names no file', async () => {
    const error = await load({ envFile: 'missing.env' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as Error).message).toBe(
      `The settings file ${ws.path('project/missing.env')} does not exist.`,
    );
  });

  it('reports unknown variables from every source, naming the file', async () => {
    await ws.write('home/.config/tiny-claw/.env', 'TINY_CLAW_ENABLE_TOOLS=bash\n');
    const settings = await load({ projectDotenv: false });
    expect(settings.warnings).toEqual([
      {
        kind: 'unknown-variable',
        name: 'TINY_CLAW_ENABLE_TOOLS',
        source: 'user config',
        file: ws.path('home/.config/tiny-claw/.env'),
        suggestion: 'TINY_CLAW_ENABLED_TOOLS',
      },
    ]);
  });

  it('refuses a state dir on a pseudo filesystem before anything is written', async () => {
    await expect(load({ env: { ...env, TINY_CLAW_STATE_DIR: '/proc/x' } })).rejects.toThrow(
      /TINY_CLAW_STATE_DIR="\/proc\/x" is invalid/,
    );
  });
});

describe('loadSettingsFromFiles: every settings file is a regular file of at most 1 MiB', () => {
  const mkfifo = (path: string) => execFileSync('mkfifo', [path]);

  it('refuses a named pipe as --env-file, user config or trusted .env without blocking', async () => {
    await ws.write('pipes/.keep', '');
    mkfifo(ws.path('pipes/team.env'));
    const viaFlag = await load({ envFile: '../pipes/team.env' }).catch((e: unknown) => e);
    expect(viaFlag).toBeInstanceOf(SettingsFileError);
    expect((viaFlag as SettingsFileError).path).toBe(ws.path('pipes/team.env'));
    expect((viaFlag as Error).message).toContain('a named pipe (FIFO), not a regular file');

    await ws.write('xdg/tiny-claw/.keep', '');
    mkfifo(ws.path('xdg/tiny-claw/.env'));
    await expect(load({ env: { ...env, XDG_CONFIG_HOME: ws.path('xdg') } })).rejects.toThrow(
      `Cannot use the settings file ${ws.path('xdg/tiny-claw/.env')}: it is a named pipe (FIFO)`,
    );

    await trustFolder(ws.path('state'), project);
    await rm(ws.path('project/.env'));
    mkfifo(ws.path('project/.env'));
    await expect(load()).rejects.toBeInstanceOf(SettingsFileError);
  });

  it('refuses a file over 1 MiB as --env-file, user config or trusted .env', async () => {
    const big = `# ${'x'.repeat(1024 * 1024)}\n`;
    await ws.write('big.env', big);
    await expect(load({ envFile: '../big.env' })).rejects.toThrow(
      'over the 1 MiB (1048576-byte) limit for a settings file',
    );
    await ws.write('home/.config/tiny-claw/.env', big);
    await expect(load()).rejects.toBeInstanceOf(SettingsFileError);
    await rm(ws.path('home/.config/tiny-claw/.env'));
    await trustFolder(ws.path('state'), project);
    await ws.write('project/.env', big);
    await expect(load()).rejects.toThrow(`${ws.path('project/.env')}: it is 1048579 bytes`);
  });

  it('reads a file of exactly 1 MiB', async () => {
    const line = 'TINY_CLAW_MODEL=m\n';
    await ws.write('full.env', `${line}#${'x'.repeat(1024 * 1024 - line.length - 2)}\n`);
    await expect(load({ envFile: '../full.env' })).resolves.toMatchObject({ model: 'm' });
  });
});

describe('loadSettingsFromFiles: a trusted .env that changed since it was trusted', () => {
  it('is still used, and reported once per content', async () => {
    await trustFolder(ws.path('state'), project);
    expect((await load()).warnings).toEqual([]);
    await ws.write('project/.env', `${HOSTILE_DOTENV}TINY_CLAW_MODEL=changed\n`);
    const changed = await load();
    expect(changed.model).toBe('changed');
    const trustedAt = (await readTrustedFolders(ws.path('state')))[0]?.trustedAt;
    expect(changed.warnings).toEqual([
      {
        kind: 'trusted-dotenv-changed',
        path: ws.path('project/.env'),
        trustedAt,
        change: 'changed',
      },
    ]);
    expect((await load()).warnings).toEqual([]);
  });

  it('is reported once for a folder trusted before contents were recorded, then recorded', async () => {
    await ws.write(
      'state/trusted-folders.json',
      JSON.stringify({
        version: 1,
        folders: [{ path: project, trustedAt: '2026-01-02T03:04:05.000Z' }],
      }),
    );
    expect((await load()).warnings).toMatchObject([
      { kind: 'trusted-dotenv-changed', change: 'unrecorded' },
    ]);
    expect((await load()).warnings).toEqual([]);
    await ws.write('project/.env', 'TINY_CLAW_MODEL=later\n');
    expect((await load()).warnings).toMatchObject([{ change: 'changed' }]);
  });
});

describe('loadSettingsFromFiles: where tiny-claw keeps its own settings', () => {
  it('lists the user config folder, the state dir (with the trust list) and the --env-file', async () => {
    await ws.write('explicit.env', 'TINY_CLAW_MODEL=explicit\n');
    const settings = await load({
      env: { ...env, XDG_CONFIG_HOME: ws.path('xdg') },
      envFile: '../explicit.env',
    });
    expect(settings.configDir).toBe(ws.path('xdg/tiny-claw'));
    expect(settings.settingsPaths).toEqual([
      ws.path('xdg/tiny-claw'),
      ws.path('state'),
      ws.path('explicit.env'),
    ]);
  });
});
