import { describe, expect, it } from 'vitest';
import { BLOCKER_REASON_MAX_CHARS, planStepStatus, statusReason } from './plan-status.js';

describe('PLAN_STEP_STATUS marker', () => {
  it('reads completed, blocked and needs_replan in any case', () => {
    expect(planStepStatus('Done.\nPLAN_STEP_STATUS: completed')).toBe('completed');
    expect(planStepStatus('plan_step_status:BLOCKED because')).toBe('blocked');
    expect(planStepStatus('PLAN_STEP_STATUS:  Needs_Replan')).toBe('needs_replan');
  });

  it('is undefined without a marker or with an unknown value', () => {
    expect(planStepStatus('All good, finished.')).toBeUndefined();
    expect(planStepStatus('PLAN_STEP_STATUS: done')).toBeUndefined();
    expect(planStepStatus('PLAN_STEP_STATUS: completedness')).toBeUndefined();
  });

  it('takes the last marker when the reply repeats the instructions first', () => {
    const text =
      'I will print PLAN_STEP_STATUS: completed when done.\nFailed.\nPLAN_STEP_STATUS: blocked';
    expect(planStepStatus(text)).toBe('blocked');
  });
});

describe('status reason', () => {
  it('is what follows the marker, on one line', () => {
    expect(statusReason('Tried twice.\nPLAN_STEP_STATUS: blocked\nThe API key\n is missing.')).toBe(
      'The API key is missing.',
    );
    expect(statusReason('PLAN_STEP_STATUS: blocked - no network')).toBe('no network');
  });

  it('is the last paragraph before the marker when nothing follows it', () => {
    const text =
      'I looked around.\n\nThe test runner is not installed\nin this image.\n\nPLAN_STEP_STATUS: blocked';
    expect(statusReason(text)).toBe('The test runner is not installed in this image.');
  });

  it(`is at most ${BLOCKER_REASON_MAX_CHARS} characters, never the whole transcript`, () => {
    const reason = statusReason(`PLAN_STEP_STATUS: blocked ${'word '.repeat(400)}`);
    expect(reason.length).toBeLessThanOrEqual(BLOCKER_REASON_MAX_CHARS);
    expect(reason.endsWith('…')).toBe(true);
  });

  it('names the failed tool call when the model claimed completion after one', () => {
    expect(statusReason('PLAN_STEP_STATUS: completed', 'bash: exit code 1')).toBe(
      'Reported completed, but a tool call failed while working on this item: bash: exit code 1',
    );
  });
});
