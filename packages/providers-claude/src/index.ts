/**
 * @tiny-claw/providers-claude — an `LLMProvider` for Anthropic's Messages API on the official
 * `@anthropic-ai/sdk`: request mapping, streaming with an idle watchdog and stream retries, usage
 * with cache read/write, and one-line `ProviderError`s that never contain the key.
 *
 * @example
 * import { ClaudeProvider } from '@tiny-claw/providers-claude';
 * const claude = new ClaudeProvider({ apiKey: process.env.ANTHROPIC_API_KEY ?? '', model: 'claude-sonnet-4-5', maxTokens: 4096 });
 *
 * @module
 */
export { ClaudeProvider } from './claude-provider.js';
export { type ErrorContext, toProviderError } from './error-mapping.js';
export {
  type ClaudeProviderOptions,
  DEFAULT_IDLE_TIMEOUT_MS,
  DEFAULT_MAX_RETRIES,
  DEFAULT_STREAM_RETRIES,
  DEFAULT_TIMEOUT_MS,
} from './options.js';
export { claudePriceTable } from './price-table.js';
export { type ClaudeRequestBody, toClaudeRequest } from './request-mapping.js';
export { type ClaudeTurn, fromClaudeMessage, toLLMResponse, toUsage } from './response-mapping.js';
export { StreamAssembler } from './stream-assembler.js';
