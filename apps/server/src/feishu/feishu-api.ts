import type { Client } from '@larksuiteoapi/node-sdk';
import { FeishuApiError, toFeishuApiError } from './feishu-api-error.js';

/**
 * The three open API calls the chat needs. Every method throws {@link FeishuApiError} on failure.
 *
 * @example
 * const id = await api.reply('om_user', 'text', JSON.stringify({ text: 'done' }), randomUUID());
 */
export interface FeishuApi {
  /** Send a message to a chat; returns its message id. */
  create(chatId: string, msgType: string, content: string, uuid: string): Promise<string>;
  /** Reply to a message; returns the reply's message id. */
  reply(messageId: string, msgType: string, content: string, uuid: string): Promise<string>;
  /** Replace the content of a card this app sent. */
  patch(messageId: string, content: string): Promise<void>;
}

interface ApiAnswer {
  code?: number;
  msg?: string;
  data?: { message_id?: string };
}

/**
 * The {@link FeishuApi} over the SDK's client (its token cache and HTTP client), with every
 * failure, a 200 answer with a non-zero code included, turned into a {@link FeishuApiError}.
 *
 * @example
 * const api = larkApi(new lark.Client({ appId, appSecret, domain }));
 */
export function larkApi(client: Client): FeishuApi {
  const call = async (request: () => Promise<unknown>): Promise<ApiAnswer> => {
    let answer: ApiAnswer;
    try {
      answer = ((await request()) ?? {}) as ApiAnswer;
    } catch (error) {
      throw toFeishuApiError(error);
    }
    if (answer.code !== undefined && answer.code !== 0) {
      throw new FeishuApiError({
        status: 200,
        code: answer.code,
        message: `code ${answer.code}: ${String(answer.msg ?? '')}`,
      });
    }
    return answer;
  };
  const idOf = (answer: ApiAnswer) => {
    const id = answer.data?.message_id;
    if (typeof id !== 'string' || id === '') {
      throw new FeishuApiError({ status: 200, message: 'the answer has no message_id' });
    }
    return id;
  };
  const message = client.im.v1.message;
  return {
    create: async (chatId, msgType, content, uuid) =>
      idOf(
        await call(() =>
          message.create({
            params: { receive_id_type: 'chat_id' },
            data: { receive_id: chatId, msg_type: msgType, content, uuid },
          }),
        ),
      ),
    reply: async (messageId, msgType, content, uuid) =>
      idOf(
        await call(() =>
          message.reply({
            path: { message_id: messageId },
            data: { msg_type: msgType, content, uuid },
          }),
        ),
      ),
    patch: async (messageId, content) => {
      await call(() => message.patch({ path: { message_id: messageId }, data: { content } }));
    },
  };
}
