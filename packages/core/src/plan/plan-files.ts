import { join } from 'node:path';
import { StateError } from '../errors.js';
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
 * const store = createMemoryStore().plans(session);
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
 * Where a plan store keeps its two files: a map in memory ({@link memoryPlanFiles}), a directory
 * on disk (`diskPlanFiles` in `@tiny-claw/workspace`), or anything else that can read, write and
 * remove two named texts.
 *
 * @example
 * const access: PlanFileAccess = memoryPlanFiles('memory:cli-1a2b3c4d5e6f-default/plan');
 */
export interface PlanFileAccess {
  readonly dir: string;
  read(name: PlanFileName): Promise<string | undefined>;
  write(name: PlanFileName, text: string): Promise<void>;
  /** Delete the file; true when it existed. */
  remove(name: PlanFileName): Promise<boolean>;
  /** Run `fn` alone among the changes of this store. */
  exclusive<T>(fn: () => Promise<T>): Promise<T>;
  /** After a reset: drop the (now empty) container if nothing else is in it. */
  cleanUp(): Promise<void>;
}

/** The two plan files. */
export type PlanFileName = typeof PLAN_FILE | typeof TODO_FILE;

/**
 * The plan files of one session over a {@link PlanFileAccess}. Every change is made under the
 * access's lock, so concurrent updates in one process never lose each other's edits.
 *
 * @example
 * const store = new PlanFileStore(memoryPlanFiles('memory:demo/plan'));
 * await store.createMissing({ plan: '# PLAN.md\n', todo: '- [ ] TC-001 Go\n' });
 */
export class PlanFileStore implements PlanStore {
  readonly #files: PlanFileAccess;

  constructor(files: PlanFileAccess) {
    this.#files = files;
  }

  get dir(): string {
    return this.#files.dir;
  }

  async read(): Promise<PlanSnapshot | undefined> {
    const current = await this.#readBoth();
    return current.plan === undefined || current.todo === undefined
      ? undefined
      : planSnapshot(this.dir, { plan: current.plan, todo: current.todo });
  }

  createMissing(files: PlanFiles): Promise<PlanSnapshot> {
    return this.#files.exclusive(async () => {
      const current = await this.#readBoth();
      const next = {
        plan: current.plan ?? withTrailingNewline(files.plan),
        todo: current.todo ?? withTrailingNewline(files.todo),
      };
      if (current.plan === undefined) await this.#files.write(PLAN_FILE, next.plan);
      if (current.todo === undefined) await this.#files.write(TODO_FILE, next.todo);
      return planSnapshot(this.dir, next);
    });
  }

  replace(files: PlanFiles): Promise<PlanSnapshot> {
    return this.#files.exclusive(async () => {
      const next = { plan: withTrailingNewline(files.plan), todo: withTrailingNewline(files.todo) };
      // TODO.md last: a crash in between leaves the old checklist, which still matches its items.
      await this.#files.write(PLAN_FILE, next.plan);
      await this.#files.write(TODO_FILE, next.todo);
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
    return this.#files.exclusive(async () => {
      const removed: string[] = [];
      for (const name of [PLAN_FILE, TODO_FILE] as const) {
        if (await this.#files.remove(name)) removed.push(join(this.dir, name));
      }
      await this.#files.cleanUp();
      return removed;
    });
  }

  async #readBoth(): Promise<{ plan: string | undefined; todo: string | undefined }> {
    const [plan, todo] = await Promise.all([
      this.#files.read(PLAN_FILE),
      this.#files.read(TODO_FILE),
    ]);
    return { plan, todo };
  }

  #updateTodo(change: (todo: string) => string): Promise<PlanSnapshot> {
    return this.#files.exclusive(async () => {
      const { plan, todo } = await this.#readBoth();
      if (plan === undefined || todo === undefined) {
        throw new StateError(
          `The plan files in ${this.dir} are missing; they may have been reset.`,
        );
      }
      const next = { plan, todo: change(todo) };
      await this.#files.write(TODO_FILE, next.todo);
      return planSnapshot(this.dir, next);
    });
  }
}

/**
 * Plan files kept in memory, for agents without a file store.
 *
 * @example
 * const store = new PlanFileStore(memoryPlanFiles('memory:demo/plan'));
 */
export function memoryPlanFiles(dir: string): PlanFileAccess {
  const files = new Map<PlanFileName, string>();
  let queue: Promise<unknown> = Promise.resolve();
  return {
    dir,
    read: async (name) => files.get(name),
    write: async (name, text) => {
      files.set(name, text);
    },
    remove: async (name) => files.delete(name),
    exclusive<T>(fn: () => Promise<T>): Promise<T> {
      const result = queue.then(fn);
      queue = result.catch(() => undefined);
      return result;
    },
    cleanUp: async () => {},
  };
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
