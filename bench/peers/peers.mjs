// The CLIs compared, and how each one is pointed at the loopback model. Every run gets a fresh HOME,
// workdir and (for tiny-claw) state dir under the run's temp dir, and an environment built from
// scratch: nothing from the caller's environment reaches a CLI except PATH, locale and TMPDIR, so a
// developer's real API keys and config never meet the benchmark.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const PROMPT = 'Read the files f0.txt to f19.txt one by one, then say done.';

/** Pinned versions; override with --codex-version / --claude-version. */
export const DEFAULT_VERSIONS = {
  codex: '0.171.0',
  claude: '2.1.332',
};

function baseEnv(home) {
  const env = { HOME: home, XDG_CONFIG_HOME: join(home, '.config'), NO_COLOR: '1' };
  for (const key of ['PATH', 'LANG', 'LC_ALL', 'TMPDIR', 'TZ']) {
    if (process.env[key] !== undefined) env[key] = process.env[key];
  }
  return env;
}

/**
 * tiny-claw through its built CLI, as a user launches it: `node apps/cli/bin/tiny-claw.js run`.
 * The provider is OpenAI Chat Completions at the mock; only the read tool is enabled. `cacheDir`
 * (XDG_CACHE_HOME) is kept across the warm-up and the measured runs: the CLI keeps V8's compiled
 * code there after its first run, as it does for a user, and the warm-up is that first run.
 */
export function tinyClaw(repoRoot, cacheDir) {
  const bin = join(repoRoot, 'apps/cli/bin/tiny-claw.js');
  const dist = join(repoRoot, 'apps/cli/dist/main.js');
  return {
    name: 'tiny-claw',
    dialect: 'chat',
    async prepare() {
      if (!existsSync(dist)) {
        throw new Error(`the CLI is not built (${dist} is missing): run 'pnpm build' first`);
      }
      const pkg = JSON.parse(readFileSync(join(repoRoot, 'apps/cli/package.json'), 'utf8'));
      return { version: pkg.version };
    },
    command({ home, state, mockUrl, steps }) {
      return {
        file: process.execPath,
        // A few steps of slack over the script: the run must end on the model's final answer,
        // never on the step limit.
        args: [bin, 'run', '--max-steps', String(steps + 5), PROMPT],
        env: {
          ...baseEnv(home),
          OPENAI_BASE_URL: `${mockUrl}/v1`,
          OPENAI_API_KEY: 'bench-not-a-real-key',
          TINY_CLAW_PROVIDER: 'openai',
          TINY_CLAW_ENABLED_TOOLS: 'read',
          TINY_CLAW_STATE_DIR: state,
          ...(cacheDir ? { XDG_CACHE_HOME: cacheDir } : {}),
        },
      };
    },
  };
}

/**
 * The Codex CLI through its npm launcher (a Node shim that execs the Rust binary), `codex exec`
 * headless. It speaks only the Responses API to a custom provider, declared in ~/.codex/config.toml.
 * Approvals and its sandbox are bypassed so that its shell tool runs without asking; update checks,
 * analytics and feedback are switched off.
 */
export function codex(prefix, version) {
  const bin = join(prefix, 'node_modules/.bin/codex');
  return {
    name: 'codex',
    dialect: 'responses',
    npm: `@openai/codex@${version}`,
    npmName: '@openai/codex',
    npmVersion: version,
    bin,
    versionArgs: ['--version'],
    parseVersion: (out) => out.match(/(\d+\.\d+\.\d+\S*)/)?.[1],
    command({ home, mockUrl }) {
      mkdirSync(join(home, '.codex'), { recursive: true });
      writeFileSync(
        join(home, '.codex/config.toml'),
        [
          'model = "mock"',
          'model_provider = "mock"',
          'check_for_update_on_startup = false',
          '',
          '[analytics]',
          'enabled = false',
          '',
          '[feedback]',
          'enabled = false',
          '',
          '[model_providers.mock]',
          'name = "mock"',
          `base_url = "${mockUrl}/v1"`,
          'wire_api = "responses"',
          'env_key = "MOCK_API_KEY"',
          '',
        ].join('\n'),
      );
      return {
        file: bin,
        args: [
          'exec',
          '--skip-git-repo-check',
          '--dangerously-bypass-approvals-and-sandbox',
          PROMPT,
        ],
        env: { ...baseEnv(home), MOCK_API_KEY: 'bench-not-a-real-key' },
      };
    },
  };
}

/**
 * Claude Code (`claude -p`, headless print mode) pointed at the mock with ANTHROPIC_BASE_URL. It
 * does not know the model name "mock" and says so once on stderr; that does not change the run.
 * Non-essential traffic (update checks, telemetry, error reports) is switched off.
 */
export function claude(prefix, version) {
  const bin = join(prefix, 'node_modules/.bin/claude');
  return {
    name: 'claude',
    dialect: 'messages',
    npm: `@anthropic-ai/claude-code@${version}`,
    npmName: '@anthropic-ai/claude-code',
    npmVersion: version,
    bin,
    versionArgs: ['--version'],
    parseVersion: (out) => out.match(/(\d+\.\d+\.\d+\S*)/)?.[1],
    command({ home, mockUrl }) {
      return {
        file: bin,
        args: ['-p', '--model', 'mock', PROMPT],
        env: {
          ...baseEnv(home),
          ANTHROPIC_BASE_URL: mockUrl,
          ANTHROPIC_API_KEY: 'bench-not-a-real-key',
          CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
          DISABLE_AUTOUPDATER: '1',
          DISABLE_TELEMETRY: '1',
          DISABLE_ERROR_REPORTING: '1',
        },
      };
    },
  };
}
