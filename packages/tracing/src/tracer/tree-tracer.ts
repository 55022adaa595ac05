import { randomBytes } from 'node:crypto';
import { errorMessage, type Logger, nullLogger, type TraceLocation } from '@tiny-claw/core';
import { keyedHash } from '../capture/keyed-hash.js';
import {
  capturePayloadInto,
  capturesPayload,
  type PayloadCaptureOptions,
  type TracePayloadName,
} from '../capture/payload-capture.js';
import {
  assignSanitized,
  type SanitizeOptions,
  sanitizeAttributes,
  sanitizeText,
} from '../capture/sanitize.js';
import { TRACE_ID_PATTERN } from '../recorder/trace-paths.js';
import type { TraceRecorder } from '../recorder/trace-recorder.js';
import { TRACE_SCHEMA_VERSION, type TraceCaptureMode, type TraceTree } from '../trace-schema.js';
import { newSpanId } from './span-id.js';
import { isoWithMicros, preciseNow, type RunState, SpanNode } from './span-node.js';
import type { SpanAttributes, SpanHandle, SpanKind, SpanStatus } from './span-types.js';

/**
 * What a {@link TreeTracer} is built from; `createTracer` fills these in from settings.
 *
 * @example
 * const options: TreeTracerOptions = { mode: 'metadata', recorders: [new FileTraceRecorder(stateDir)], attributes, payloads };
 */
export interface TreeTracerOptions {
  mode: TraceCaptureMode;
  /** Receive each finished tree; failures are warned about, never thrown. */
  recorders: readonly TraceRecorder[];
  /** Sanitising of attributes (4000-char strings) and, in replay mode, of payloads. */
  attributes: SanitizeOptions;
  /** Payload capture; resolved lazily because loading the salt touches the disk. */
  payloads: () => PayloadCaptureOptions;
  logger?: Logger;
}

/** A span recorded by a {@link TreeTracer}. */
class TreeSpan implements SpanHandle {
  readonly node: SpanNode;
  readonly owner: TreeTracer;

  constructor(node: SpanNode, owner: TreeTracer) {
    this.node = node;
    this.owner = owner;
  }

  get spanId(): string {
    return this.node.spanId;
  }

  get traceId(): string {
    return this.node.run.traceId;
  }

  setAttributes(attributes: SpanAttributes): void {
    if (this.node.run.finished) return;
    assignSanitized(this.node.attributes, attributes, this.owner.options.attributes);
  }

  addEvent(name: string, attributes: SpanAttributes = {}): void {
    if (this.node.run.finished) return;
    this.node.addEvent({
      timestamp: isoWithMicros(preciseNow()),
      name: sanitizeText(name, this.owner.options.attributes),
      attributes: this.owner.sanitize(attributes),
    });
  }

  recordPayload(name: TracePayloadName, value: unknown): void {
    if (this.node.run.finished) return;
    this.owner.captureInto(this.node, name, value);
  }

  end(status: SpanStatus = 'ok'): void {
    if (this.node.run.finished) return;
    this.node.end(status);
  }
}

/**
 * The span engine behind `createTracer`: keeps each run's spans as an in-memory tree and hands the
 * finished tree to its recorders. Every span names its parent explicitly; a span whose parent is
 * unknown is detached: it works but is recorded nowhere, because guessing a run would put it in
 * the wrong tree when several runs share the process.
 *
 * Tracing is observation only: nothing here throws into the run, and recorder failures are
 * warned as `trace recorder failed: …`.
 *
 * @example
 * const tracer = new TreeTracer({ mode: 'metadata', recorders: [new FileTraceRecorder(dir)], attributes, payloads });
 * const run = tracer.startRun('main', {}, { sessionKey, runId });
 * await tracer.finishRun(run, 'ok');
 */
export class TreeTracer {
  readonly options: TreeTracerOptions;
  readonly #logger: Logger;
  #payloads: PayloadCaptureOptions | undefined;

  constructor(options: TreeTracerOptions) {
    this.options = options;
    this.#logger = options.logger ?? nullLogger;
  }

  startRun(
    name: string,
    attributes: SpanAttributes,
    context: { sessionKey: string; runId: string; sessionSource?: string },
  ): SpanHandle {
    const traceId = TRACE_ID_PATTERN.test(context.runId)
      ? context.runId
      : randomBytes(16).toString('hex');
    const run: RunState = {
      traceId,
      session: {
        key: context.sessionKey,
        ...(context.sessionSource ? { source: context.sessionSource } : {}),
      },
      open: new Set(),
      finished: false,
      sequence: 0,
      pendingHashes: [],
    };
    const root = new SpanNode({
      spanId: newSpanId(),
      parent: undefined,
      kind: 'agent.run',
      name,
      run,
    });
    const span = new TreeSpan(root, this);
    span.setAttributes({ run_id: context.runId, session_key: context.sessionKey, ...attributes });
    return span;
  }

  startSpan(
    kind: SpanKind,
    name: string,
    attributes: SpanAttributes,
    parent: SpanHandle | undefined,
  ): SpanHandle {
    const parentNode = this.#own(parent);
    if (!parentNode || parentNode.run.finished) {
      this.#logger.debug(`trace span ${kind} ${name} has no open parent; it is not recorded`);
      return detachedSpan(parent?.traceId ?? '');
    }
    const node = new SpanNode({
      spanId: newSpanId(),
      parent: parentNode,
      kind,
      name,
      run: parentNode.run,
    });
    const span = new TreeSpan(node, this);
    span.setAttributes(attributes);
    return span;
  }

  async finishRun(run: SpanHandle, status: SpanStatus): Promise<TraceLocation | undefined> {
    const root = this.#own(run);
    if (!root || root.parent || root.run.finished) return undefined;
    const state = root.run;
    // A span still open belongs to work the run abandoned; it shares the run's fate.
    for (const node of [...state.open]) {
      if (node === root) continue;
      node.attributes.closed_by_run_end = true;
      node.end(status);
    }
    root.end(status);
    state.finished = true;
    this.#hashPending(state);
    const tree: TraceTree = {
      schema_version: TRACE_SCHEMA_VERSION,
      trace_id: state.traceId,
      session: state.session,
      capture_mode: this.options.mode,
      root: root.toJSON(),
    };
    // Recorders run side by side: an exporter waiting on a slow collector must not hold up the file.
    const results = await Promise.allSettled(
      this.options.recorders.map(async (recorder) => recorder.record(tree)),
    );
    let tracePath: string | undefined;
    let failed = false;
    for (const result of results) {
      if (result.status === 'fulfilled') {
        tracePath ??= result.value?.tracePath;
      } else {
        failed = true;
        this.#logger.warn(`trace recorder failed: ${errorMessage(result.reason)}`);
      }
    }
    // An id that points at no file would send the user looking for nothing.
    if (failed && tracePath === undefined) return undefined;
    return tracePath === undefined
      ? { traceId: state.traceId }
      : { traceId: state.traceId, tracePath };
  }

  /** @internal Attributes as stored: dropped nulls, redacted and truncated strings. */
  sanitize(attributes: SpanAttributes) {
    return sanitizeAttributes(attributes, this.options.attributes);
  }

  /**
   * Whether payload `name` is kept at all under the capture mode (metadata mode skips the model's
   * request and response), so a caller can skip assembling it.
   */
  keepsPayload(name: TracePayloadName): boolean {
    return capturesPayload(this.options.mode, name);
  }

  /**
   * @internal A payload's attributes under the capture mode, written into the span's attributes.
   * The keyed hash is computed when the run ends, with every other one of the run: one tight loop
   * of HMACs costs a fraction of the same HMACs spread over the steps, and keeps them off each
   * step's path.
   */
  captureInto(node: SpanNode, name: TracePayloadName, value: unknown): void {
    try {
      this.#payloads ??= this.options.payloads();
      const { attributes, run } = node;
      capturePayloadInto(attributes, name, value, this.#payloads, (attribute, text) => {
        run.pendingHashes.push({ target: attributes, attribute, text });
      });
    } catch (error) {
      this.#logger.warn(`trace payload ${name} could not be captured: ${errorMessage(error)}`);
    }
  }

  /** Fill in the payload fingerprints a run left for its end (see {@link captureInto}). */
  #hashPending(state: RunState): void {
    const pending = state.pendingHashes.splice(0);
    if (pending.length === 0 || !this.#payloads) return;
    const { salt } = this.#payloads;
    for (const { target, attribute, text } of pending) {
      try {
        target[attribute] = keyedHash(salt, text);
      } catch (error) {
        delete target[attribute];
        this.#logger.warn(`trace payload could not be fingerprinted: ${errorMessage(error)}`);
      }
    }
  }

  #own(span: SpanHandle | undefined): SpanNode | undefined {
    return span instanceof TreeSpan && span.owner === this ? span.node : undefined;
  }
}

/** A span that records nothing: the parent of the span it stands for is unknown or finished. */
function detachedSpan(traceId: string): SpanHandle {
  return {
    spanId: 'detached',
    traceId,
    setAttributes() {},
    addEvent() {},
    recordPayload() {},
    end() {},
  };
}
