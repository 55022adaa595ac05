/**
 * The `tiny-claw` command line. Most users run the binary; `main` is exported for embedding and tests.
 *
 * @example
 * import { main } from 'tiny-claw';
 * process.exitCode = await main(['run', 'hello']);
 *
 * @module
 */

export { type ApprovalsArgs, parseApprovalsArgs } from './approvals-args.js';
export { type HealthArgs, parseHealthArgs, parseRunArgs, type RunArgs } from './args.js';
export { ExitCode, exitCodeForError, exitCodeForStopReason } from './exit-codes.js';
export { main } from './main.js';
export type { Output } from './output.js';
