import type { RunResult } from '@tiny-claw/core';
import { describe, expect, it } from 'vitest';
import { runSummary } from './run-summary.js';

const result = (more: Partial<RunResult> = {}): RunResult => ({
  runId: 'run-1',
  sessionKey: 'cli-1a2b3c4d5e6f-default',
  workdir: '/w',
  text: 'done',
  stopReason: 'final',
  steps: 2,
  maxSteps: 20,
  mode: 'act',
  provider: 'openai',
  model: 'gpt-4.1',
  usage: { inputTokens: 1000, outputTokens: 100, totalTokens: 1100 },
  tracePath: '/s/t.json',
  ...more,
});

describe('the run summary line', () => {
  it('shows the estimated cost between the tokens and the trace when the model has a price', () => {
    expect(runSummary(result({ costUsd: 0.0028 }))).toBe(
      'tiny-claw · stop=final · steps=2/20 · session=cli-1a2b3c4d5e6f-default · ' +
        'tokens=1000 in / 100 out · cost≈$0.0028 · trace=/s/t.json',
    );
  });

  it('says cost=unknown when the run has no cost (a model without a price)', () => {
    expect(runSummary(result())).toContain(' · tokens=1000 in / 100 out · cost=unknown · trace=');
  });

  it('says cost=unknown for a run no model call reported tokens for, which nothing priced', () => {
    expect(runSummary(result({ provider: 'echo', model: 'echo', usage: null }))).toBe(
      'tiny-claw · stop=final · steps=2/20 · session=cli-1a2b3c4d5e6f-default · cost=unknown · trace=/s/t.json',
    );
  });

  it('shows a priced run that cost nothing as $0.0000, and a large one in cents', () => {
    expect(runSummary(result({ costUsd: 0 }))).toContain(' · cost≈$0.0000 · ');
    expect(runSummary(result({ costUsd: 123.456 }))).toContain(' · cost≈$123.46 · ');
  });

  it('keeps the cost on the line of a run paused for approval', () => {
    const paused = runSummary(
      result({ stopReason: 'approval_required', approvalId: 'ap_1', costUsd: 0.0123 }),
    );
    expect(paused).toMatch(/ · approval=ap_1 · tokens=1000 in \/ 100 out · cost≈\$0\.0123 · /);
  });
});
