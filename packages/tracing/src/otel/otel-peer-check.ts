/**
 * The OpenTelemetry packages the `./otel` entry needs. They are optional peer dependencies of
 * `@tiny-claw/tracing`: its main entry never loads them, so an install that does not export to a
 * collector does not carry them. Keep the ranges in step with package.json's peerDependencies.
 */
export const OTEL_PEER_PACKAGES: Readonly<Record<string, string>> = {
  '@opentelemetry/api': '~1.9.0',
  '@opentelemetry/exporter-trace-otlp-http': '0.218.0',
  '@opentelemetry/resources': '2.7.1',
  '@opentelemetry/sdk-trace-base': '2.7.1',
};

/**
 * The packages of {@link OTEL_PEER_PACKAGES} that `resolve` cannot find (it throws for those), in
 * the order listed.
 *
 * @example
 * missingOtelPackages((name) => import.meta.resolve(name)); // [] when all four are installed
 */
export function missingOtelPackages(resolve: (specifier: string) => unknown): string[] {
  return Object.keys(OTEL_PEER_PACKAGES).filter((name) => {
    try {
      resolve(name);
      return false;
    } catch {
      return true;
    }
  });
}

/**
 * Throws an error naming the missing OpenTelemetry packages and the command that installs them, so
 * importing `@tiny-claw/tracing/otel` without them fails with advice instead of a module-resolution
 * stack from deep inside the exporter.
 *
 * @throws Error when any package of {@link OTEL_PEER_PACKAGES} cannot be resolved.
 * @example
 * assertOtelPackagesInstalled((name) => import.meta.resolve(name));
 */
export function assertOtelPackagesInstalled(resolve: (specifier: string) => unknown): void {
  const missing = missingOtelPackages(resolve);
  if (missing.length === 0) return;
  const install = missing.map((name) => `${name}@${OTEL_PEER_PACKAGES[name]}`).join(' ');
  throw new Error(
    `@tiny-claw/tracing/otel needs OpenTelemetry packages that are not installed: ${missing.join(', ')}. ` +
      `They are optional peer dependencies, needed only to export traces to a collector; install them with: npm install ${install}`,
  );
}
