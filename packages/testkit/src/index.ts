/**
 * @tiny-claw/testkit (private) — helpers for tiny-claw's own tests: temp workspaces, script files
 * for the scripted provider, a CLI runner with a clean environment, and loopback fakes of the LLM
 * APIs and of the Feishu open API.
 *
 * @example
 * import { createTempWorkspace, runCli, writeScript } from '@tiny-claw/testkit';
 *
 * @module
 */

export {
  decryptFeishuEvent,
  encryptFeishuEvent,
  type FakeFeishuEndpoint,
  type FakeFeishuFailure,
  type FakeFeishuMessage,
  type FakeFeishuOptions,
  type FakeFeishuRequest,
  type FakeFeishuServer,
  type FeishuCardActionInput,
  type FeishuMessageInput,
  type FeishuRequestOptions,
  type FeishuSignatureHeaders,
  feishuCardActionEvent,
  feishuChallenge,
  feishuMessageEvent,
  feishuRequest,
  feishuSignature,
  signFeishuRequest,
  startFakeFeishuServer,
} from './fake-feishu/index.js';
export {
  type FakeApi,
  type FakeCutStep,
  type FakeErrorStep,
  type FakeLlmServer,
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
  NO_SCRIPTED_RESPONSE,
  parseSse,
  type RecordedRequest,
  type SseEvent,
  startFakeLlmServer,
  toolResults,
} from './fake-llm/index.js';
export { POLICY_CASES, type PolicyCase } from './policy-cases.js';
export { processesWith, survivingProcesses } from './processes.js';
export { type CliResult, type RunCliOptions, runCli } from './run-cli.js';
export { writeScript } from './script-file.js';
export { createTempWorkspace, type TempWorkspace } from './temp-workspace.js';
