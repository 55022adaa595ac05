import { ConfigurationError } from '@tiny-claw/core';
import { z } from 'zod';
import { type FeishuDomain, feishuDomainSchema } from '../feishu/feishu-domain.js';

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

/** The server's own variables, read like the runtime's settings (first source that sets one wins). */
export const FEISHU_OPTION_VARIABLES = ['FEISHU_MODE', 'FEISHU_DOMAIN'] as const;

const modeSchema = z
  .string()
  .transform((value) => value.trim().toLowerCase())
  .pipe(z.enum(['webhook', 'ws'], { message: 'expected webhook or ws' }));

/**
 * Read `FEISHU_MODE` (`webhook`, the default, or `ws`) and `FEISHU_DOMAIN` (`feishu`, the default,
 * `lark`, or a base URL) from the sources, strongest first.
 *
 * @throws ConfigurationError naming the variable, the bad value and what is accepted.
 * @example
 * readFeishuOptions([process.env, dotenvValues]); // { mode: 'webhook', domain: { kind: 'feishu' } }
 */
export function readFeishuOptions(
  sources: ReadonlyArray<Readonly<Record<string, string | undefined>>>,
): FeishuOptions {
  const problems: string[] = [];
  const read = <T>(name: string, schema: z.ZodType<T, string>, fallback: T): T => {
    const raw = sources
      .map((source) => source[name])
      .find((value) => value !== undefined && value.trim() !== '');
    if (raw === undefined) return fallback;
    const parsed = schema.safeParse(raw);
    if (parsed.success) return parsed.data;
    problems.push(
      `${name}=${JSON.stringify(raw)} is invalid: ${parsed.error.issues[0]?.message ?? 'unreadable'}.`,
    );
    return fallback;
  };
  const options: FeishuOptions = {
    mode: read('FEISHU_MODE', modeSchema, 'webhook'),
    domain: read('FEISHU_DOMAIN', feishuDomainSchema, { kind: 'feishu' }),
  };
  if (problems.length > 0) throw new ConfigurationError(problems.join('\n'));
  return options;
}
