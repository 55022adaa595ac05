import { describe, expect, it } from 'vitest';
import {
  startLoopbackOtlpReceiver,
  unusedLoopbackEndpoint,
} from './__fixtures__/loopback-otlp-receiver.js';
import { sampleTrace } from './__fixtures__/sample-trace.js';
import { createOtelTraceRecorder } from './index.js';

function collectingLogger() {
  const warnings: string[] = [];
  return { warnings, logger: { warn: (message: string) => warnings.push(message) } };
}

describe('export failures are only warned, never thrown into the run', () => {
  it('an unreachable collector: record resolves and one warning names the trace and the endpoint', async () => {
    const endpoint = await unusedLoopbackEndpoint();
    const { warnings, logger } = collectingLogger();
    const recorder = createOtelTraceRecorder({ endpoint, timeoutMs: 300, logger });
    const started = Date.now();
    await expect(recorder.record(sampleTrace())).resolves.toBeUndefined();
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(sampleTrace().trace_id);
    expect(warnings[0]).toContain(`${endpoint}/v1/traces`);
    expect(warnings[0]).toMatch(/ECONNREFUSED|connect/i);
    await expect(recorder.shutdown()).resolves.toBeUndefined();
  });

  it('a collector that answers an HTTP error: warned', async () => {
    const receiver = await startLoopbackOtlpReceiver(400);
    const { warnings, logger } = collectingLogger();
    const recorder = createOtelTraceRecorder({ endpoint: receiver.endpoint, logger });
    try {
      await expect(recorder.record(sampleTrace())).resolves.toBeUndefined();
      expect(receiver.received).toHaveLength(1);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain('failed');
    } finally {
      await recorder.shutdown();
      await receiver.close();
    }
  });

  it('a tree that cannot be converted: warned, nothing sent', async () => {
    const receiver = await startLoopbackOtlpReceiver();
    const { warnings, logger } = collectingLogger();
    const recorder = createOtelTraceRecorder({ endpoint: receiver.endpoint, logger });
    const tree = sampleTrace();
    tree.root.started_at = 'yesterday-ish';
    try {
      await expect(recorder.record(tree)).resolves.toBeUndefined();
      expect(receiver.received).toEqual([]);
      expect(warnings).toEqual([expect.stringContaining('not an ISO-8601 timestamp')]);
    } finally {
      await recorder.shutdown();
      await receiver.close();
    }
  });

  it('a logger that throws does not make record throw', async () => {
    const endpoint = await unusedLoopbackEndpoint();
    const recorder = createOtelTraceRecorder({
      endpoint,
      timeoutMs: 300,
      logger: {
        warn: () => {
          throw new Error('logger broke');
        },
      },
    });
    await expect(recorder.record(sampleTrace())).resolves.toBeUndefined();
    await recorder.shutdown();
  });

  it('after shutdown, record sends nothing and resolves', async () => {
    const receiver = await startLoopbackOtlpReceiver();
    const recorder = createOtelTraceRecorder({ endpoint: receiver.endpoint });
    try {
      await recorder.shutdown();
      await recorder.shutdown();
      await expect(recorder.record(sampleTrace())).resolves.toBeUndefined();
      expect(receiver.received).toEqual([]);
    } finally {
      await receiver.close();
    }
  });
});
