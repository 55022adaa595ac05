import { StateError } from '../errors.js';
import { planText } from './strings.js';

/**
 * One checkbox line of TODO.md.
 *
 * @example
 * const item: TodoItem = { id: 'TC-001', text: 'Create files', done: false, line: 2 };
 */
export interface TodoItem {
  /** Explicit (`TC-001 …`) or implicit (`TC-<position>`) ID. */
  id: string;
  text: string;
  done: boolean;
  /** 0-based line index in TODO.md. */
  line: number;
}

// `- [ ] body`, `- [x] body`, `  -  [X]  body`; the trailing `\r` of CRLF files is whitespace.
const CHECKBOX_LINE = /^\s*-\s*\[( |x|X)\]\s+(\S.*?)\s*$/;
const ID_PREFIX = /^([A-Z][A-Z0-9]*-\d{3,})\s+(\S.*)$/;
const BLOCKERS_HEADING = /^##\s+Blockers\s*$/i;
const ANY_HEADING = /^#{1,6}\s/;

/**
 * `TC-<n>` padded to three digits: the implicit ID of the n-th item (1-based).
 *
 * @example
 * implicitTodoId(7); // 'TC-007'
 */
export function implicitTodoId(position: number): string {
  return `TC-${String(position).padStart(3, '0')}`;
}

/**
 * Every checkbox item of a TODO.md, in file order. Items without an ID get `TC-<position>`.
 *
 * @example
 * parseTodoItems('# TODO.md\n\n- [x] TC-001 Setup\n- [ ] Write tests');
 * // [{ id: 'TC-001', done: true, … }, { id: 'TC-002', text: 'Write tests', done: false, … }]
 */
export function parseTodoItems(todo: string): TodoItem[] {
  const items: TodoItem[] = [];
  todo.split('\n').forEach((line, index) => {
    const match = CHECKBOX_LINE.exec(line);
    if (!match) return;
    const body = match[2] as string;
    const withId = ID_PREFIX.exec(body);
    items.push({
      id: withId ? (withId[1] as string) : implicitTodoId(items.length + 1),
      text: withId ? (withId[2] as string) : body,
      done: match[1] !== ' ',
      line: index,
    });
  });
  return items;
}

/**
 * The first unchecked item, or undefined when everything is done.
 *
 * @example
 * nextOpenItem(parseTodoItems(todo))?.id; // 'TC-002'
 */
export function nextOpenItem(items: readonly TodoItem[]): TodoItem | undefined {
  return items.find((item) => !item.done);
}

/**
 * `<ID> <text>`, how an item is named in prompts and renderings.
 *
 * @example
 * formatTodoItem({ id: 'TC-001', text: 'Setup', done: false, line: 2 }); // 'TC-001 Setup'
 */
export function formatTodoItem(item: Pick<TodoItem, 'id' | 'text'>): string {
  return `${item.id} ${item.text}`;
}

/**
 * TODO.md with the item `id` checked. Only the checkbox of that line changes.
 *
 * @throws StateError when no item has this ID (the file changed under the run).
 *
 * @example
 * markTodoDone('- [ ] TC-001 Setup\n', 'TC-001'); // '- [x] TC-001 Setup\n'
 */
export function markTodoDone(todo: string, id: string): string {
  const item = parseTodoItems(todo).find((candidate) => candidate.id === id);
  if (!item) throw new StateError(`TODO.md has no item ${id}; it may have been edited meanwhile.`);
  const lines = todo.split('\n');
  lines[item.line] = (lines[item.line] as string).replace(/\[( |x|X)\]/, '[x]');
  return withTrailingNewline(lines.join('\n'));
}

/**
 * TODO.md with `- <id>: <reason>` added to its `## Blockers` section, which is created at the end
 * when missing. Whitespace in the reason is collapsed so one blocker stays one line.
 *
 * @example
 * appendTodoBlocker('# TODO.md\n\n- [ ] TC-001 Setup\n', 'TC-001', 'no network');
 * // '# TODO.md\n\n- [ ] TC-001 Setup\n\n## Blockers\n\n- TC-001: no network\n'
 */
export function appendTodoBlocker(todo: string, id: string, reason: string): string {
  const collapsed = collapseWhitespace(reason);
  const entry = `- ${id}: ${collapsed === '' ? planText.noBlockerDetails : collapsed}`;
  const lines = todo.replace(/\s+$/, '').split('\n');
  const header = lines.findIndex((line) => BLOCKERS_HEADING.test(line.trim()));
  if (header === -1) {
    if (lines.length > 0 && (lines.at(-1) as string).trim() !== '') lines.push('');
    lines.push(planText.blockersHeading, '', entry);
    return withTrailingNewline(lines.join('\n'));
  }
  // Insert at the end of the existing section, not the end of the file: a person may have added
  // another section after it.
  let end = lines.findIndex((line, i) => i > header && ANY_HEADING.test(line));
  if (end === -1) end = lines.length;
  const body = lines.slice(header + 1, end).filter((line) => line.trim() !== '');
  const section = [lines[header] as string, '', ...body, entry];
  const after = lines.slice(end);
  const rebuilt = [...lines.slice(0, header), ...section, ...(after.length ? ['', ...after] : [])];
  return withTrailingNewline(rebuilt.join('\n'));
}

/**
 * Normalise a TODO.md written by the model: checkbox lines without an ID get `TC-<n>` (n counts
 * every checkbox line), and a `# TODO.md` title is added when the text does not start with one.
 *
 * @example
 * normalizeTodoMarkdown('- [ ] Setup\n- [ ] Test');
 * // '# TODO.md\n\n- [ ] TC-001 Setup\n- [ ] TC-002 Test\n'
 */
export function normalizeTodoMarkdown(todo: string): string {
  let count = 0;
  const lines = todo
    .trim()
    .split('\n')
    .map((line) => {
      const match = CHECKBOX_LINE.exec(line);
      if (!match) return line;
      count += 1;
      if (ID_PREFIX.test(match[2] as string)) return line;
      return line.replace(/\]\s+/, `] ${implicitTodoId(count)} `);
    });
  const text = lines.join('\n');
  return withTrailingNewline(text.startsWith('#') ? text : `${planText.todoTitle}\n\n${text}`);
}

/**
 * A revised TODO.md that cannot lose or fake progress: every item done in `previous` is done in the
 * result (re-added at the top of the list with its ID when the revision dropped it), and an item the
 * revision marks done that was not done before is unchecked again.
 *
 * @example
 * keepCompletedItems('- [x] TC-001 A\n- [ ] TC-002 B\n', '# TODO.md\n\n- [ ] TC-003 C\n');
 * // '# TODO.md\n\n- [x] TC-001 A\n- [ ] TC-003 C\n'
 */
export function keepCompletedItems(previous: string, revised: string): string {
  const completed = parseTodoItems(previous).filter((item) => item.done);
  const doneIds = new Set(completed.map((item) => item.id));
  const lines = revised.replace(/\s+$/, '').split('\n');
  const items = parseTodoItems(revised);
  for (const item of items) {
    const line = lines[item.line] as string;
    const shouldBeDone = doneIds.has(item.id);
    if (shouldBeDone !== item.done) {
      lines[item.line] = line.replace(/\[( |x|X)\]/, shouldBeDone ? '[x]' : '[ ]');
    }
  }
  const present = new Set(items.map((item) => item.id));
  const dropped = completed
    .filter((item) => !present.has(item.id))
    .map((item) => `- [x] ${formatTodoItem(item)}`);
  const first = items[0];
  if (first) lines.splice(first.line, 0, ...dropped);
  else if (dropped.length > 0) {
    if ((lines.at(-1) ?? '').trim() !== '') lines.push('');
    lines.push(...dropped);
  }
  return withTrailingNewline(lines.join('\n'));
}

/**
 * Every run of whitespace (newlines included) replaced by one space, trimmed.
 *
 * @example
 * collapseWhitespace(' a\n\n b\t c '); // 'a b c'
 */
export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * `text` ending with exactly one newline.
 *
 * @example
 * withTrailingNewline('x\n\n'); // 'x\n'
 */
export function withTrailingNewline(text: string): string {
  return `${text.replace(/\n+$/, '')}\n`;
}
