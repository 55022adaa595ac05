/**
 * The core system prompt and the memory block's fixed text. The wording itself lives in
 * `strings.ts` with the rest of the context layer's model-facing text; this module keeps the
 * historical import path working.
 */
export { coreSystemPrompt, memoryBlock, memoryTruncatedNotice } from './strings.js';
