import type { StateHealth } from '@tiny-claw/runtime';
import { describe, expect, it } from 'vitest';
import type { ServerHealth } from './server-health.js';
import { withStateCheck } from './state-check.js';

const URL_SHOWN = 'postgres://claw:***@db:5432/claw';

function base(state: ServerHealth['state']): ServerHealth {
  return {
    status: 'ok',
    version: '0.1.0',
    provider: { name: 'echo', model: 'echo' },
    approvals: 'off',
    feishu: { configured: false },
    state,
    runs: { running: 0, waiting: 0 },
    mcp: { servers: 0, connected: 0, tools: 0 },
  };
}

const postgres = base({ backend: 'postgres', url: URL_SHOWN });

describe('the state check of /health', () => {
  it('leaves a file-backed server as it is, without checking', async () => {
    let checked = false;
    const health = await withStateCheck(base({ backend: 'files' }), async () => {
      checked = true;
      return { backend: 'files', dir: '/srv/state', reachable: true };
    });
    expect(health).toEqual(base({ backend: 'files' }));
    expect(checked).toBe(false);
  });

  it('adds the schema version when the database answers', async () => {
    const health = await withStateCheck(postgres, async () => ({
      backend: 'postgres',
      url: URL_SHOWN,
      reachable: true,
      schemaVersion: 3,
    }));
    expect(health.status).toBe('ok');
    expect(health.state).toEqual({
      backend: 'postgres',
      url: URL_SHOWN,
      reachable: true,
      schemaVersion: 3,
    });
  });

  it.each<[string, () => Promise<StateHealth>, string]>([
    [
      'says it is unreachable',
      async () => ({
        backend: 'postgres',
        url: URL_SHOWN,
        reachable: false,
        problem: 'ECONNREFUSED',
      }),
      'ECONNREFUSED',
    ],
    [
      'throws',
      async () => Promise.reject(new Error('password authentication failed')),
      'password authentication failed',
    ],
    ['never answers', () => new Promise<StateHealth>(() => {}), 'no answer within 20 ms'],
  ])('makes the server unavailable, saying why, when the check %s', async (_name, check, why) => {
    const health = await withStateCheck(postgres, check, 20);
    expect(health.status).toBe('unavailable');
    expect(health.state).toMatchObject({ backend: 'postgres', url: URL_SHOWN, reachable: false });
    const problem = health.state.backend === 'postgres' ? (health.state.problem ?? '') : '';
    expect(problem).toContain(why);
    expect(problem).toContain('check TINY_CLAW_STATE_URL');
  });
});
