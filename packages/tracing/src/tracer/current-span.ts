import { AsyncLocalStorage } from 'node:async_hooks';
import type { SpanHandle } from '@tiny-claw/core';

// One storage for the whole process, shared through a global symbol like core's model-call scope:
// Node propagates every live AsyncLocalStorage on every promise, so one per tracer would make each
// new tracer slow down all async work for the rest of the process.
const storageKey = Symbol.for('tiny-claw.trace-current-span');
const holder = globalThis as { [storageKey]?: AsyncLocalStorage<SpanHandle> };
holder[storageKey] ??= new AsyncLocalStorage<SpanHandle>();

/**
 * The process-wide "current span" storage behind `Tracer.withSpan` / `currentSpan`.
 *
 * @example
 * currentSpanStorage.run(span, () => tool.run(args));
 */
export const currentSpanStorage: AsyncLocalStorage<SpanHandle> = holder[storageKey];
