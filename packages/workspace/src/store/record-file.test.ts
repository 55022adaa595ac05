import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StateError } from '@tiny-claw/core';
import { checkpointOf, pendingApproval } from '@tiny-claw/testkit/state-store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { QuarantinedFileError } from '../files/index.js';
import { FileApprovalStore } from './file-approval-store.js';
import { FileCheckpointStore } from './file-checkpoint-store.js';

let stateDir: string;

beforeEach(async () => {
  stateDir = await mkdtemp(join(tmpdir(), 'tiny-claw-record-file-'));
});

afterEach(async () => {
  await rm(stateDir, { recursive: true, force: true });
});

const record = pendingApproval();
const valid = `${JSON.stringify(record, null, 2)}\n`;
const approvalsDir = () => join(stateDir, 'sessions', record.sessionKey, 'approvals');
const checkpointsDir = () => join(stateDir, 'sessions', record.sessionKey, 'checkpoints');

const corruptions: Array<[string, string | Buffer]> = [
  ['an empty file', ''],
  ['a file of NUL bytes', Buffer.alloc(28_454)],
  ['a document cut off mid-string', valid.slice(0, valid.length / 2)],
  ['a valid document followed by trailing bytes', `${valid}${'x'.repeat(1111)}`],
  ['a document behind a byte-order mark', `\uFEFF${valid}`],
  ['another schema version', JSON.stringify({ ...record, schemaVersion: 2 })],
  ['an array', '[]'],
  ['an unknown status', JSON.stringify({ ...record, status: 'approved' })],
];

describe('reading an approval record', () => {
  it.each(corruptions)(
    'quarantines %s with a clear error and keeps its bytes',
    async (_label, bytes) => {
      const path = join(approvalsDir(), `${record.id}.json`);
      await mkdir(approvalsDir(), { recursive: true });
      await writeFile(path, bytes);
      const store = new FileApprovalStore(stateDir);
      const error = await store.read(record.sessionKey, record.id).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(QuarantinedFileError);
      expect((error as Error).message).toContain('is unreadable');
      expect((error as Error).message).toContain('.unreadable-');
      const quarantined = (error as QuarantinedFileError).quarantinedPath;
      expect(await readFile(quarantined)).toEqual(Buffer.from(bytes));
      // The original name is free again, and nothing was written in its place.
      expect(await readdir(approvalsDir())).toEqual([quarantined.split('/').at(-1)]);
      expect(await store.read(record.sessionKey, record.id)).toBeUndefined();
    },
  );

  it('refuses a record that is a symbolic link, without following it', async () => {
    const secret = join(stateDir, 'secret.json');
    await writeFile(secret, valid);
    await mkdir(approvalsDir(), { recursive: true });
    await symlink(secret, join(approvalsDir(), `${record.id}.json`));
    const store = new FileApprovalStore(stateDir);
    const error = await store.read(record.sessionKey, record.id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StateError);
    expect((error as Error).message).toContain('symbolic link');
    expect(await readFile(secret, 'utf8')).toBe(valid);
  });

  it('refuses a record path that is a directory', async () => {
    await mkdir(join(approvalsDir(), `${record.id}.json`), { recursive: true });
    const store = new FileApprovalStore(stateDir);
    await expect(store.read(record.sessionKey, record.id)).rejects.toThrow(/not a regular file/);
  });

  it('lists the readable records, reports each unreadable one and moves it aside', async () => {
    const store = new FileApprovalStore(stateDir);
    const good = pendingApproval();
    await store.create(good);
    await writeFile(join(approvalsDir(), `${record.id}.json`), '{"truncated":');
    const problems: StateError[] = [];
    expect((await store.list({ onUnreadable: (e) => problems.push(e) })).map((r) => r.id)).toEqual([
      good.id,
    ]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toBeInstanceOf(QuarantinedFileError);
  });

  it('lists by throwing the unreadable record when no one listens for it, after moving every bad one aside', async () => {
    const store = new FileApprovalStore(stateDir);
    await store.create(pendingApproval());
    await writeFile(join(approvalsDir(), `${record.id}.json`), '');
    await expect(store.list()).rejects.toBeInstanceOf(QuarantinedFileError);
    expect(await store.list()).toHaveLength(1);
  });

  it('ignores temp files, claim files and quarantined files when listing', async () => {
    const store = new FileApprovalStore(stateDir);
    await store.create(record);
    await writeFile(join(approvalsDir(), `.${record.id}.json.tmp-0123456789ab`), 'partial');
    await writeFile(join(approvalsDir(), `${record.id}.json.unreadable-20260101T000000Z`), 'bad');
    await writeFile(join(approvalsDir(), 'notes.txt'), 'hello');
    expect((await store.list()).map((r) => r.id)).toEqual([record.id]);
  });
});

describe('reading a checkpoint', () => {
  const checkpoint = checkpointOf(record);
  const checkpointText = JSON.stringify(checkpoint);

  it.each([
    ['an empty file', ''],
    ['a file of NUL bytes', Buffer.alloc(28_454)],
    ['a document cut off mid-string', checkpointText.slice(0, 100)],
    ['a valid document followed by trailing bytes', `${checkpointText}${'x'.repeat(1111)}`],
    ['another schema version', JSON.stringify({ ...checkpoint, schemaVersion: 2 })],
    [
      'a run state of another version',
      JSON.stringify({ ...checkpoint, state: { ...checkpoint.state, schemaVersion: 9 } }),
    ],
    ['an array', '[]'],
  ] as Array<[string, string | Buffer]>)(
    'quarantines %s with a clear error and keeps its bytes',
    async (_label, bytes) => {
      await mkdir(checkpointsDir(), { recursive: true });
      await writeFile(join(checkpointsDir(), `${checkpoint.id}.json`), bytes);
      const store = new FileCheckpointStore(stateDir);
      const error = await store.read(checkpoint.sessionKey, checkpoint.id).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(QuarantinedFileError);
      expect(await readFile((error as QuarantinedFileError).quarantinedPath)).toEqual(
        Buffer.from(bytes),
      );
    },
  );

  it('refuses a checkpoint that is a symbolic link to another file', async () => {
    const secret = join(stateDir, 'secret');
    await writeFile(secret, checkpointText);
    await mkdir(checkpointsDir(), { recursive: true });
    await symlink(secret, join(checkpointsDir(), `${checkpoint.id}.json`));
    const store = new FileCheckpointStore(stateDir);
    await expect(store.read(checkpoint.sessionKey, checkpoint.id)).rejects.toThrow(/symbolic link/);
  });

  it('reads the old checkpoint when a write was cut off before its rename (only a temp file is left)', async () => {
    const store = new FileCheckpointStore(stateDir);
    await store.save(checkpoint);
    await writeFile(
      join(checkpointsDir(), `.${checkpoint.id}.json.tmp-0123456789ab`),
      checkpointText.slice(0, 50),
    );
    expect(await store.read(checkpoint.sessionKey, checkpoint.id)).toEqual(checkpoint);
  });
});
