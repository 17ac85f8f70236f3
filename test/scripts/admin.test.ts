import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminCommands } from '../../scripts/admin/commands.ts';
import { createTestApp, uniqueEmail, type TestApp } from '../helpers/app.ts';
import { describeEmbeddedOnly } from '../helpers/legs.ts';

const run = promisify(execFile);
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

describe('admin commands', () => {
  it('creates a workspace whose owner can log in, mints a working key, lists and revokes it', async () => {
    const admin = createAdminCommands(t.deps);
    const email = uniqueEmail('ops');
    const ws = await admin.createWorkspace({
      name: 'Acme',
      ownerEmail: email,
      ownerName: 'Ops',
      password: 'operator password',
    });
    const login = await t.request('/api/v1/users/login', {
      method: 'POST',
      json: { email, password: 'operator password' },
    });
    expect(login.status).toBe(200);
    const minted = await admin.mintKey({ workspaceId: ws.workspaceId, name: 'cron' });
    const me = await (await t.request('/api/v1/users/me', { token: minted.key })).json();
    expect(me).toMatchObject({
      user: null,
      workspace: { id: ws.workspaceId },
      credential: { type: 'api_key', id: minted.id },
    });
    const keys = await admin.listKeys(ws.workspaceId);
    expect(keys.map((k) => k.id)).toEqual([minted.id]);
    expect(JSON.stringify(keys)).not.toContain(minted.key.slice(13));
    await admin.revokeKey(minted.id);
    expect((await t.request('/api/v1/users/me', { token: minted.key })).status).toBe(401);
  });

  it('refuses a workspace name the database cannot store, naming the field as the API does', async () => {
    const admin = createAdminCommands(t.deps);
    const made = admin.createWorkspace({
      name: 'Ac\u0000me',
      ownerEmail: uniqueEmail('nul'),
      ownerName: 'Ops',
      password: 'operator password',
    });
    await expect(made).rejects.toMatchObject({
      code: 'validation_failed',
      errors: [expect.objectContaining({ pointer: '/workspace_name', code: 'invalid_character' })],
    });
  });

  it('refuses to mint a key for a workspace that does not exist', async () => {
    await expect(createAdminCommands(t.deps).mintKey({ workspaceId: 'ws_nope', name: 'x' })).rejects.toThrow(
      /no workspace/i,
    );
  });
});

describeEmbeddedOnly('npm run admin', () => {
  it('runs end to end on an embedded database and exits non-zero on an unknown command', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'admin-cli-'));
    const env = { ...process.env, DATA_DIR: dir, DATABASE_URL: '', OWNER_PASSWORD: 'operator password' };
    // What `npm run admin` runs: the build's entry, built first when stale.
    const cli = (...args: string[]) => run(process.execPath, ['scripts/run-built.js', 'admin', ...args], { env });
    try {
      const created = await cli(
        'create-workspace',
        '--name',
        'Acme',
        '--owner-email',
        'ops@acme.test',
        '--owner-name',
        'Ops',
      );
      const workspaceId = /workspace (ws_\w+)/.exec(created.stdout)?.[1];
      expect(workspaceId).toBeTruthy();
      const minted = await cli('mint-key', '--workspace', workspaceId!, '--name', 'cron');
      expect(minted.stdout).toMatch(/SERVICE_API_KEY=svc_[a-z0-9]{8}_[A-Za-z0-9]+/);
      expect(minted.stdout).toContain('acting as admin');
      const member = await cli('mint-key', '--workspace', workspaceId!, '--name', 'reports', '--role', 'member');
      expect(member.stdout).toContain('acting as member');
      await expect(
        cli('mint-key', '--workspace', workspaceId!, '--name', 'x', '--role', 'owner'),
      ).rejects.toMatchObject({ code: 1 });
      const listed = await cli('list-keys', '--workspace', workspaceId!);
      expect(listed.stdout).toContain('active as member');
      expect(listed.stdout).toContain('created by operator CLI');
      await expect(cli('bogus')).rejects.toMatchObject({ code: 1 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    // Six CLI processes, each opening the embedded database: a minute on a loaded 2-core machine.
  }, 240_000);
});
