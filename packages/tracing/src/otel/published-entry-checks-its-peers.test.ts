import { describe, expect, it } from 'vitest';
import * as implementation from './index.js';
import {
  assertOtelPackagesInstalled,
  missingOtelPackages,
  OTEL_PEER_PACKAGES,
} from './otel-peer-check.js';

describe('the published ./otel entry', () => {
  it('exports every value the exporter module exports, once the OpenTelemetry packages resolve', async () => {
    const published = await import('./published-entry.js');
    expect(Object.keys(published).sort()).toEqual(Object.keys(implementation).sort());
    expect(published.createOtelTraceRecorder).toBe(implementation.createOtelTraceRecorder);
  });

  it('lists the same OpenTelemetry packages, with the same ranges, as the optional peer dependencies', async () => {
    const manifest = (await import('../../package.json', { with: { type: 'json' } })).default as {
      peerDependencies: Record<string, string>;
      peerDependenciesMeta: Record<string, { optional?: boolean }>;
      dependencies: Record<string, string>;
    };
    for (const [name, range] of Object.entries(OTEL_PEER_PACKAGES)) {
      expect(manifest.peerDependencies[name]).toBe(range);
      expect(manifest.peerDependenciesMeta[name]?.optional).toBe(true);
      expect(manifest.dependencies[name]).toBeUndefined();
    }
  });
});

describe('assertOtelPackagesInstalled', () => {
  const resolvesOnly =
    (...installed: string[]) =>
    (specifier: string) => {
      if (!installed.includes(specifier)) throw new Error(`Cannot find package '${specifier}'`);
      return `file:///node_modules/${specifier}/index.js`;
    };

  it('passes when every package resolves', () => {
    expect(() =>
      assertOtelPackagesInstalled(resolvesOnly(...Object.keys(OTEL_PEER_PACKAGES))),
    ).not.toThrow();
  });

  it('names each missing package and the npm command that installs it, and nothing that is installed', () => {
    const resolve = resolvesOnly('@opentelemetry/api', '@opentelemetry/resources');
    expect(missingOtelPackages(resolve)).toEqual([
      '@opentelemetry/exporter-trace-otlp-http',
      '@opentelemetry/sdk-trace-base',
    ]);
    expect(() => assertOtelPackagesInstalled(resolve)).toThrow(
      '@tiny-claw/tracing/otel needs OpenTelemetry packages that are not installed: @opentelemetry/exporter-trace-otlp-http, @opentelemetry/sdk-trace-base. ' +
        'They are optional peer dependencies, needed only to export traces to a collector; install them with: npm install @opentelemetry/exporter-trace-otlp-http@0.218.0 @opentelemetry/sdk-trace-base@2.7.1',
    );
  });
});
