import {
  defaultPriceTable,
  FileUsageRecorder,
  type LLMProvider,
  type Logger,
  mergePriceTables,
  UsageTrackingProvider,
} from '@tiny-claw/core';
import { chooseProvider, requireProviderKey } from '../settings/provider-choice.js';
import type { Settings } from '../settings/settings-schema.js';
import { Application } from './application.js';
import { loadPriceFile } from './price-file.js';
import { createProvider } from './provider-factory.js';
import { createStderrLogger } from './stderr-logger.js';
import { assembleTools } from './tool-factory.js';
import { createRuntimeTracing } from './tracer-factory.js';

/** Parts a caller may supply instead of the ones built from settings (tests, embedding). */
export interface ApplicationOverrides {
  provider?: LLMProvider;
  logger?: Logger;
}

/**
 * Assemble the application from validated settings: provider, tools and policy, sessions, memory.
 * Throws `ConfigurationError` (exit 78) for anything the user must fix.
 *
 * @example
 * const settings = loadSettings({ env: process.env, cwd: process.cwd(), homeDir: os.homedir() });
 * const app = await createApplication(settings);
 */
export async function createApplication(
  settings: Settings,
  overrides: ApplicationOverrides = {},
): Promise<Application> {
  const logger = overrides.logger ?? createStderrLogger(settings.logLevel);
  const tools = assembleTools(settings);
  const prices = settings.pricesPath
    ? mergePriceTables(defaultPriceTable, await loadPriceFile(settings.pricesPath))
    : defaultPriceTable;
  const tracing = await createRuntimeTracing(settings, logger);
  // Every model call is timed, priced, recorded and traced, whichever provider makes it.
  const track = (inner: LLMProvider) =>
    new UsageTrackingProvider(inner, {
      recorder: new FileUsageRecorder(settings.stateDir),
      prices,
      tracer: tracing.tracer,
      logger,
    });
  if (overrides.provider) {
    return new Application(
      settings,
      'injected by the caller',
      track(overrides.provider),
      tools,
      logger,
      tracing,
    );
  }
  const choice = chooseProvider(settings);
  if (choice.name === 'openai' || choice.name === 'claude') {
    requireProviderKey(settings, choice.name);
  }
  const provider = await createProvider(settings, choice);
  return new Application(settings, choice.reason, track(provider), tools, logger, tracing);
}
