/**
 * Where the open API is: Feishu (China), Lark (international) or a base URL (a proxy, or a loopback
 * fake in tests).
 *
 * @example
 * const domain: FeishuDomain = { kind: 'url', url: 'http://127.0.0.1:9000' };
 */
export type FeishuDomain = { kind: 'feishu' } | { kind: 'lark' } | { kind: 'url'; url: string };

/**
 * How `/health` names the domain: never the URL itself.
 *
 * @example
 * domainLabel({ kind: 'url', url: 'http://127.0.0.1:9000' }); // 'custom'
 */
export function domainLabel(domain: FeishuDomain): 'feishu' | 'lark' | 'custom' {
  return domain.kind === 'url' ? 'custom' : domain.kind;
}
