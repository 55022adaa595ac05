import { costLabel, readTrace, renderTraceTree } from '@tiny-claw/tracing';
import { askDecision } from '../approval-prompt.js';
import { renderApprovalRequest } from '../approval-request-view.js';
import { approvalsText } from '../approvals-strings.js';
import { runSummary } from '../run-summary.js';
import { isChatMode } from './chat-args.js';
import { chatText, slashHelp } from './chat-strings.js';
import { type EngineContext, totalCost } from './engine.js';
import { slashList } from './slash-list.js';

/**
 * Run one slash command of the chat (see {@link slashHelp}); an unknown one is answered with the
 * list. Returns 'exit' for /exit.
 *
 * @example
 * await runSlashCommand('/mode plan', context);
 */
export async function runSlashCommand(
  line: string,
  context: EngineContext,
): Promise<'exit' | undefined> {
  const [name = '', ...words] = line.split(/\s+/);
  const rest = words.join(' ');
  const { state, app, say } = context;
  const scope = state.args.workdir === undefined ? [] : ['--workdir', state.args.workdir];
  switch (name) {
    case '/help':
      say(slashList());
      return;
    case '/exit':
    case '/quit':
      return 'exit';
    case '/mode':
      if (!isChatMode(rest)) say(chatText.modeUsage);
      else {
        state.mode = rest;
        say(chatText.modeSet(rest));
      }
      return;
    case '/session':
      if (rest !== '') {
        await app.agent.session(rest).then(
          () => {
            state.session = rest;
            context.last = { result: undefined, contextTokens: undefined, partial: '' };
          },
          (error: unknown) => say(error instanceof Error ? error.message : String(error)),
        );
      }
      say(chatText.sessionNow(state.session));
      return;
    case '/new': {
      const stamp = new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
      state.session = `chat-${stamp}`;
      context.last = { result: undefined, contextTokens: undefined, partial: '' };
      say(chatText.newSession(state.session));
      return;
    }
    case '/plan': {
      const { planCommand } = await import('../commands/plan.js');
      await planCommand(['show', '--session', state.session, ...scope], state.out);
      return;
    }
    case '/rules': {
      const { policyCommand } = await import('../commands/policy.js');
      await policyCommand(['rules', ...scope], state.out);
      return;
    }
    case '/trace': {
      const path = context.last.result?.tracePath;
      if (path === undefined) say(chatText.noTrace);
      else state.out.stdout(renderTraceTree(await readTrace(path), { color: state.out.color }));
      return;
    }
    case '/cost': {
      const last = context.last.result;
      say(
        chatText.costLine(
          last ? costLabel(last.costUsd) : costLabel(0),
          totalCost(context.results),
        ),
      );
      if (last) say(runSummary(last));
      return;
    }
    case '/compact': {
      const conversation = context.conversations.get(state.session) ?? [];
      const chars = (messages: typeof conversation) =>
        messages.reduce((sum, message) => sum + message.content.length, 0);
      const kept = conversation.slice(-2);
      if (kept.length === conversation.length) {
        say(chatText.compactNothing(conversation.length / 2, chars(conversation)));
        return;
      }
      context.conversations.set(state.session, kept);
      say(
        chatText.compacted(
          (conversation.length - kept.length) / 2,
          chars(conversation),
          chars(kept),
        ),
      );
      return;
    }
    case '/approvals':
      await decidePending(context);
      return;
    default:
      say(`${chatText.unknownCommand(name)}\n${slashList()}`);
      return;
  }
}

/** Each request waiting in the session, shown and asked about as a paused turn is. */
async function decidePending(context: EngineContext): Promise<void> {
  const { state, app } = context;
  const pending = await app.approvals({ status: 'pending', session: state.session });
  if (pending.length === 0) {
    context.say(chatText.noPending);
    return;
  }
  for (const record of pending) {
    state.out.stderr(
      await renderApprovalRequest(record, {
        color: state.out.color,
        describeShellCommand: (command) => app.describeShellCommand(command),
      }),
    );
    const answer = await askDecision((question) => state.editor.ask(question), state.out.stderr);
    if (!answer) {
      state.out.stderr(`${approvalsText.leftPending}\n`);
      return;
    }
    state.out.stderr(`${approvalsText.deciding(answer.decision, record.id, context.actor)}\n`);
    await context.follow((onEvent, signal) =>
      app.resumeApproval(record.id, {
        ...answer,
        actor: context.actor,
        onEvent,
        signal,
        session: state.session,
      }),
    );
  }
}
