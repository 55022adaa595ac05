import { ConfigurationError, type LLMProvider, type PriceTable } from '@tiny-claw/core';
import { defaultModel, type ProviderChoice } from '../settings/provider-choice.js';
import type { Settings } from '../settings/settings-schema.js';

/**
 * Build the provider `choice` names. SDK-backed providers are imported lazily so commands that
 * never call a model (and `--help`) load no SDK. `prices` (the `TINY_CLAW_PRICES` file) extends
 * the vendor price table each SDK-backed provider ships.
 *
 * @example
 * const provider = await createProvider(settings, chooseProvider(settings), userPrices);
 */
export async function createProvider(
  settings: Settings,
  choice: ProviderChoice,
  prices?: PriceTable,
): Promise<LLMProvider> {
  switch (choice.name) {
    case 'echo': {
      const { EchoProvider } = await import('@tiny-claw/core/testing');
      return new EchoProvider({ model: settings.model ?? 'echo' });
    }
    case 'scripted': {
      const { ScriptedProvider, loadScript } = await import('@tiny-claw/core/testing');
      if (!settings.scriptPath) {
        throw new ConfigurationError(
          'TINY_CLAW_SCRIPT is required when TINY_CLAW_PROVIDER=scripted: set it to the path of a JSON script file.',
        );
      }
      return new ScriptedProvider(await loadScript(settings.scriptPath));
    }
    case 'openai': {
      const { OpenAIProvider } = await import('@tiny-claw/providers-openai');
      return new OpenAIProvider({
        apiKey: requireKey(settings.openai.apiKey, 'OPENAI_API_KEY'),
        model: settings.model ?? defaultModel('openai'),
        maxTokens: settings.maxTokens,
        tokenParameter: settings.openaiTokenParameter,
        stream: settings.stream === 'on',
        ...(prices ? { prices } : {}),
        ...(settings.openai.baseUrl ? { baseURL: settings.openai.baseUrl } : {}),
      });
    }
    case 'claude': {
      const { ClaudeProvider } = await import('@tiny-claw/providers-claude');
      return new ClaudeProvider({
        apiKey: requireKey(settings.anthropic.apiKey, 'ANTHROPIC_API_KEY'),
        model: settings.model ?? defaultModel('claude'),
        maxTokens: settings.maxTokens,
        stream: settings.stream === 'on',
        ...(prices ? { prices } : {}),
        ...(settings.anthropic.baseUrl ? { baseURL: settings.anthropic.baseUrl } : {}),
      });
    }
  }
}

function requireKey(key: string | undefined, variable: string): string {
  if (!key) throw new ConfigurationError(`${variable} is required for this provider.`);
  return key;
}
