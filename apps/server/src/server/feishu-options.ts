import type { Settings } from '@tiny-claw/runtime';
import type { FeishuDomain } from '../feishu/feishu-domain.js';

/**
 * How the server talks to Feishu: events by webhook (Feishu posts to this server) or over the
 * SDK's long connection (`ws`, no public URL needed), and which open API domain.
 *
 * @example
 * const options: FeishuOptions = { mode: 'ws', domain: { kind: 'lark' } };
 */
export interface FeishuOptions {
  mode: 'webhook' | 'ws';
  domain: FeishuDomain;
}

/**
 * The Feishu mode and domain from the settings (`FEISHU_MODE`, `FEISHU_DOMAIN`, already validated).
 *
 * @example
 * feishuOptionsOf(settings); // { mode: 'webhook', domain: { kind: 'feishu' } }
 */
export function feishuOptionsOf(settings: Settings): FeishuOptions {
  const { mode, domain } = settings.feishu;
  return {
    mode,
    domain:
      domain === 'feishu' || domain === 'lark' ? { kind: domain } : { kind: 'url', url: domain },
  };
}
