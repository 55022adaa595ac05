import type { RunEvent, RunEventListener, RunResult } from '@tiny-claw/core';
import { redactSecrets } from '@tiny-claw/core/utils';
import type { Application } from '@tiny-claw/runtime';
import { costLabel } from '@tiny-claw/tracing';
import { cliActor } from '../cli-actor.js';
import { followRun } from '../follow-run.js';
import { loadApplication } from '../load-app.js';
import type { Output } from '../output.js';
import { painter, printable } from '../terminal-text.js';
import { chatText } from './chat-strings.js';
import { appendHistory, historyPath, readHistory } from './history.js';
import { createMarkdownStream } from './markdown.js';
import { attachMentions } from './mentions.js';
import type { ChatEngine, ChatState } from './repl.js';
import { listSessions } from './session-list.js';
import { runSlashCommand } from './slash-commands.js';
import { createSpinner } from './spinner.js';

/** What the chat remembers across turns, for the status line and the slash commands. */
export interface TurnRecord {
  result: RunResult | undefined;
  /** Input tokens of the turn's latest model call: how much context it used. */
  contextTokens: number | undefined;
  /** The answer text streamed in the turn so far (what is kept of a cancelled one). */
  partial: string;
}

/** The loaded part of the chat that slash commands work with. */
export interface EngineContext {
  state: ChatState;
  app: Application;
  actor: string;
  last: TurnRecord;
  /** Every finished run of this chat, for /cost. */
  results: RunResult[];
  /**
   * The conversation of each session in this chat, oldest first: what the person asked and what
   * the agent answered, passed to the next run so the model reads the turns before it whole.
   */
  conversations: Map<string, Array<{ role: 'user' | 'assistant'; content: string }>>;
  /** Print a line for the person (stderr), made safe. */
  say(text: string): void;
  /** The status line: mode, session, model, context used. */
  status(): string;
  /** Follow a run (a new one or a decision) the way a turn does. */
  follow(
    start: (onEvent: RunEventListener, signal: AbortSignal) => Promise<RunResult>,
  ): Promise<void>;
}

/**
 * Load the agent and what a turn needs, then greet: the session (for `--continue`, the workdir's
 * most recently used one, with what it remembers), the mode and how to get help.
 *
 * @example
 * const engine = await startEngine(state);
 */
export async function startEngine(state: ChatState): Promise<ChatEngine> {
  const { args, editor, out } = state;
  const app = await loadApplication({ workdir: args.workdir, command: 'chat' });
  state.workdir = app.settings.workdir;
  const paint = painter(out.color);
  const say = (text: string, style?: 'dim') => {
    const safe = printable(text, { multiline: true });
    editor.printAbove(style ? paint(style, safe) : safe);
  };
  if (args.continue) {
    const [latest] = await listSessions(app.settings.stateDir, app.settings.workdir);
    if (latest) state.session = latest.name;
    else say(chatText.noSessionToContinue(app.settings.workdir));
  }
  const historyFile = historyPath(
    app.settings.stateDir,
    (await app.agent.session(state.session)).key,
  );
  editor.setHistory(await readHistory(historyFile));
  say(chatText.welcome(state.session, state.mode), 'dim');
  if (args.continue) {
    const session = await app.agent.session(state.session);
    const remembered = await app.agent.store.memory(session).readRecent(6);
    say(chatText.continuing(state.session));
    for (const line of remembered) say(chatText.remembered(line));
    if (remembered.length === 0) say(chatText.nothingRemembered);
  }

  const context: EngineContext = {
    state,
    app,
    actor: cliActor(),
    last: { result: undefined, contextTokens: undefined, partial: '' },
    results: [],
    conversations: new Map(),
    say: (text) => out.stderr(`${printable(text, { multiline: true })}\n`),
    status: () =>
      chatText.status({
        mode: state.mode,
        session: state.session,
        model: app.provider.model ?? app.settings.model ?? app.provider.name,
        context:
          context.last.contextTokens === undefined
            ? chatText.contextUnknown
            : chatText.contextTokens(context.last.contextTokens),
      }),
    follow: (start) => followTurn(context, start, ''),
  };

  return {
    async turn(text) {
      appendHistory(historyFile, text, redactSecrets).catch(() => {});
      const prompt = await attachMentions(text, app, (line) => context.say(line));
      const session = state.session;
      const conversation = context.conversations.get(session) ?? [];
      await followTurn(
        context,
        (onEvent, signal) =>
          app.run({
            prompt,
            mode: state.mode,
            maxSteps: args.maxSteps,
            signal,
            onEvent,
            requestedBy: context.actor,
            session,
            history: conversation,
          }),
        prompt,
      );
      const answer = turnAnswer(context.last.result, context.last.partial);
      if (answer !== undefined) {
        conversation.push(
          { role: 'user', content: prompt },
          { role: 'assistant', content: answer },
        );
        context.conversations.set(
          session,
          newestTurns(conversation, app.settings.contextMaxChars / 2),
        );
      }
    },
    command: (line) => runSlashCommand(line, context),
    close: () => app.close(),
  };
}

/**
 * Drive one run through the same path `tiny-claw run` takes (progress lines, the inline approval
 * question, the summary line), with the chat's keyboard, spinner and Markdown around it. A run
 * the person cancelled keeps its partial answer in the session memory.
 */
async function followTurn(
  context: EngineContext,
  start: (onEvent: RunEventListener, signal: AbortSignal) => Promise<RunResult>,
  prompt: string,
): Promise<void> {
  const { state, app } = context;
  const { editor, out } = state;
  const spinner = createSpinner(process.stderr);
  const markdown = out.interactive && out.color ? createMarkdownStream(out.stdout) : undefined;
  const turnOut: Output = {
    stdout: (text) => {
      spinner.stop();
      if (markdown) markdown.write(text);
      else out.stdout(text);
    },
    stderr: (text) => {
      spinner.stop();
      markdown?.flush();
      out.stderr(text);
    },
    color: out.color,
    interactive: out.interactive,
    ask: async (question) => {
      spinner.stop();
      markdown?.flush();
      const answer = await editor.ask(question);
      editor.release();
      return answer;
    },
  };
  let partial = '';
  let finished: RunResult | undefined;
  const watch = (event: RunEvent) => {
    if (event.parentRunId !== undefined) return;
    if (event.type === 'model.start') spinner.start(chatText.thinking);
    if (event.type === 'text.delta') partial += event.text;
    if (event.type === 'model.response' && event.usage)
      context.last.contextTokens = event.usage.inputTokens;
    if (event.type === 'run.finish') finished = event.result;
  };
  const tee =
    (listener: RunEventListener): RunEventListener =>
    (event) => {
      watch(event);
      listener(event);
    };
  // Decisions taken inline continue the run through resumeApproval: watched the same way.
  const watched = new Proxy(app, {
    get(target, property) {
      if (property === 'resumeApproval') {
        return (id: string, request: Parameters<Application['resumeApproval']>[1]) =>
          target.resumeApproval(id, {
            ...request,
            ...(request.onEvent ? { onEvent: tee(request.onEvent) } : {}),
          });
      }
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  editor.release();
  spinner.start(chatText.thinking);
  try {
    await followRun((onEvent, signal) => start(tee(onEvent), signal), {
      app: watched,
      out: turnOut,
      json: false,
      scope: { session: state.session, workdir: state.args.workdir },
      actor: context.actor,
    });
  } finally {
    spinner.stop();
    markdown?.flush();
  }
  context.last.result = finished;
  context.last.partial = partial;
  if (finished) context.results.push(finished);
  if (finished?.stopReason === 'cancelled' && prompt !== '') {
    const session = await app.agent.session(state.session);
    await app.agent.store
      .memory(session)
      .append([
        { key: 'last_prompt', value: prompt },
        { key: 'last_response', value: chatText.cancelledMemory(partial) },
      ])
      .catch(() => {});
  }
  out.stderr(`${painter(out.color)('dim', context.status())}\n`);
}

// The turns a chat passes on: the newest, as messages (two per turn), at most this many and at
// most half the context budget in characters; older ones stay in the session's memory.
const MAX_CONVERSATION_MESSAGES = 40;

function newestTurns<T extends { content: string }>(messages: readonly T[], maxChars: number): T[] {
  const kept = messages.slice(-MAX_CONVERSATION_MESSAGES);
  let chars = kept.reduce((sum, message) => sum + message.content.length, 0);
  // Whole turns go, oldest first; the latest turn always stays.
  while (kept.length > 2 && chars > maxChars) {
    const dropped = kept.splice(0, 2);
    chars -= dropped.reduce((sum, message) => sum + message.content.length, 0);
  }
  return kept;
}

/**
 * What the agent said in a turn, for the conversation: the answer, the part of it given before a
 * cancel (marked so), or nothing when the turn ended without one (paused, failed).
 */
function turnAnswer(result: RunResult | undefined, partial: string): string | undefined {
  if (result === undefined) return undefined;
  if (result.stopReason === 'final') return result.text;
  if (result.stopReason === 'cancelled') return chatText.cancelledMemory(partial);
  return undefined;
}

/** The cost of runs, summed: unknown as soon as one run's cost is. */
export function totalCost(results: readonly RunResult[]): string {
  let total: number | undefined = 0;
  for (const result of results) {
    total =
      total === undefined || result.costUsd === undefined ? undefined : total + result.costUsd;
  }
  return costLabel(results.length === 0 ? 0 : total);
}
