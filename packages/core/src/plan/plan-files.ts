import { readFile, rm, rmdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { errorMessage, StateError } from '../errors.js';
import { sessionDirectory } from '../session/session-key.js';
import type { SessionRef } from '../session/session-ref.js';
import { writeFileAtomic } from '../store/atomic-write.js';
import { isErrnoError } from '../store/errno.js';
import { withPathLock } from '../store/path-lock.js';
import type { PlanFiles } from './plan-response.js';
import {
  appendTodoBlocker,
  markTodoDone,
  nextOpenItem,
  parseTodoItems,
  type TodoItem,
  withTrailingNewline,
} from './todo-grammar.js';

/** File name of the plan document. */
export const PLAN_FILE = 'PLAN.md';
/** File name of the checklist. */
export const TODO_FILE = 'TODO.md';

/**
 * The plan of a session as read from disk.
 *
 * @example
 * const snapshot = await store.read();
 * if (snapshot?.next) console.log(snapshot.next.id);
 */
export interface PlanSnapshot extends PlanFiles {
  /** The directory holding PLAN.md and TODO.md. */
  dir: string;
  items: TodoItem[];
  /** The first open item; undefined when every item is done. */
  next: TodoItem | undefined;
}

/**
 * The plan files of one session. Every change is an atomic write made under a per-directory lock,
 * so concurrent updates in one process never lose each other's edits.
 *
 * @example
 * const store = new FilePlanStoreFactory(stateDir).forSession(session);
 * await store.createMissing({ plan: '# PLAN.md\n', todo: '- [ ] TC-001 Go\n' });
 */
export interface PlanStore {
  readonly dir: string;
  /** Both files, or undefined when either is missing. */
  read(): Promise<PlanSnapshot | undefined>;
  /** Write whichever file is missing; an existing file is never overwritten. */
  createMissing(files: PlanFiles): Promise<PlanSnapshot>;
  /** Overwrite both files (a revised plan). */
  replace(files: PlanFiles): Promise<PlanSnapshot>;
  /** Check the item `id`; throws StateError when there is none. */
  markDone(id: string): Promise<PlanSnapshot>;
  /** Add `- <id>: <reason>` under `## Blockers`; the item stays open. */
  appendBlocker(id: string, reason: string): Promise<PlanSnapshot>;
  /** Delete both files; returns the paths that existed and were removed. */
  reset(): Promise<string[]>;
}

/**
 * Hands out the plan store of each session.
 *
 * @example
 * const plans: PlanStoreFactory = new FilePlanStoreFactory(stateDir);
 */
export interface PlanStoreFactory {
  forSession(session: Pick<SessionRef, 'key'>): PlanStore;
}

/**
 * Plan files in a directory: `<dir>/PLAN.md` and `<dir>/TODO.md`.
 *
 * @example
 * const store = new FilePlanStore('/state/sessions/cli-1a2b3c4d5e6f-default/plan');
 */
export class FilePlanStore implements PlanStore {
  readonly dir: string;
  readonly planPath: string;
  readonly todoPath: string;

  constructor(dir: string) {
    this.dir = resolve(dir);
    this.planPath = join(this.dir, PLAN_FILE);
    this.todoPath = join(this.dir, TODO_FILE);
  }

  async read(): Promise<PlanSnapshot | undefined> {
    const [plan, todo] = await Promise.all([
      readIfExists(this.planPath),
      readIfExists(this.todoPath),
    ]);
    if (plan === undefined || todo === undefined) return undefined;
    return planSnapshot(this.dir, { plan, todo });
  }

  createMissing(files: PlanFiles): Promise<PlanSnapshot> {
    return withPathLock(this.dir, async () => {
      const [plan, todo] = await Promise.all([
        readIfExists(this.planPath),
        readIfExists(this.todoPath),
      ]);
      const next = {
        plan: plan ?? withTrailingNewline(files.plan),
        todo: todo ?? withTrailingNewline(files.todo),
      };
      if (plan === undefined) await writeFileAtomic(this.planPath, next.plan);
      if (todo === undefined) await writeFileAtomic(this.todoPath, next.todo);
      return planSnapshot(this.dir, next);
    });
  }

  replace(files: PlanFiles): Promise<PlanSnapshot> {
    return withPathLock(this.dir, async () => {
      const next = { plan: withTrailingNewline(files.plan), todo: withTrailingNewline(files.todo) };
      // TODO.md last: a crash in between leaves the old checklist, which still matches its items.
      await writeFileAtomic(this.planPath, next.plan);
      await writeFileAtomic(this.todoPath, next.todo);
      return planSnapshot(this.dir, next);
    });
  }

  markDone(id: string): Promise<PlanSnapshot> {
    return this.#updateTodo((todo) => markTodoDone(todo, id));
  }

  appendBlocker(id: string, reason: string): Promise<PlanSnapshot> {
    return this.#updateTodo((todo) => appendTodoBlocker(todo, id, reason));
  }

  reset(): Promise<string[]> {
    return withPathLock(this.dir, async () => {
      const removed: string[] = [];
      for (const path of [this.planPath, this.todoPath]) {
        try {
          await rm(path);
          removed.push(path);
        } catch (error) {
          if (isErrnoError(error, 'ENOENT')) continue;
          throw new StateError(`Could not delete ${path}: ${errorMessage(error)}`, {
            cause: error,
          });
        }
      }
      // The directory only held the plan; leave it when something else (a person's notes) is in it.
      await rmdir(this.dir).catch(() => undefined);
      return removed;
    });
  }

  #updateTodo(change: (todo: string) => string): Promise<PlanSnapshot> {
    return withPathLock(this.dir, async () => {
      const [plan, todo] = await Promise.all([
        readIfExists(this.planPath),
        readIfExists(this.todoPath),
      ]);
      if (plan === undefined || todo === undefined) {
        throw new StateError(
          `The plan files in ${this.dir} are missing; they may have been reset.`,
        );
      }
      const next = { plan, todo: change(todo) };
      await writeFileAtomic(this.todoPath, next.todo);
      return planSnapshot(this.dir, next);
    });
  }
}

/**
 * Gives each session its plan directory, `<stateDir>/sessions/<key>/plan`.
 *
 * @example
 * const store = new FilePlanStoreFactory('/home/me/.tiny-claw').forSession(session);
 */
export class FilePlanStoreFactory implements PlanStoreFactory {
  readonly stateDir: string;

  constructor(stateDir: string) {
    this.stateDir = resolve(stateDir);
  }

  /** The store of `session`; the key is validated before it becomes a path. */
  forSession(session: Pick<SessionRef, 'key'>): FilePlanStore {
    return new FilePlanStore(join(sessionDirectory(this.stateDir, session.key), 'plan'));
  }
}

/**
 * The snapshot of plan files held in memory (parsed items and the next open one).
 *
 * @example
 * planSnapshot('/p', { plan: '# PLAN.md\n', todo: '- [ ] TC-001 Go\n' }).next?.id; // 'TC-001'
 */
export function planSnapshot(dir: string, files: PlanFiles): PlanSnapshot {
  const items = parseTodoItems(files.todo);
  return { dir, plan: files.plan, todo: files.todo, items, next: nextOpenItem(items) };
}

async function readIfExists(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if (isErrnoError(error, 'ENOENT')) return undefined;
    throw new StateError(`Could not read ${path}: ${errorMessage(error)}`, { cause: error });
  }
}
