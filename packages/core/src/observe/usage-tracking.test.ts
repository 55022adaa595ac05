import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CancelledError, ProviderError } from '../errors.js';
import { msg } from '../messages.js';
import type { CompleteOptions, LLMProvider, LLMRequest, LLMResponse } from '../provider.js';
import { type ModelCallScope, withModelCallScope } from './call-scope.js';
import { FileUsageRecorder } from './file-usage-recorder.js';
import type { Logger } from './logger.js';
import type { PriceTable } from './price-table.js';
import {
  nullTracer,
  type SpanAttributes,
  type SpanHandle,
  type SpanKind,
  type SpanStatus,
  type TracePayloadName,
  type Tracer,
} from './tracer.js';
import { type UsageEvent, type UsageRecorder, usageEventSchema } from './usage.js';
import { UsageTrackingProvider } from './usage-tracking.js';

const prices: PriceTable = { 'priced-model': { inputPerMTok: 1.25, outputPerMTok: 10 } };

const scope: ModelCallScope = {
  sessionKey: 'cli-000000000000-default',
  runId: 'run-42',
  mode: 'act',
  phase: 'act',
  step: 3,
  caller: 'main_loop',
};

const request = (prompt = 'hello'): LLMRequest => ({
  messages: [msg.system('system prompt'), msg.user(prompt)],
  tools: [
    { name: 'read', description: 'read a file', parameters: {} },
    { name: 'bash', description: 'run', parameters: {} },
  ],
  toolChoice: 'auto',
});

/** A provider that answers with `response` (or throws `error`) and remembers what it got. */
class FakeProvider implements LLMProvider {
  readonly name = 'fake';
  readonly model = 'priced-model';
  readonly calls: Array<{ request: LLMRequest; options: CompleteOptions | undefined }> = [];

  constructor(
    private readonly answer: () => Promise<LLMResponse>,
    readonly delayMs = 0,
  ) {}

  async complete(request: LLMRequest, options?: CompleteOptions): Promise<LLMResponse> {
    this.calls.push({ request, options });
    if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    return this.answer();
  }
}

const answering = (overrides: Partial<LLMResponse> = {}, delayMs = 0) =>
  new FakeProvider(
    async () => ({
      message: msg.assistant('four', [
        { id: 'c1', name: 'read', arguments: { path: 'a.txt' } },
        { id: 'c2', name: 'read', arguments: { path: 'b.txt' } },
      ]),
      provider: 'fake',
      model: 'priced-model',
      usage: { inputTokens: 829, outputTokens: 119, totalTokens: 948 },
      ...overrides,
    }),
    delayMs,
  );

const failing = (error: unknown) =>
  new FakeProvider(async () => {
    throw error;
  });

class MemoryRecorder implements UsageRecorder {
  readonly events: UsageEvent[] = [];
  record(event: UsageEvent): void {
    this.events.push(event);
  }
}

class MemoryLogger implements Logger {
  readonly warnings: string[] = [];
  debug(): void {}
  info(): void {}
  warn(message: string): void {
    this.warnings.push(message);
  }
  error(message: string): void {
    this.warnings.push(message);
  }
}

interface RecordedSpan {
  kind: SpanKind;
  name: string;
  parent: SpanHandle | undefined;
  attributes: SpanAttributes;
  payloads: Partial<Record<TracePayloadName, unknown>>;
  status?: SpanStatus;
}

class RecordingTracer implements Tracer {
  readonly spans: RecordedSpan[] = [];
  startRun(): SpanHandle {
    throw new Error('not used');
  }
  startSpan(
    kind: SpanKind,
    name: string,
    attributes: SpanAttributes,
    parent?: SpanHandle,
  ): SpanHandle {
    const span: RecordedSpan = { kind, name, parent, attributes: { ...attributes }, payloads: {} };
    this.spans.push(span);
    return {
      spanId: `s${this.spans.length}`,
      traceId: 't',
      setAttributes: (more) => Object.assign(span.attributes, more),
      addEvent: () => {},
      recordPayload: (payload, value) => {
        span.payloads[payload] = value;
      },
      end: (status) => {
        span.status = status;
      },
    };
  }
  withSpan<T>(_span: SpanHandle, fn: () => T): T {
    return fn();
  }
  currentSpan(): undefined {
    return undefined;
  }
  async finishRun() {
    return undefined;
  }
}

const parentSpan: SpanHandle = {
  spanId: 'step',
  traceId: 't',
  setAttributes: () => {},
  addEvent: () => {},
  recordPayload: () => {},
  end: () => {},
};

describe('UsageTrackingProvider', () => {
  it('records token counts, cost and the scope fields of a successful call', async () => {
    const recorder = new MemoryRecorder();
    const provider = new UsageTrackingProvider(answering({}, 15), { recorder, prices });
    const before = Date.now();
    const response = await withModelCallScope(scope, () => provider.complete(request()));

    expect(response.costUsd).toBe(0.00222625);
    expect(recorder.events).toHaveLength(1);
    const event = usageEventSchema.parse(recorder.events[0]);
    expect(event).toMatchObject({
      schemaVersion: 1,
      sessionKey: 'cli-000000000000-default',
      runId: 'run-42',
      mode: 'act',
      phase: 'act',
      step: 3,
      caller: 'main_loop',
      provider: 'fake',
      model: 'priced-model',
      usage: { inputTokens: 829, outputTokens: 119, totalTokens: 948 },
      costUsd: 0.00222625,
      toolCalls: 2,
      textChars: 4,
      errorType: null,
    });
    expect(event.latencyMs).toBeGreaterThanOrEqual(10);
    expect(Date.parse(event.timestamp)).toBeGreaterThanOrEqual(before - 1);
    expect(event.timestamp.endsWith('Z')).toBe(true);
  });

  it('records nulls and the error type of a failed call, then re-throws the same error', async () => {
    const recorder = new MemoryRecorder();
    const boom = new TypeError('fetch failed');
    const provider = new UsageTrackingProvider(failing(boom), { recorder, prices });

    const caught = await withModelCallScope(scope, () => provider.complete(request())).catch(
      (error: unknown) => error,
    );
    expect(caught).toBe(boom);
    expect(usageEventSchema.parse(recorder.events[0])).toMatchObject({
      runId: 'run-42',
      step: 3,
      provider: 'fake',
      model: null,
      usage: null,
      costUsd: null,
      toolCalls: null,
      textChars: null,
      errorType: 'TypeError',
    });
  });

  it('records a ProviderError by its kind', async () => {
    const recorder = new MemoryRecorder();
    const error = new ProviderError('slow down', { kind: 'rate_limit', status: 429 });
    const provider = new UsageTrackingProvider(failing(error), { recorder, prices });
    await expect(provider.complete(request())).rejects.toBe(error);
    expect(recorder.events[0]?.errorType).toBe('rate_limit');
  });

  it('never takes an error type from a thrown non-error or an odd name', async () => {
    const recorder = new MemoryRecorder();
    const odd = Object.assign(new Error('x'), { name: 'secret prompt text here' });
    await expect(
      new UsageTrackingProvider(failing('the prompt itself'), { recorder }).complete(request()),
    ).rejects.toBe('the prompt itself');
    await expect(
      new UsageTrackingProvider(failing(odd), { recorder }).complete(request()),
    ).rejects.toBe(odd);
    expect(recorder.events.map((event) => event.errorType)).toEqual(['unknown', 'unknown']);
  });

  it('records null scope fields for a call made outside a model-call scope', async () => {
    const recorder = new MemoryRecorder();
    await new UsageTrackingProvider(answering(), { recorder, prices }).complete(request());
    expect(recorder.events[0]).toMatchObject({
      sessionKey: null,
      runId: null,
      mode: null,
      phase: null,
      step: null,
      caller: null,
    });
  });

  it('leaves costUsd undefined on the response and null in the line for an unpriced model', async () => {
    const recorder = new MemoryRecorder();
    const provider = new UsageTrackingProvider(answering({ model: 'mystery-model' }), {
      recorder,
      prices,
    });
    const response = await provider.complete(request());
    expect(response.costUsd).toBeUndefined();
    expect('costUsd' in response).toBe(false);
    expect(recorder.events[0]?.costUsd).toBeNull();
    expect(recorder.events[0]?.model).toBe('mystery-model');
  });

  it('prices a dated snapshot through the base model entry', async () => {
    const recorder = new MemoryRecorder();
    const provider = new UsageTrackingProvider(answering({ model: 'priced-model-2026-03-01' }), {
      recorder,
      prices,
    });
    expect((await provider.complete(request())).costUsd).toBe(0.00222625);
  });

  it('records null usage and cost when the provider reports no usage', async () => {
    const recorder = new MemoryRecorder();
    const provider = new UsageTrackingProvider(answering({ usage: undefined }), {
      recorder,
      prices,
    });
    expect((await provider.complete(request())).costUsd).toBeUndefined();
    expect(recorder.events[0]).toMatchObject({ usage: null, costUsd: null, errorType: null });
  });

  it('falls back to the configured model when the response names none', async () => {
    const recorder = new MemoryRecorder();
    const provider = new UsageTrackingProvider(answering({ model: undefined }), {
      recorder,
      prices,
    });
    expect((await provider.complete(request())).costUsd).toBe(0.00222625);
    expect(recorder.events[0]?.model).toBe('priced-model');
  });

  it('keeps a cost the provider reported itself', async () => {
    const recorder = new MemoryRecorder();
    const provider = new UsageTrackingProvider(answering({ costUsd: 0.5 }), { recorder, prices });
    expect((await provider.complete(request())).costUsd).toBe(0.5);
    expect(recorder.events[0]?.costUsd).toBe(0.5);
  });

  it('records only the six usage counts, not extra provider fields', async () => {
    const recorder = new MemoryRecorder();
    const usage = { inputTokens: 10, outputTokens: 2, totalTokens: 12, cacheReadTokens: 4 };
    const provider = new UsageTrackingProvider(
      answering({ usage: { ...usage, rawPrompt: 'leak' } as typeof usage }),
      { recorder, prices },
    );
    await provider.complete(request());
    expect(recorder.events[0]?.usage).toEqual(usage);
  });

  it('is invisible to callers: same name and model, same request and options passed through', async () => {
    const inner = answering();
    const provider = new UsageTrackingProvider(inner, { recorder: new MemoryRecorder(), prices });
    expect(provider.name).toBe('fake');
    expect(provider.model).toBe('priced-model');
    const req = request();
    const options: CompleteOptions = {
      signal: new AbortController().signal,
      onTextDelta: () => {},
    };
    await withModelCallScope(scope, () => provider.complete(req, options));
    expect(inner.calls[0]?.request).toBe(req);
    expect(inner.calls[0]?.options).toBe(options);
    expect(Object.keys(req).sort()).toEqual(['messages', 'toolChoice', 'tools']);
  });

  it('a recorder that throws or rejects is logged and does not fail the call', async () => {
    for (const recorder of [
      {
        record: () => {
          throw new Error('disk full');
        },
      },
      { record: async () => Promise.reject(new Error('disk full')) },
    ]) {
      const logger = new MemoryLogger();
      const provider = new UsageTrackingProvider(answering(), { recorder, prices, logger });
      const response = await provider.complete(request());
      expect(response.message.content).toBe('four');
      expect(logger.warnings).toEqual(['usage recorder failed: disk full']);
    }
  });

  it('a recorder failure on a failed call still re-throws the provider error', async () => {
    const logger = new MemoryLogger();
    const error = new ProviderError('down', { kind: 'server' });
    const provider = new UsageTrackingProvider(failing(error), {
      recorder: {
        record: () => {
          throw new Error('disk full');
        },
      },
      logger,
    });
    await expect(provider.complete(request())).rejects.toBe(error);
    expect(logger.warnings).toEqual(['usage recorder failed: disk full']);
  });

  it('never writes the prompt or the answer text to the usage file', async () => {
    const stateDir = await mkdtemp(join(tmpdir(), 'tiny-claw-usage-privacy-'));
    try {
      const prompt = 'PROMPT-PLATYPUS-90210 please';
      const answer = 'ANSWER-AXOLOTL-31337 done';
      const recorder = new FileUsageRecorder(stateDir);
      const ok = new UsageTrackingProvider(answering({ message: msg.assistant(answer) }), {
        recorder,
        prices,
      });
      const bad = new UsageTrackingProvider(
        failing(new ProviderError(`rejected: ${prompt}`, { kind: 'bad_request' })),
        { recorder, prices },
      );
      await withModelCallScope(scope, async () => {
        await ok.complete(request(prompt));
        await bad.complete(request(prompt)).catch(() => {});
      });
      const text = await readFile(recorder.path, 'utf8');
      expect(text.trim().split('\n')).toHaveLength(2);
      for (const secret of ['PLATYPUS', 'AXOLOTL', 'system prompt', 'a.txt']) {
        expect(text).not.toContain(secret);
      }
    } finally {
      await rm(stateDir, { recursive: true, force: true });
    }
  });
});

describe('UsageTrackingProvider tracing', () => {
  it('opens one llm.call span under the scope parent span with counts and cost', async () => {
    const tracer = new RecordingTracer();
    const provider = new UsageTrackingProvider(answering(), {
      recorder: new MemoryRecorder(),
      prices,
      tracer,
    });
    await withModelCallScope({ ...scope, parentSpan }, () =>
      provider.complete(request('SPAN-PROMPT-NARWHAL')),
    );
    expect(tracer.spans).toHaveLength(1);
    const span = tracer.spans[0];
    expect(span?.kind).toBe('llm.call');
    expect(span?.name).toBe('llm.fake');
    expect(span?.parent).toBe(parentSpan);
    expect(span?.status).toBe('ok');
    expect(span?.attributes).toMatchObject({
      provider: 'fake',
      message_count: 2,
      tool_choice: 'auto',
      visible_tools: 'read,bash',
      model: 'priced-model',
      input_tokens: 829,
      output_tokens: 119,
      total_tokens: 948,
      cost_usd: 0.00222625,
      tool_calls: 2,
      text_chars: 4,
    });
    expect(JSON.stringify(span?.attributes)).not.toContain('NARWHAL');
  });

  it('hands the new messages and the answer to the tracer as payloads, never as attributes', async () => {
    const tracer = new RecordingTracer();
    const provider = new UsageTrackingProvider(answering(), {
      recorder: new MemoryRecorder(),
      tracer,
    });
    const history: LLMRequest = {
      ...request('OLD-PROMPT'),
      messages: [
        msg.system('system prompt'),
        msg.user('OLD-PROMPT'),
        msg.assistant('', [{ id: 'c0', name: 'read', arguments: { path: 'x' } }]),
        msg.tool({ id: 'c0', name: 'read' }, 'NEW-OBSERVATION'),
      ],
    };
    await withModelCallScope({ ...scope, parentSpan }, () => provider.complete(history));
    const span = tracer.spans[0];
    expect(span?.payloads.llm_request).toEqual([history.messages[3]]);
    expect(span?.payloads.llm_response).toEqual({
      content: 'four',
      toolCalls: [
        { id: 'c1', name: 'read', arguments: { path: 'a.txt' } },
        { id: 'c2', name: 'read', arguments: { path: 'b.txt' } },
      ],
    });
    expect(JSON.stringify(span?.attributes)).not.toContain('OBSERVATION');
  });

  it('records no response payload when the call fails', async () => {
    const tracer = new RecordingTracer();
    const provider = new UsageTrackingProvider(failing(new ProviderError('x', { kind: 'auth' })), {
      recorder: new MemoryRecorder(),
      tracer,
    });
    await withModelCallScope({ ...scope, parentSpan }, () =>
      provider.complete(request()).catch(() => {}),
    );
    expect(tracer.spans[0]?.payloads.llm_request).toHaveLength(2);
    expect(tracer.spans[0]?.payloads).not.toHaveProperty('llm_response');
  });

  it('ends the span as error with the error type when the call fails', async () => {
    const tracer = new RecordingTracer();
    const provider = new UsageTrackingProvider(failing(new ProviderError('x', { kind: 'auth' })), {
      recorder: new MemoryRecorder(),
      tracer,
    });
    await withModelCallScope({ ...scope, parentSpan }, () =>
      provider.complete(request()).catch(() => {}),
    );
    expect(tracer.spans[0]?.status).toBe('error');
    expect(tracer.spans[0]?.attributes.error_type).toBe('auth');
  });

  it('ends the span as cancelled when the call was aborted', async () => {
    const tracer = new RecordingTracer();
    const provider = new UsageTrackingProvider(failing(new CancelledError()), {
      recorder: new MemoryRecorder(),
      tracer,
    });
    await withModelCallScope({ ...scope, parentSpan }, () =>
      provider.complete(request()).catch(() => {}),
    );
    expect(tracer.spans[0]?.status).toBe('cancelled');
  });

  it('opens no span without a parent span in scope', async () => {
    const tracer = new RecordingTracer();
    const provider = new UsageTrackingProvider(answering(), {
      recorder: new MemoryRecorder(),
      tracer,
    });
    await provider.complete(request());
    await withModelCallScope(scope, () => provider.complete(request()));
    expect(tracer.spans).toHaveLength(0);
  });

  it('a tracer that throws is logged and does not fail the call', async () => {
    const logger = new MemoryLogger();
    const recorder = new MemoryRecorder();
    const tracer: Tracer = {
      ...nullTracer,
      startSpan: () => {
        throw new Error('tracer broke');
      },
    };
    const provider = new UsageTrackingProvider(answering(), { recorder, tracer, logger });
    const response = await withModelCallScope({ ...scope, parentSpan }, () =>
      provider.complete(request()),
    );
    expect(response.message.content).toBe('four');
    expect(recorder.events).toHaveLength(1);
    expect(logger.warnings).toEqual(['llm.call span could not be started: tracer broke']);
  });
});
