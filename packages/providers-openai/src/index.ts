/**
 * @tiny-claw/providers-openai — an `LLMProvider` for OpenAI and any OpenAI-compatible server
 * (Chat Completions), on the official `openai` SDK, which is loaded on the first call only.
 *
 * @example
 * import { OpenAIProvider } from '@tiny-claw/providers-openai';
 * const provider = new OpenAIProvider({ apiKey: process.env.OPENAI_API_KEY ?? '', model: 'gpt-4.1-mini' });
 *
 * @module
 */
export { OpenAIProvider } from './openai-provider.js';
export {
  OPENAI_DEFAULTS,
  type OpenAIProviderOptions,
  type TokenParameter,
  tokenParameterFor,
} from './options.js';
export { openaiPriceTable } from './price-table.js';
