import { createMemoryStore, type SeenKeys, StateError } from '@tiny-claw/core';
import { feishuMessageEvent } from '@tiny-claw/testkit';
import { describe, expect, it } from 'vitest';
import { memoryLogger } from '../__fixtures__/harness.js';
import type { ChatAgent } from '../chat/chat-agent.js';
import { parseEnvelope } from './event-envelope.js';
import { EventRouter, SEEN_TTL_MS } from './event-router.js';

/** A chat agent that only notes the messages it is given. */
function acceptingChat(): { chat: ChatAgent; accepted: string[] } {
  const accepted: string[] = [];
  const chat = {
    acceptMessage: (message: { messageId: string }) => void accepted.push(message.messageId),
  } as unknown as ChatAgent;
  return { chat, accepted };
}

/** The event envelope of a fresh chat message. */
function messageEnvelope(ids: { eventId?: string; messageId?: string } = {}) {
  const envelope = parseEnvelope(
    feishuMessageEvent({ chatId: 'oc_a', senderOpenId: 'ou_ann', text: 'hi', ...ids }),
  );
  if (envelope?.kind !== 'event') throw new Error('not an event');
  return envelope;
}

describe('the event router and the seen keys', () => {
  it('hands a message on once, whether its event id or its message id comes again', async () => {
    const { chat, accepted } = acceptingChat();
    const router = new EventRouter({
      seen: createMemoryStore().seen,
      chat,
      logger: memoryLogger(),
    });
    await router.route(messageEnvelope({ eventId: 'ev_1', messageId: 'om_1' }));
    await router.route(messageEnvelope({ eventId: 'ev_1', messageId: 'om_1' }));
    await router.route(messageEnvelope({ eventId: 'ev_2', messageId: 'om_1' }));
    expect(accepted).toEqual(['om_1']);
  });

  it.each([
    ['the event id', 'message:'],
    ['the message id', 'event:'],
  ])(
    'hands a delivery on exactly once when two replicas route it at once and %s answers the other replica first',
    async (_name, slowPrefix) => {
      const shared = createMemoryStore().seen;
      // Each replica's store answers one kind of key a few turns later than the other kind, the
      // other way round on the other replica: a race on the two keys, decided differently.
      const later = (prefix: string): SeenKeys => ({
        remember: async (key, ttlMs) => {
          if (key.startsWith(prefix)) {
            for (let turn = 0; turn < 5; turn += 1) await new Promise(setImmediate);
          }
          return shared.remember(key, ttlMs);
        },
      });
      const other = slowPrefix === 'event:' ? 'message:' : 'event:';
      const { chat, accepted } = acceptingChat();
      const envelope = messageEnvelope({ eventId: 'ev_race', messageId: 'om_race' });
      await Promise.all([
        new EventRouter({ seen: later(slowPrefix), chat, logger: memoryLogger() }).route(envelope),
        new EventRouter({ seen: later(other), chat, logger: memoryLogger() }).route(envelope),
      ]);
      expect(accepted).toEqual(['om_race']);
    },
  );

  it('remembers event and message ids for 12 hours', async () => {
    const remembered: Array<[string, number]> = [];
    const seen: SeenKeys = {
      remember: async (key, ttlMs) => {
        remembered.push([key, ttlMs]);
        return true;
      },
    };
    const { chat } = acceptingChat();
    await new EventRouter({ seen, chat, logger: memoryLogger() }).route(
      messageEnvelope({ eventId: 'ev_1', messageId: 'om_1' }),
    );
    expect(remembered).toEqual([
      ['event:ev_1', SEEN_TTL_MS],
      ['message:om_1', SEEN_TTL_MS],
    ]);
    expect(SEEN_TTL_MS).toBe(12 * 60 * 60 * 1000);
  });

  it('still handles a message when the store cannot check its ids, and logs why', async () => {
    const seen: SeenKeys = {
      remember: async () => {
        throw new StateError('the state dir is read-only');
      },
    };
    const { chat, accepted } = acceptingChat();
    const logger = memoryLogger();
    const answer = await new EventRouter({ seen, chat, logger }).route(
      messageEnvelope({ messageId: 'om_1' }),
    );
    expect(answer.status).toBe(200);
    expect(accepted).toEqual(['om_1']);
    expect(logger.lines).toContain(
      'error feishu: could not check the event ids in the state store: the state dir is read-only',
    );
  });
});
