import { describe, expect, it } from 'vitest';
import { workdirLabel } from './workdir-label.js';

describe('a workdir in a chat message shows its last two segments', () => {
  it.each([
    ['/srv/teams/alice/tiny-claw', '…/alice/tiny-claw'],
    ['/home/bob/projects/repo/', '…/projects/repo'],
    ['/srv/app', '/srv/app'],
    ['/app', '/app'],
    ['/', '/'],
    ['//srv//a//b', '…/a/b'],
    ['C:\\Users\\carol\\code\\repo', '…/code/repo'],
    ['/a/with space/my repo', '…/with space/my repo'],
  ])('%s → %s', (workdir, label) => {
    expect(workdirLabel(workdir)).toBe(label);
  });
});
