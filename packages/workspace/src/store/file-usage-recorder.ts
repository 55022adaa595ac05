import { join, resolve } from 'node:path';
import { StateError, type UsageEvent, type UsageRecorder, usageEventSchema } from '@tiny-claw/core';
import { appendJsonLines } from '../files/index.js';

/**
 * Where the usage file of a state directory lives: `<stateDir>/usage/model-calls.jsonl`.
 *
 * @example
 * usageFilePath('/home/me/.tiny-claw'); // → '/home/me/.tiny-claw/usage/model-calls.jsonl'
 */
export function usageFilePath(stateDir: string): string {
  return join(resolve(stateDir), 'usage', 'model-calls.jsonl');
}

/**
 * Appends one JSON line per model call to `<stateDir>/usage/model-calls.jsonl` (one file for all
 * sessions; directory 0700, file 0600; a truncated last line is repaired first).
 *
 * @example
 * const recorder = new FileUsageRecorder(settings.stateDir);
 * const provider = new UsageTrackingProvider(inner, { recorder });
 */
export class FileUsageRecorder implements UsageRecorder {
  readonly path: string;

  constructor(stateDir: string) {
    this.path = usageFilePath(stateDir);
  }

  /**
   * Validate `event` and append it. Parsing keeps only the schema's fields, so whatever else a
   * caller attached to the object (a prompt, a message) never reaches the file.
   *
   * @throws StateError when the event is invalid or the file cannot be written.
   *
   * @example
   * await recorder.record(event);
   */
  async record(event: UsageEvent): Promise<void> {
    const parsed = usageEventSchema.safeParse(event);
    if (!parsed.success) {
      const problems = parsed.error.issues
        .map((issue) => `${issue.path.join('.') || '(event)'}: ${issue.message}`)
        .join('; ');
      throw new StateError(`Refused to write an invalid usage event to ${this.path}: ${problems}`);
    }
    await appendJsonLines(this.path, [parsed.data], { label: 'the usage file' });
  }
}
