import { createStderrLogger, rootWorkdirRefusal, type SettingWarning } from '@tiny-claw/runtime';
import { type ServerArgs, UsageError } from './args.js';
import { ServerExit, type ServerProcess } from './main.js';
import { loadServerSettings } from './server/load-server-settings.js';
import { startServer } from './server/start-server.js';
import { serverNotices } from './server-notices.js';

/**
 * Run the server until SIGINT or SIGTERM, then shut down gracefully and resolve to 0. A second
 * signal during the shutdown quits at once (130 / 143).
 *
 * @throws ConfigurationError for bad settings or a port in use (the caller prints it, exit 78);
 * UsageError (exit 2) for a workdir of `/` or the home directory while write, edit or bash is
 * enabled, without `--allow-root-workdir` or `TINY_CLAW_ALLOW_ROOT_WORKDIR=1`.
 * @example
 * return await serve({ action: 'serve', port: 8000 }, proc);
 */
export async function serve(
  args: Extract<ServerArgs, { action: 'serve' }>,
  proc: ServerProcess,
): Promise<number> {
  const { settings, warnings } = await loadServerSettings({
    env: proc.env,
    cwd: proc.cwd,
    homeDir: proc.homeDir,
    envFile: args.envFile,
  });
  const notice = serverNotices(settings.logFormat, proc.stderr);
  for (const warning of warnings)
    notice('warn', `tiny-claw-server: warning: ${describeWarning(warning)}`);
  const refusal = await rootWorkdirRefusal(settings, {
    homeDirs: [proc.env.HOME, proc.homeDir],
    consent: args.allowRootWorkdir === true,
    chooseWith: 'TINY_CLAW_WORKDIR',
  });
  if (refusal !== undefined) throw new UsageError(refusal);
  const server = await startServer({
    settings,
    logger: createStderrLogger(settings.logLevel, {
      format: settings.logFormat,
      write: proc.stderr,
    }),
    options: {
      host: args.host ?? settings.server.host,
      port: args.port ?? settings.server.port,
      eventPath: args.feishuPath ?? settings.feishu.eventPath,
      mode: args.mode ?? 'act',
      maxSteps: args.maxSteps ?? 20,
    },
  });
  const health = server.health();
  const where =
    health.feishu.configured === false
      ? 'Feishu not configured (set FEISHU_APP_ID and FEISHU_APP_SECRET)'
      : health.feishu.mode === 'ws'
        ? `Feishu over the long connection (${health.feishu.domain})`
        : `Feishu events at POST ${health.feishu.eventPath} (${health.feishu.domain}, checked by ${health.feishu.verification})`;
  notice(
    'info',
    `tiny-claw-server ${health.version} listening on ${server.url} · provider ${health.provider.name} · approvals ${health.approvals} · ${where}`,
    {
      version: health.version,
      url: server.url,
      provider: health.provider.name,
      model: health.provider.model,
      approvals: health.approvals,
    },
  );

  return new Promise<number>((resolve) => {
    let signals = 0;
    const remove = proc.onSignal((signal) => {
      signals += 1;
      if (signals > 1) {
        notice('warn', `tiny-claw-server: ${signal} again, quitting without waiting`);
        proc.exit(signal === 'SIGINT' ? ServerExit.interrupted : ServerExit.terminated);
        return;
      }
      notice(
        'info',
        `tiny-claw-server: ${signal}, shutting down (running work gets time to finish; send it again to quit at once)`,
      );
      server.close().then(
        () => {
          remove();
          notice('info', 'tiny-claw-server: stopped');
          resolve(ServerExit.ok);
        },
        (error: unknown) => {
          remove();
          notice('error', `tiny-claw-server: shutdown failed: ${String(error)}`);
          resolve(ServerExit.runtime);
        },
      );
    });
  });
}

function describeWarning(warning: SettingWarning): string {
  if (warning.kind === 'unknown-variable') {
    const where = warning.file ? ` (in ${warning.file})` : '';
    return `${warning.name}${where} is not a setting tiny-claw reads; did you mean ${warning.suggestion}?`;
  }
  if (warning.kind === 'trusted-dotenv-changed') {
    return `${warning.path} changed since its folder was trusted; it is still used`;
  }
  return `${warning.path} was not read`;
}
