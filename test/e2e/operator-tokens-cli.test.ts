import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { adminCall, issueOperatorToken } from '../support/operators';
import { adminAsync, startServer, stop } from '../support/serve-process';

/** `npm run admin -- operator token …` beside a running service (bin/serve.ts), and the tokens on its /admin/. */
describe('admin CLI: operator tokens', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'shortsms-operators-'));
  let server: { child: ChildProcess; baseUrl: string };

  beforeAll(async () => {
    server = await startServer(dataDir, { demoApiKey: 'oper0000000000000000000000000000000key01' });
  }, 30_000);
  afterAll(async () => {
    await stop(server.child);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('issues a token shown once that the operator API takes, lists it, and revokes it', async () => {
    // Act
    const issued = await adminAsync(dataDir, 'operator', 'token', 'issue', '--name', 'Night shift');
    const token = /Operator token (op_[a-z0-9]{40}) \(token id ([0-9A-Z]{26})\); it is shown only now/.exec(issued.stdout);
    const whoami = await adminCall(server.baseUrl, token?.[1] ?? '', 'operators/whoami');
    const listed = await adminAsync(dataDir, 'operator', 'token', 'list');
    const revoked = await adminAsync(dataDir, 'operator', 'token', 'revoke', token?.[2] ?? '');
    const afterRevoke = await adminCall(server.baseUrl, token?.[1] ?? '', 'operators/whoami');
    const again = await adminAsync(dataDir, 'operator', 'token', 'revoke', token?.[2] ?? '');

    // Assess
    expect(issued.status).toBe(0);
    expect(token).not.toBeNull();
    expect(whoami.json).toEqual({ data: { tokenId: token?.[2], name: 'Night shift' } });
    expect(listed.stdout).toMatch(new RegExp(`^${token?.[2]}\\top_${token?.[1]?.slice(3, 9)}…\\tactive\\t\\S+\\tNight shift$`, 'm'));
    expect(listed.stdout).not.toContain(token?.[1]);
    expect(revoked).toMatchObject({ status: 0, stdout: `Operator token ${token?.[2]} (Night shift) revoked\n` });
    expect(afterRevoke.status).toBe(401);
    expect(again.status).toBe(1);
    expect(again.stderr).toContain(`Error: Operator token ${token?.[2]} is already revoked`);
  }, 60_000);

  it('issues a token with --json for scripts (test/support/operators.ts)', async () => {
    // Act
    const { token, tokenId } = await issueOperatorToken(dataDir, 'Script');

    // Assess
    expect((await adminCall(server.baseUrl, token, 'operators/whoami')).json).toEqual({ data: { tokenId, name: 'Script' } });
  }, 60_000);

  it('refuses issue without --name and revoke of an unknown token', async () => {
    const noName = await adminAsync(dataDir, 'operator', 'token', 'issue');
    const unknown = await adminAsync(dataDir, 'operator', 'token', 'revoke', '01JUNKNOWN0000000000000000');
    expect([noName.status, unknown.status]).toEqual([1, 1]);
    expect(noName.stderr).toContain('Error: operator token issue needs --name');
    expect(unknown.stderr).toContain('Error: No operator token 01JUNKNOWN0000000000000000');
  }, 60_000);
});
