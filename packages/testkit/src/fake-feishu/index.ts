/**
 * A loopback fake of the Feishu / Lark open API and builders for the events Feishu pushes, signed
 * and encrypted by the documented algorithm, for the server's end-to-end tests.
 *
 * @example
 * import { feishuMessageEvent, feishuRequest, startFakeFeishuServer } from '@tiny-claw/testkit';
 * const feishu = await startFakeFeishuServer();
 * const { body, headers } = feishuRequest(feishuMessageEvent({ chatId: 'oc_1', senderOpenId: 'ou_1', text: 'hi' }), { encryptKey: 'key' });
 *
 * @module
 */
export {
  decryptFeishuEvent,
  encryptFeishuEvent,
  type FeishuSignatureHeaders,
  feishuSignature,
  signFeishuRequest,
} from './crypto.js';
export {
  type FeishuCardActionInput,
  type FeishuMessageInput,
  type FeishuRequestOptions,
  feishuCardActionEvent,
  feishuChallenge,
  feishuMessageEvent,
  feishuRequest,
} from './events.js';
export {
  type FakeFeishuEndpoint,
  type FakeFeishuFailure,
  type FakeFeishuMessage,
  type FakeFeishuOptions,
  type FakeFeishuRequest,
  type FakeFeishuServer,
  startFakeFeishuServer,
} from './server.js';
