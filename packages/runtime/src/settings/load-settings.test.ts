import { describe, expect, it } from 'vitest';
import { type LoadSettingsOptions, loadSettings } from './load-settings.js';
import { SETTING_VARIABLE_NAMES } from './setting-variables.js';

const base = { cwd: '/home/me/repo', homeDir: '/home/me' } as const;

function load(
  env: LoadSettingsOptions['env'],
  dotenv?: LoadSettingsOptions['dotenv'],
): ReturnType<typeof loadSettings> {
  return loadSettings({ ...base, env, ...(dotenv === undefined ? {} : { dotenv }) });
}

describe('loadSettings defaults', () => {
  it('uses the documented default for every variable when nothing is set', () => {
    const settings = load({});
    expect(settings).toMatchObject({
      provider: 'auto',
      model: undefined,
      maxTokens: 4096,
      stateDir: '/home/me/.tiny-claw',
      workdir: '/home/me/repo',
      enabledTools: ['read'],
      toolAllowlist: [],
      toolDenylist: [],
      approvalProvider: 'auto',
      approvalRequiredTools: ['bash', 'edit', 'write'],
      approvalTimeoutSeconds: 3600,
      traceMode: 'metadata',
      traceMaxPayloadChars: 4000,
      logLevel: 'warn',
      logFormat: 'text',
      server: { host: '0.0.0.0', port: 8000 },
      contextMaxChars: 120_000,
      contextRetainLastMessages: 8,
      maxParallelTools: 4,
      sandbox: 'auto',
      sandboxNetwork: 'off',
      sandboxHide: [],
      scriptPath: undefined,
      openai: {},
      anthropic: {},
      feishu: { eventPath: '/api/events/feishu', approvers: [] },
    });
    expect(Object.values(settings.sources).every((source) => source === 'default')).toBe(true);
  });

  it('treats empty and blank strings as unset', () => {
    const settings = load({
      TINY_CLAW_MAX_TOKENS: '',
      TINY_CLAW_PROVIDER: '   ',
      TINY_CLAW_MODEL: '',
      OPENAI_API_KEY: '',
      FEISHU_EVENT_PATH: ' ',
      TINY_CLAW_APPROVAL_REQUIRED_TOOLS: '',
    });
    expect(settings.maxTokens).toBe(4096);
    expect(settings.provider).toBe('auto');
    expect(settings.model).toBeUndefined();
    expect(settings.openai.apiKey).toBeUndefined();
    expect(settings.feishu.eventPath).toBe('/api/events/feishu');
    expect(settings.approvalRequiredTools).toEqual(['bash', 'edit', 'write']);
    expect(settings.sources.TINY_CLAW_MAX_TOKENS).toBe('default');
  });

  it('returns deeply frozen settings', () => {
    const settings = load({});
    expect(Object.isFrozen(settings)).toBe(true);
    expect(Object.isFrozen(settings.server)).toBe(true);
    expect(Object.isFrozen(settings.enabledTools)).toBe(true);
    expect(Object.isFrozen(settings.feishu.approvers)).toBe(true);
    expect(Object.isFrozen(settings.sources)).toBe(true);
  });
});

describe('loadSettings sources', () => {
  it('lets a real environment variable beat the same variable in .env', () => {
    const settings = load({ TINY_CLAW_MAX_TOKENS: '100' }, { TINY_CLAW_MAX_TOKENS: '200' });
    expect(settings.maxTokens).toBe(100);
    expect(settings.sources.TINY_CLAW_MAX_TOKENS).toBe('env');
  });

  it('lets .env fill variables that are unset in the environment', () => {
    const settings = load({ TINY_CLAW_MODEL: undefined }, { TINY_CLAW_MODEL: 'gpt-x' });
    expect(settings.model).toBe('gpt-x');
    expect(settings.sources.TINY_CLAW_MODEL).toBe('.env');
  });

  it('lets .env fill a variable that is empty in the environment', () => {
    const settings = load({ TINY_CLAW_MAX_TOKENS: '' }, { TINY_CLAW_MAX_TOKENS: '300' });
    expect(settings.maxTokens).toBe(300);
    expect(settings.sources.TINY_CLAW_MAX_TOKENS).toBe('.env');
  });

  it('does not validate a .env value that the environment overrides', () => {
    expect(load({ TINY_CLAW_MAX_TOKENS: '5' }, { TINY_CLAW_MAX_TOKENS: 'abc' }).maxTokens).toBe(5);
  });

  it('records a source for every alias name too', () => {
    const settings = load({ OPENAI_KEY: 'sk-a' }, { LARK_APP_ID: 'cli_1' });
    expect(settings.sources).toMatchObject({
      OPENAI_API_KEY: 'default',
      OPENAI_KEY: 'env',
      LARK_APP_ID: '.env',
      FEISHU_APP_ID: 'default',
    });
  });
});

describe('loadSettings TINY_CLAW_ENABLED_TOOLS', () => {
  it('an explicitly empty TINY_CLAW_ENABLED_TOOLS enables no tools', () => {
    const settings = load({ TINY_CLAW_ENABLED_TOOLS: '' });
    expect(settings.enabledTools).toEqual([]);
    expect(settings.sources.TINY_CLAW_ENABLED_TOOLS).toBe('env');
  });

  it('an empty TINY_CLAW_ENABLED_TOOLS in the environment is not filled from .env', () => {
    expect(
      load({ TINY_CLAW_ENABLED_TOOLS: '' }, { TINY_CLAW_ENABLED_TOOLS: 'bash' }).enabledTools,
    ).toEqual([]);
  });

  it('an empty TINY_CLAW_ENABLED_TOOLS in .env enables no tools', () => {
    expect(load({}, { TINY_CLAW_ENABLED_TOOLS: '' }).enabledTools).toEqual([]);
  });

  it('normalises tool lists: trimmed, lower-cased, de-duplicated, sorted, empty items dropped', () => {
    const settings = load({
      TINY_CLAW_ENABLED_TOOLS: ' Write, READ ,bash,,read, ',
      TINY_CLAW_TOOL_ALLOWLIST: 'edit,EDIT',
      TINY_CLAW_TOOL_DENYLIST: 'write, bash',
      TINY_CLAW_APPROVAL_REQUIRED_TOOLS: 'bash',
    });
    expect(settings.enabledTools).toEqual(['bash', 'read', 'write']);
    expect(settings.toolAllowlist).toEqual(['edit']);
    expect(settings.toolDenylist).toEqual(['bash', 'write']);
    expect(settings.approvalRequiredTools).toEqual(['bash']);
  });
});

describe('loadSettings values', () => {
  it('reads the sandbox mode, its network switch and the extra hidden paths', () => {
    const settings = load({
      TINY_CLAW_SANDBOX: 'BWRAP',
      TINY_CLAW_SANDBOX_NETWORK: 'true',
      TINY_CLAW_SANDBOX_HIDE: '~/.kube, secrets,,~/.kube',
    });
    expect(settings.sandbox).toBe('bwrap');
    expect(settings.sandboxNetwork).toBe('on');
    expect(settings.sandboxHide).toEqual(['/home/me/.kube', '/home/me/repo/secrets']);
  });

  it('rejects an unknown sandbox mode naming the accepted ones', () => {
    expect(() => load({ TINY_CLAW_SANDBOX: 'docker' })).toThrow(
      /TINY_CLAW_SANDBOX="docker".*auto.*bwrap.*off/s,
    );
  });

  it('normalises enum values case-insensitively', () => {
    const settings = load({
      TINY_CLAW_PROVIDER: ' OpenAI ',
      TINY_CLAW_APPROVAL_PROVIDER: 'CLI',
      TINY_CLAW_TRACE_MODE: 'Replay',
    });
    expect(settings.provider).toBe('openai');
    expect(settings.approvalProvider).toBe('cli');
    expect(settings.traceMode).toBe('replay');
  });

  it.each([
    ['DEBUG', 'debug'],
    ['info', 'info'],
    ['Warn', 'warn'],
    ['WARNING', 'warn'],
    ['error', 'error'],
    ['critical', 'error'],
  ])('maps TINY_CLAW_LOG_LEVEL=%s to %s', (raw, level) => {
    expect(load({ TINY_CLAW_LOG_LEVEL: raw }).logLevel).toBe(level);
  });

  it.each([
    ['text', 'text'],
    ['JSON', 'json'],
    [' json ', 'json'],
  ])('maps TINY_CLAW_LOG_FORMAT=%j to %s', (raw, format) => {
    expect(load({ TINY_CLAW_LOG_FORMAT: raw }).logFormat).toBe(format);
  });

  it('accepts integers at the edges of their ranges', () => {
    const settings = load({
      TINY_CLAW_MAX_TOKENS: '1000000',
      TINY_CLAW_SERVER_PORT: ' 65535 ',
      TINY_CLAW_CONTEXT_MAX_CHARS: '1000',
      TINY_CLAW_MAX_PARALLEL_TOOLS: '64',
      TINY_CLAW_APPROVAL_TIMEOUT_SECONDS: '1',
    });
    expect(settings.maxTokens).toBe(1_000_000);
    expect(settings.server.port).toBe(65535);
    expect(settings.contextMaxChars).toBe(1000);
    expect(settings.maxParallelTools).toBe(64);
    expect(settings.approvalTimeoutSeconds).toBe(1);
  });

  it('expands ~ and resolves state and work directories against cwd', () => {
    expect(load({ TINY_CLAW_STATE_DIR: '~' }).stateDir).toBe('/home/me');
    expect(load({ TINY_CLAW_STATE_DIR: '~/state' }).stateDir).toBe('/home/me/state');
    expect(load({ TINY_CLAW_STATE_DIR: 'state' }).stateDir).toBe('/home/me/repo/state');
    expect(load({ TINY_CLAW_WORKDIR: '../other/' }).workdir).toBe('/home/me/other');
    expect(load({ TINY_CLAW_WORKDIR: '~/code' }).workdir).toBe('/home/me/code');
    expect(load({ TINY_CLAW_WORKDIR: '/abs/./dir' }).workdir).toBe('/abs/dir');
  });

  it('resolves TINY_CLAW_SCRIPT to an absolute path', () => {
    const settings = load({ TINY_CLAW_PROVIDER: 'scripted', TINY_CLAW_SCRIPT: 'demo.json' });
    expect(settings.scriptPath).toBe('/home/me/repo/demo.json');
  });

  it('reads Feishu settings, aliases and approvers', () => {
    const settings = load({
      LARK_APP_ID: 'cli_1',
      FEISHU_APP_SECRET: 'secret',
      LARK_APP_SECRET: 'ignored',
      FEISHU_VERIFICATION_TOKEN: 'vt',
      FEISHU_ENCRYPT_KEY: 'ek',
      FEISHU_EVENT_PATH: ' /hooks/lark ',
      FEISHU_APPROVERS: 'ou_a, ou_b,,ou_a',
    });
    expect(settings.feishu).toEqual({
      appId: 'cli_1',
      appSecret: 'secret',
      verificationToken: 'vt',
      encryptKey: 'ek',
      eventPath: '/hooks/lark',
      approvers: ['ou_a', 'ou_b'],
      mode: 'webhook',
      domain: 'feishu',
    });
  });

  it('reads how the server receives Feishu events and which open API it talks to', () => {
    expect(load({ FEISHU_MODE: ' WS ', FEISHU_DOMAIN: 'Lark' }).feishu).toMatchObject({
      mode: 'ws',
      domain: 'lark',
    });
    expect(load({ FEISHU_DOMAIN: 'http://127.0.0.1:9000/' }).feishu.domain).toBe(
      'http://127.0.0.1:9000',
    );
  });
});

describe('loadSettings API keys and base URLs', () => {
  it('prefers OPENAI_API_KEY over OPENAI_KEY over TINY_CLAW_OPENAI_API_KEY and records the source', () => {
    const all = { OPENAI_API_KEY: 'k1', OPENAI_KEY: 'k2', TINY_CLAW_OPENAI_API_KEY: 'k3' };
    expect(load(all).openai).toEqual({ apiKey: 'k1', apiKeySource: 'OPENAI_API_KEY' });
    expect(load({ ...all, OPENAI_API_KEY: '' }).openai).toEqual({
      apiKey: 'k2',
      apiKeySource: 'OPENAI_KEY',
    });
    expect(load({ TINY_CLAW_OPENAI_API_KEY: ' k3 ' }).openai).toEqual({
      apiKey: 'k3',
      apiKeySource: 'TINY_CLAW_OPENAI_API_KEY',
    });
  });

  it('prefers ANTHROPIC_API_KEY, then CLAUDE_KEY, CLAUDE_API_KEY, TINY_CLAW_CLAUDE_API_KEY', () => {
    const all = {
      ANTHROPIC_API_KEY: 'a1',
      CLAUDE_KEY: 'a2',
      CLAUDE_API_KEY: 'a3',
      TINY_CLAW_CLAUDE_API_KEY: 'a4',
    };
    expect(load(all).anthropic.apiKeySource).toBe('ANTHROPIC_API_KEY');
    expect(load({ ...all, ANTHROPIC_API_KEY: undefined }).anthropic.apiKeySource).toBe(
      'CLAUDE_KEY',
    );
    expect(load({ CLAUDE_API_KEY: 'a3', TINY_CLAW_CLAUDE_API_KEY: 'a4' }).anthropic).toEqual({
      apiKey: 'a3',
      apiKeySource: 'CLAUDE_API_KEY',
    });
    expect(load({ TINY_CLAW_CLAUDE_API_KEY: 'a4' }).anthropic.apiKey).toBe('a4');
  });

  it('applies alias order after merging .env, so a canonical name in .env beats an alias in env', () => {
    const settings = load({ OPENAI_KEY: 'from-env' }, { OPENAI_API_KEY: 'from-file' });
    expect(settings.openai).toEqual({ apiKey: 'from-file', apiKeySource: 'OPENAI_API_KEY' });
  });

  it('accepts http and https base URLs from either variable name', () => {
    expect(load({ OPENAI_BASE_URL: 'http://127.0.0.1:8080/v1' }).openai.baseUrl).toBe(
      'http://127.0.0.1:8080/v1',
    );
    expect(load({ TINY_CLAW_OPENAI_BASE_URL: 'https://proxy.local' }).openai.baseUrl).toBe(
      'https://proxy.local',
    );
    expect(load({ ANTHROPIC_BASE_URL: 'https://api.anthropic.com' }).anthropic.baseUrl).toBe(
      'https://api.anthropic.com',
    );
  });
});

describe('loadSettings precedence across settings files', () => {
  const file = (
    source: 'env-file' | 'user config' | '.env',
    values: Record<string, string>,
  ): NonNullable<LoadSettingsOptions['files']>[number] => ({
    source,
    path: `/files/${source.replace(' ', '-')}`,
    values,
  });

  it('takes the real environment first, then --env-file, then the user config, then .env', () => {
    const settings = loadSettings({
      ...base,
      env: { TINY_CLAW_MODEL: 'env' },
      files: [
        file('env-file', { TINY_CLAW_MODEL: 'x', TINY_CLAW_MAX_TOKENS: '2' }),
        file('user config', {
          TINY_CLAW_MODEL: 'x',
          TINY_CLAW_MAX_TOKENS: '3',
          TINY_CLAW_TRACE_MODE: 'off',
        }),
        file('.env', {
          TINY_CLAW_MODEL: 'x',
          TINY_CLAW_MAX_TOKENS: '4',
          TINY_CLAW_TRACE_MODE: 'replay',
          TINY_CLAW_STREAM: 'off',
        }),
      ],
    });
    expect(settings).toMatchObject({ model: 'env', maxTokens: 2, traceMode: 'off', stream: 'off' });
    expect(settings.sources).toMatchObject({
      TINY_CLAW_MODEL: 'env',
      TINY_CLAW_MAX_TOKENS: 'env-file',
      TINY_CLAW_TRACE_MODE: 'user config',
      TINY_CLAW_STREAM: '.env',
      TINY_CLAW_WORKDIR: 'default',
    });
  });

  it('lets a blank value in a stronger file fall through to a weaker one', () => {
    const settings = loadSettings({
      ...base,
      env: {},
      files: [
        file('env-file', { TINY_CLAW_MODEL: ' ' }),
        file('user config', { TINY_CLAW_MODEL: 'm' }),
      ],
    });
    expect(settings.model).toBe('m');
    expect(settings.sources.TINY_CLAW_MODEL).toBe('user config');
  });

  it('names the file that holds a bad value', () => {
    expect(() =>
      loadSettings({
        ...base,
        env: {},
        files: [file('user config', { TINY_CLAW_MAX_TOKENS: 'x' })],
      }),
    ).toThrow(
      'TINY_CLAW_MAX_TOKENS="x" is invalid: expected an integer from 1 to 1000000; set in /files/user-config.',
    );
  });

  it('reports an untrusted .env it was told about as a warning, not a value', () => {
    const settings = loadSettings({ ...base, env: {}, untrustedDotenv: '/home/me/repo/.env' });
    expect(settings.warnings).toEqual([{ kind: 'untrusted-dotenv', path: '/home/me/repo/.env' }]);
  });
});

describe('loadSettings unknown variables', () => {
  it('warns once about a misspelt variable and names the closest known setting', () => {
    const settings = loadSettings({
      ...base,
      env: { TINY_CLAW_ENABLE_TOOLS: 'bash' },
      files: [
        { source: 'user config', path: '/c/.env', values: { TINY_CLAW_ENABLE_TOOLS: 'edit' } },
      ],
    });
    expect(settings.enabledTools).toEqual(['read']);
    expect(settings.warnings).toEqual([
      {
        kind: 'unknown-variable',
        name: 'TINY_CLAW_ENABLE_TOOLS',
        source: 'env',
        suggestion: 'TINY_CLAW_ENABLED_TOOLS',
      },
    ]);
  });

  it('warns about an unknown FEISHU_ variable from a file and says which file', () => {
    const settings = loadSettings({
      ...base,
      env: {},
      files: [{ source: 'env-file', path: '/x/team.env', values: { FEISHU_APP_SECRETS: 's' } }],
    });
    expect(settings.warnings).toEqual([
      {
        kind: 'unknown-variable',
        name: 'FEISHU_APP_SECRETS',
        source: 'env-file',
        file: '/x/team.env',
        suggestion: 'FEISHU_APP_SECRET',
      },
    ]);
  });

  it('accepts every known name, alias and internal variable, and ignores other prefixes', () => {
    const env = Object.fromEntries(
      [...SETTING_VARIABLE_NAMES, 'TINY_CLAW_PROCESS_TAG', 'OPENAI_ORG', 'PATH', 'tiny_claw_x'].map(
        (name) => [name, ''],
      ),
    );
    expect(loadSettings({ ...base, env }).warnings).toEqual([]);
  });

  it('ignores a variable that is present but undefined', () => {
    expect(loadSettings({ ...base, env: { TINY_CLAW_TYPO: undefined } }).warnings).toEqual([]);
  });
});
