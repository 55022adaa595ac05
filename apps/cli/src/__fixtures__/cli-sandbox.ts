import { createTempWorkspace, runCli } from '@tiny-claw/testkit';
import { bin } from './approval-cli.js';

/** What `tiny-claw health` says of the bash sandbox on this machine. */
export interface CliSandbox {
  readonly active: string;
  readonly reason: string;
}

let asked: Promise<CliSandbox> | undefined;

/**
 * Ask the built CLI once (per test file) whether bubblewrap works here, in a throwaway workdir
 * and state dir: tests that need the real sandbox skip, naming the reason, when it does not.
 *
 * @example
 * const sandbox = await cliSandbox();
 * if (sandbox.active !== 'bwrap') context.skip(`bubblewrap is not usable here: ${sandbox.reason}`);
 */
export function cliSandbox(): Promise<CliSandbox> {
  asked ??= (async () => {
    const ws = await createTempWorkspace({});
    const state = await createTempWorkspace({}, 'tiny-claw-health-');
    try {
      const health = await runCli({
        bin,
        args: ['health', '--json'],
        cwd: ws.dir,
        env: { TINY_CLAW_STATE_DIR: state.path('state'), TINY_CLAW_WORKDIR: ws.dir },
      });
      return (JSON.parse(health.stdout) as { sandbox: CliSandbox }).sandbox;
    } finally {
      await ws.cleanup();
      await state.cleanup();
    }
  })();
  return asked;
}
