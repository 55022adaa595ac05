import { ConfigurationError, type LLMProvider } from '@tiny-claw/core';
import type { ProviderChoice } from '../settings/provider-choice.js';
import type { Settings } from '../settings/settings-schema.js';

/**
 * Build the provider `choice` names. SDK-backed providers are imported lazily so commands that
 * never call a model (and `--help`) load no SDK.
 *
 * @example
 * const provider = await createProvider(settings, chooseProvider(settings));
 */
export async function createProvider(
  settings: Settings,
  choice: ProviderChoice,
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
    case 'openai':
    case 'claude':
      throw new ConfigurationError(
        `The ${choice.name} provider (${choice.reason}) is not available in this version of tiny-claw yet. ` +
          'Use TINY_CLAW_PROVIDER=echo, or TINY_CLAW_PROVIDER=scripted with TINY_CLAW_SCRIPT=<file>.',
      );
  }
}
