/**
 * A loopback fake LLM server speaking the real OpenAI Chat Completions and Anthropic Messages wire
 * formats, for provider and end-to-end tests through the real SDK clients.
 *
 * @example
 * import { startFakeLlmServer } from '@tiny-claw/testkit';
 * const server = await startFakeLlmServer();
 * server.enqueue({ kind: 'turn', text: 'hello' });
 *
 * @module
 */

export { toolResults } from './request-content.js';
export {
  type FakeApi,
  type FakeLlmServer,
  NO_SCRIPTED_RESPONSE,
  type RecordedRequest,
  startFakeLlmServer,
} from './server.js';
export { parseSse, type SseEvent } from './sse.js';
export {
  type FakeCutStep,
  type FakeErrorStep,
  type FakeRawStep,
  type FakeReplyStep,
  type FakeScript,
  type FakeSseErrorStep,
  type FakeStallStep,
  type FakeStep,
  type FakeToolCall,
  type FakeTurnStep,
  type FakeUsage,
  fromScript,
} from './steps.js';
