import { z } from 'zod';

/**
 * Where the open API is: Feishu (China), Lark (international) or a base URL (a proxy, or a loopback
 * fake in tests).
 *
 * @example
 * const domain: FeishuDomain = { kind: 'url', url: 'http://127.0.0.1:9000' };
 */
export type FeishuDomain = { kind: 'feishu' } | { kind: 'lark' } | { kind: 'url'; url: string };

/**
 * Schema of `FEISHU_DOMAIN`: `feishu` (default), `lark`, or an http(s) base URL without a path,
 * query or credentials.
 *
 * @example
 * feishuDomainSchema.parse('lark'); // { kind: 'lark' }
 */
export const feishuDomainSchema = z.string().transform((raw, ctx): FeishuDomain => {
  const value = raw.trim();
  if (value.toLowerCase() === 'feishu') return { kind: 'feishu' };
  if (value.toLowerCase() === 'lark') return { kind: 'lark' };
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  const plain =
    url !== undefined &&
    (url.protocol === 'http:' || url.protocol === 'https:') &&
    url.username === '' &&
    url.password === '' &&
    url.search === '' &&
    url.hash === '' &&
    (url.pathname === '/' || url.pathname === '');
  if (!plain || url === undefined) {
    ctx.addIssue({
      code: 'custom',
      message:
        'expected feishu, lark, or an http(s) base URL such as https://open.feishu.cn (no path, query or credentials)',
    });
    return z.NEVER;
  }
  return { kind: 'url', url: url.origin };
});

/**
 * How `/health` names the domain: never the URL itself.
 *
 * @example
 * domainLabel({ kind: 'url', url: 'http://127.0.0.1:9000' }); // 'custom'
 */
export function domainLabel(domain: FeishuDomain): 'feishu' | 'lark' | 'custom' {
  return domain.kind === 'url' ? 'custom' : domain.kind;
}
