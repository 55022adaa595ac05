import { ConfigurationError } from '@tiny-claw/core';
import type { Settings } from './settings-schema.js';

/** A provider tiny-claw can build. */
export type ProviderName = 'openai' | 'claude' | 'echo' | 'scripted';

/**
 * The provider to use and why, as shown by `tiny-claw health` and at run start.
 *
 * @example
 * const choice: ProviderChoice = { name: 'echo', reason: 'explicit: TINY_CLAW_PROVIDER=echo' };
 */
export interface ProviderChoice {
  readonly name: ProviderName;
  readonly reason: string;
}

/** The parts of {@link Settings} that decide the provider. */
export type ProviderSettings = Pick<Settings, 'provider' | 'openai' | 'anthropic'>;

const DEFAULT_MODELS: Readonly<Record<ProviderName, string>> = {
  openai: 'gpt-5.4',
  claude: 'claude-sonnet-4-20250514',
  echo: 'echo',
  scripted: 'scripted',
};

const KEY_VARIABLES = {
  openai: ['OPENAI_API_KEY', 'OPENAI_KEY', 'TINY_CLAW_OPENAI_API_KEY'],
  claude: ['ANTHROPIC_API_KEY', 'CLAUDE_KEY', 'CLAUDE_API_KEY', 'TINY_CLAW_CLAUDE_API_KEY'],
} as const;

/**
 * Resolves `TINY_CLAW_PROVIDER`. `auto` picks `openai` when an OpenAI key is set, else `claude`
 * when an Anthropic key is set, else `echo`; `anthropic` means `claude`.
 *
 * @example
 * chooseProvider(loadSettings({ env: { OPENAI_API_KEY: 'sk-1' }, cwd: '/w', homeDir: '/h' }));
 * // → { name: 'openai', reason: 'auto: OPENAI_API_KEY is set' }
 */
export function chooseProvider(settings: ProviderSettings): ProviderChoice {
  const setting = settings.provider;
  if (setting !== 'auto') {
    return {
      name: setting === 'anthropic' ? 'claude' : setting,
      reason: `explicit: TINY_CLAW_PROVIDER=${setting}`,
    };
  }
  if (settings.openai.apiKey !== undefined) {
    const variable = settings.openai.apiKeySource ?? KEY_VARIABLES.openai[0];
    return { name: 'openai', reason: `auto: ${variable} is set` };
  }
  if (settings.anthropic.apiKey !== undefined) {
    const variable = settings.anthropic.apiKeySource ?? KEY_VARIABLES.claude[0];
    return { name: 'claude', reason: `auto: ${variable} is set` };
  }
  return {
    name: 'echo',
    reason: 'auto: no OPENAI_API_KEY or ANTHROPIC_API_KEY configured, using the echo provider',
  };
}

/**
 * The model used when `TINY_CLAW_MODEL` is unset.
 *
 * @example
 * defaultModel('claude'); // → 'claude-sonnet-4-20250514'
 */
export function defaultModel(name: ProviderName): string {
  return DEFAULT_MODELS[name];
}

/**
 * Fails fast when the chosen vendor provider has no API key; echo and scripted need none.
 *
 * @throws ConfigurationError e.g. `OPENAI_API_KEY is required when TINY_CLAW_PROVIDER=openai
 *   (aliases: OPENAI_KEY, TINY_CLAW_OPENAI_API_KEY).`
 * @example
 * const choice = chooseProvider(settings);
 * requireProviderKey(settings, choice.name);
 */
export function requireProviderKey(settings: ProviderSettings, name: ProviderName): void {
  if (name !== 'openai' && name !== 'claude') return;
  const credentials = name === 'openai' ? settings.openai : settings.anthropic;
  if (credentials.apiKey !== undefined) return;
  const [primary, ...aliases] = KEY_VARIABLES[name];
  const setting = settings.provider === 'auto' ? name : settings.provider;
  throw new ConfigurationError(
    `${primary} is required when TINY_CLAW_PROVIDER=${setting} (aliases: ${aliases.join(', ')}).`,
  );
}
