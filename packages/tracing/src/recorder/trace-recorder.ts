import { writeFileAtomic } from '@tiny-claw/workspace/files';
import type { TraceTree } from '../trace-schema.js';
import { tracePath } from './trace-paths.js';

/**
 * Where finished traces go. The tracer hands every recorder the whole tree once, when the run ends;
 * a recorder that throws is warned about and never fails the run.
 *
 * @example
 * const recorder: TraceRecorder = { record: async (tree) => console.log(tree.trace_id) };
 */
export interface TraceRecorder {
  /** Persist or export `tree`; resolve to the file written, if any (an exporter resolves to nothing). */
  // biome-ignore lint/suspicious/noConfusingVoidType: exporters such as the OTel recorder resolve to void.
  record(tree: TraceTree): Promise<{ tracePath?: string } | void>;
}

/**
 * Writes each trace as one line of JSON to `<stateDir>/sessions/<key>/traces/<traceId>.json`,
 * atomically (temp file, fsync, rename), file mode 0600 and directories 0700.
 *
 * @example
 * const recorder = new FileTraceRecorder(settings.stateDir);
 * const { tracePath } = await recorder.record(tree);
 */
export class FileTraceRecorder implements TraceRecorder {
  readonly stateDir: string;

  constructor(stateDir: string) {
    this.stateDir = stateDir;
  }

  /**
   * @throws StateError or ConfigurationError when the file cannot be written or the tree's session
   * key or trace id is not a safe file name.
   */
  async record(tree: TraceTree): Promise<{ tracePath: string }> {
    const path = tracePath(this.stateDir, tree.session.key, tree.trace_id);
    // One line: indenting doubles the size and the time to write; `trace show --json` pretty-prints.
    await writeFileAtomic(path, `${JSON.stringify(tree)}\n`, { mode: 0o600 });
    return { tracePath: path };
  }
}
