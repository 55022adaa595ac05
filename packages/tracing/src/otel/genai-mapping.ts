import { type Attributes, SpanKind, type SpanStatus, SpanStatusCode } from '@opentelemetry/api';
import type { TraceAttributes, TraceSpan } from '../trace-schema.js';
import { copyPrefixed } from './to-attribute-value.js';

/** Prefix of every attribute of ours that has no GenAI semantic-convention name. */
export const TINY_CLAW_ATTRIBUTE_PREFIX = 'tiny_claw.';

/** `gen_ai.agent.name` of a main or resumed run. */
export const AGENT_NAME = 'tiny-claw';

/** `gen_ai.agent.name` of a subagent run when its span does not name one. */
export const SUBAGENT_NAME = 'explore';

/** What one of our spans becomes in OTel, apart from ids and times. */
export interface GenAiSpanShape {
  name: string;
  kind: SpanKind;
  attributes: Attributes;
  status: SpanStatus;
}

/** Trace-level facts a span's mapping needs. */
export interface GenAiMappingContext {
  /** The trace's session key: `gen_ai.conversation.id` of the run. */
  sessionKey: string;
}

interface KindMapping {
  name: string;
  kind: SpanKind;
  attributes: Attributes;
  /** Our attribute keys now carried by a semantic-convention attribute, so not copied again. */
  consumed: readonly string[];
}

// Our provider names → `gen_ai.provider.name` well-known values; anything else passes through.
const PROVIDER_NAMES: Readonly<Record<string, string>> = {
  claude: 'anthropic',
  anthropic: 'anthropic',
  openai: 'openai',
  gemini: 'gcp.gemini',
  bedrock: 'aws.bedrock',
  mistral: 'mistral_ai',
  xai: 'x_ai',
};

/**
 * `gen_ai.provider.name` for one of our provider names (`claude` → `anthropic`).
 *
 * @example
 * genAiProviderName('claude'); // → 'anthropic'
 * genAiProviderName('scripted'); // → 'scripted'
 */
export function genAiProviderName(provider: string): string {
  const key = provider.trim().toLowerCase();
  return PROVIDER_NAMES[key] ?? key;
}

/**
 * Maps one span of our tree to its OTel name, kind, attributes and status under the GenAI semantic
 * conventions: `agent.run` → `invoke_agent tiny-claw`, `llm.call` → `chat {model}` (CLIENT),
 * `tool.call` → `execute_tool {tool}`, `agent.step` → `step {n}`, `subagent.run` →
 * `invoke_agent explore`; other kinds keep their kind as name. Every attribute without a
 * convention name is kept as `tiny_claw.<key>`.
 *
 * @example
 * const shape = toGenAiSpan(llmSpan, { sessionKey: 'cli-1a2b3c4d5e6f-default' });
 * shape.name; // → 'chat gpt-5.4'
 * shape.attributes['gen_ai.usage.input_tokens']; // → 829
 */
export function toGenAiSpan(span: TraceSpan, context: GenAiMappingContext): GenAiSpanShape {
  const mapping = mapKind(span, context);
  const attributes: Attributes = { ...mapping.attributes };
  const consumed = new Set(mapping.consumed);
  const errorType = stringAttribute(span.attributes, 'error_type');
  if (span.status === 'error') {
    // `_OTHER` is the convention's value when the failure has no better class name.
    attributes['error.type'] = errorType ?? '_OTHER';
    consumed.add('error_type');
  }
  copyPrefixed(attributes, span.attributes, TINY_CLAW_ATTRIBUTE_PREFIX, consumed);
  // Kept so a collector view can be traced back to the trace file and `trace show`.
  attributes[`${TINY_CLAW_ATTRIBUTE_PREFIX}span.kind`] = span.kind;
  attributes[`${TINY_CLAW_ATTRIBUTE_PREFIX}span.name`] = span.name;
  attributes[`${TINY_CLAW_ATTRIBUTE_PREFIX}status`] = span.status;
  return { name: mapping.name, kind: mapping.kind, attributes, status: statusOf(span, errorType) };
}

function mapKind(span: TraceSpan, context: GenAiMappingContext): KindMapping {
  switch (span.kind) {
    case 'agent.run':
      return {
        name: `invoke_agent ${AGENT_NAME}`,
        kind: SpanKind.INTERNAL,
        attributes: {
          'gen_ai.operation.name': 'invoke_agent',
          'gen_ai.agent.name': AGENT_NAME,
          'gen_ai.conversation.id': context.sessionKey,
        },
        consumed: [],
      };
    case 'subagent.run':
      return mapSubagent(span);
    case 'agent.step':
      return {
        name: `step ${stepNumber(span)}`,
        kind: SpanKind.INTERNAL,
        attributes: {},
        consumed: [],
      };
    case 'llm.call':
      return mapLlmCall(span.attributes);
    case 'tool.call':
      return mapToolCall(span);
    default:
      return { name: span.kind, kind: SpanKind.INTERNAL, attributes: {}, consumed: [] };
  }
}

function mapSubagent(span: TraceSpan): KindMapping {
  const agentName = stringAttribute(span.attributes, 'agent_name') ?? SUBAGENT_NAME;
  const attributes: Attributes = {
    'gen_ai.operation.name': 'invoke_agent',
    'gen_ai.agent.name': agentName,
  };
  const childSession = stringAttribute(span.attributes, 'child_session_key');
  if (childSession !== undefined) attributes['gen_ai.conversation.id'] = childSession;
  return {
    name: `invoke_agent ${agentName}`,
    kind: SpanKind.INTERNAL,
    attributes,
    consumed: ['agent_name'],
  };
}

function mapLlmCall(source: TraceAttributes): KindMapping {
  const attributes: Attributes = { 'gen_ai.operation.name': 'chat' };
  const consumed: string[] = [];
  const provider = stringAttribute(source, 'provider');
  if (provider !== undefined) {
    attributes['gen_ai.provider.name'] = genAiProviderName(provider);
    consumed.push('provider');
  }
  // Our spans record the model the provider answered with; it is also the best request model we have.
  const requestModel = stringAttribute(source, 'request_model') ?? stringAttribute(source, 'model');
  const responseModel =
    stringAttribute(source, 'response_model') ?? stringAttribute(source, 'model');
  if (requestModel !== undefined) attributes['gen_ai.request.model'] = requestModel;
  if (responseModel !== undefined) attributes['gen_ai.response.model'] = responseModel;
  consumed.push('request_model', 'response_model', 'model');
  const usage: ReadonlyArray<readonly [string, string]> = [
    ['input_tokens', 'gen_ai.usage.input_tokens'],
    ['output_tokens', 'gen_ai.usage.output_tokens'],
    ['cache_read_tokens', 'gen_ai.usage.cache_read.input_tokens'],
    ['cache_write_tokens', 'gen_ai.usage.cache_creation.input_tokens'],
  ];
  for (const [ours, theirs] of usage) {
    const value = source[ours];
    if (typeof value === 'number' && Number.isFinite(value)) {
      attributes[theirs] = value;
      consumed.push(ours);
    }
  }
  return {
    name: requestModel === undefined ? 'chat' : `chat ${requestModel}`,
    kind: SpanKind.CLIENT,
    attributes,
    consumed,
  };
}

function mapToolCall(span: TraceSpan): KindMapping {
  const source = span.attributes;
  // The executor writes `tool.name` / `tool.call_id`; the original schema wrote snake_case keys.
  const toolName =
    stringAttribute(source, 'tool_name') ??
    stringAttribute(source, 'tool.name') ??
    (span.name.replace(/^tool\./, '') || undefined);
  const callId = stringAttribute(source, 'tool_call_id') ?? stringAttribute(source, 'tool.call_id');
  const attributes: Attributes = { 'gen_ai.operation.name': 'execute_tool' };
  if (toolName !== undefined) attributes['gen_ai.tool.name'] = toolName;
  if (callId !== undefined) attributes['gen_ai.tool.call.id'] = callId;
  return {
    name: toolName === undefined ? 'execute_tool' : `execute_tool ${toolName}`,
    kind: SpanKind.INTERNAL,
    attributes,
    consumed: ['tool_name', 'tool.name', 'tool_call_id', 'tool.call_id'],
  };
}

function stepNumber(span: TraceSpan): string {
  const step = span.attributes.step;
  if (typeof step === 'number' || (typeof step === 'string' && step !== '')) return String(step);
  return /(\d+)$/.exec(span.name)?.[1] ?? '?';
}

function statusOf(span: TraceSpan, errorType: string | undefined): SpanStatus {
  if (span.status === 'ok') return { code: SpanStatusCode.OK };
  // A cancelled span was cut short by the user, not failed: UNSET, with `tiny_claw.status` saying why.
  if (span.status === 'cancelled') return { code: SpanStatusCode.UNSET };
  // Only the error's class name: messages may quote prompts or tool output.
  return { code: SpanStatusCode.ERROR, message: errorType ?? `${span.kind} failed` };
}

function stringAttribute(attributes: TraceAttributes, key: string): string | undefined {
  const value = attributes[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
}
