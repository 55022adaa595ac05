import { createAgent, type LLMProvider, type Logger } from '@tiny-claw/core';
import { workspaceContext } from '@tiny-claw/workspace';
import { chooseProvider, requireProviderKey } from '../settings/provider-choice.js';
import type { Settings } from '../settings/settings-schema.js';
import { Application, assertWorkdir } from './application.js';
import {
  createRuntimeApprovals,
  effectiveApprovalProvider,
  type FrontEnd,
} from './approval-factory.js';
import { loadPriceFile } from './price-file.js';
import { createProvider } from './provider-factory.js';
import { createRuntimeMcp } from './runtime-mcp.js';
import { runtimePolicy } from './runtime-policy.js';
import { createRuntimePolicy } from './runtime-rules.js';
import { createRuntimeStore } from './state-store-factory.js';
import { createStderrLogger } from './stderr-logger.js';
import { createRuntimeTools } from './tool-factory.js';
import { createRuntimeTracing } from './tracer-factory.js';

/**
 * Parts a caller may supply instead of the ones built from settings (tests, embedding).
 *
 * @example
 * await createApplication(settings, { provider: new ScriptedProvider(script) });
 */
export interface ApplicationOverrides {
  provider?: LLMProvider;
  logger?: Logger;
  /** Which front end assembles it (default `cli`): decides what `TINY_CLAW_APPROVAL_PROVIDER=auto` means. */
  front?: FrontEnd;
}

/**
 * Assemble the application from validated settings with the same `createAgent` an embedder uses:
 * the provider (its vendor prices extended by `TINY_CLAW_PRICES`), the enabled workspace tools
 * and the tools of the configured MCP servers under the allow/deny policy, the workdir's
 * `AGENTS.md` and skills (`workspaceContext()`), the state store — the file store under the state
 * dir (`createFileStore` from `@tiny-claw/workspace`), or the PostgreSQL store when
 * `TINY_CLAW_STATE_URL` is set (its package imported only then) — the tracer. Throws
 * `ConfigurationError` for anything the user must fix.
 *
 * @example
 * const settings = loadSettings({ env: process.env, cwd: process.cwd(), homeDir: os.homedir() });
 * const app = await createApplication(settings);
 */
export async function createApplication(
  settings: Settings,
  overrides: ApplicationOverrides = {},
): Promise<Application> {
  const logger =
    overrides.logger ?? createStderrLogger(settings.logLevel, { format: settings.logFormat });
  // The tools are bound to the workdir, so it must exist before they are built.
  await assertWorkdir(settings.workdir);
  const builtIn = createRuntimeTools(settings);
  const prices = settings.pricesPath ? await loadPriceFile(settings.pricesPath) : undefined;
  let provider: LLMProvider;
  let providerReason: string;
  if (overrides.provider) {
    provider = overrides.provider;
    providerReason = 'injected by the caller';
  } else {
    const choice = chooseProvider(settings);
    if (choice.name === 'openai' || choice.name === 'claude')
      requireProviderKey(settings, choice.name);
    provider = await createProvider(settings, choice, prices);
    providerReason = choice.reason;
  }
  // Known once the MCP servers have listed their tools, below.
  let readOnlyTools: readonly string[] = [];
  const policy = createRuntimePolicy(settings, logger, { readOnlyTools: () => readOnlyTools });
  // A bad rules file is a configuration error at start, not at the first judged call.
  await policy.rules(settings.workdir);
  const tracing = await createRuntimeTracing(settings, logger);
  let store: Awaited<ReturnType<typeof createRuntimeStore>>;
  try {
    store = await createRuntimeStore(settings, logger);
  } catch (error) {
    await tracing.close();
    throw error;
  }
  // Configured MCP servers start last (a trusted project's too) and stop with the application.
  let mcp: Awaited<ReturnType<typeof createRuntimeMcp>>;
  try {
    mcp = await createRuntimeMcp(settings, logger);
  } catch (error) {
    await tracing.close();
    await store.close();
    throw error;
  }
  const tools = [...builtIn, ...mcp.tools];
  readOnlyTools = mcp.tools.filter((tool) => tool.readOnly === true).map((tool) => tool.name);
  const front = overrides.front ?? 'cli';
  const close = async () => {
    await mcp.close();
    await tracing.close();
    await store.close();
  };
  const approvals = createRuntimeApprovals(settings, front, store, logger, policy);
  let agent: ReturnType<typeof createAgent>;
  try {
    agent = createAgent({
      provider,
      tools,
      policy: runtimePolicy(settings, tools),
      workdir: settings.workdir,
      projectContext: workspaceContext(),
      store,
      tracer: tracing.tracer,
      ...(approvals ? { approvals } : {}),
      logger,
      maxTokens: settings.maxTokens,
      maxParallelTools: settings.maxParallelTools,
      compaction: {
        maxChars: settings.contextMaxChars,
        retainLastMessages: settings.contextRetainLastMessages,
      },
      // Providers without a price table of their own (echo, scripted, injected) price from the file.
      ...(prices ? { prices } : {}),
    });
  } catch (error) {
    // Nothing is left running when the agent cannot be assembled (MCP servers above all).
    await close();
    throw error;
  }
  return new Application({
    settings,
    providerReason,
    agent,
    approvalProvider: effectiveApprovalProvider(settings, front),
    policy,
    mcp: mcp.report,
    close,
  });
}
