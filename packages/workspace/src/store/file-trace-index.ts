import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { StateError, type TraceEntry, type TraceIndex } from '@tiny-claw/core';
import {
  checkTraceEntry,
  checkTraceId,
  compareTraceEntries,
  traceIdPattern,
} from '@tiny-claw/core/store';
import { validateSessionKey } from '@tiny-claw/core/utils';
import { sessionDirectory } from '../files/index.js';
import { isSessionKey, listDirectory } from './session-dirs.js';

/**
 * The traces of a state dir, indexed by the files themselves: a trace is
 * `sessions/<key>/traces/<traceId>.json` (where the tracing package's file recorder writes it),
 * and finding one is a scan of those directories — the same scan `tiny-claw trace list` makes —
 * so the index adds no file of its own. Recording a trace checks it is there.
 *
 * @example
 * const traces = new FileTraceIndex('/home/me/.tiny-claw');
 * const entry = await traces.locate('5f0c2a9e');
 */
export class FileTraceIndex implements TraceIndex {
  readonly stateDir: string;

  constructor(stateDir: string) {
    this.stateDir = resolve(stateDir);
  }

  /**
   * @throws StateError when the trace is not the file this index finds it by (another directory,
   * or no such file).
   */
  async record(entry: TraceEntry): Promise<void> {
    const checked = checkTraceEntry(entry);
    const expected = this.#path(checked.sessionKey, checked.traceId);
    if (resolve(checked.path) !== expected) {
      throw new StateError(
        `Trace ${checked.traceId} was written to ${checked.path}; the file store finds traces only as ${expected}.`,
      );
    }
    if (!(await isFile(expected))) {
      throw new StateError(`Trace ${checked.traceId} is not at ${expected}; write it there first.`);
    }
  }

  async locate(traceId: string): Promise<TraceEntry | undefined> {
    checkTraceId(traceId);
    for (const sessionKey of await this.#sessionKeys()) {
      const path = this.#path(sessionKey, traceId);
      if (await isFile(path)) return { traceId, sessionKey, path };
    }
    return undefined;
  }

  async list(query: { sessionKey?: string } = {}): Promise<TraceEntry[]> {
    const keys =
      query.sessionKey === undefined
        ? await this.#sessionKeys()
        : [validateSessionKey(query.sessionKey)];
    const entries: TraceEntry[] = [];
    for (const sessionKey of keys) {
      const dir = join(sessionDirectory(this.stateDir, sessionKey), 'traces');
      for (const name of await listDirectory(dir)) {
        const traceId = name.slice(0, -'.json'.length);
        if (!name.endsWith('.json') || !traceIdPattern.test(traceId)) continue;
        const path = join(dir, name);
        if (await isFile(path)) entries.push({ traceId, sessionKey, path });
      }
    }
    return entries.sort(compareTraceEntries);
  }

  #path(sessionKey: string, traceId: string): string {
    return join(sessionDirectory(this.stateDir, sessionKey), 'traces', `${traceId}.json`);
  }

  /** The session directories tiny-claw made (any other name is skipped), sorted. */
  async #sessionKeys(): Promise<string[]> {
    const names = await listDirectory(join(this.stateDir, 'sessions'));
    return names.filter(isSessionKey).sort();
  }
}

async function isFile(path: string): Promise<boolean> {
  const info = await stat(path).catch(() => undefined);
  return info?.isFile() ?? false;
}
