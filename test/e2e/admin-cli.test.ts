import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { admin } from '../support/serve-process';

/** The admin CLI (bin/admin.ts) as a process: a command line it does not understand. */
describe('admin CLI (bin/admin.ts)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'shortsms-admin-'));

  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it.each([
    ['an unknown option', ['account', 'list', '--frobnicate'], "Unknown option '--frobnicate'"],
    ['an option without its value', ['account', 'create', '--name'], "Option '--name <value>' argument missing"],
    ['an unknown command', ['account', 'frobnicate'], 'Unknown command: account frobnicate'],
  ])('prints the usage and exits 2 on %s', (_case, args, message) => {
    // Act
    const result = admin(dataDir, ...args);

    // Assess
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(`Error: ${message}`);
    expect(result.stderr).toContain('Usage: npm run admin -- <command> [options]');
    expect(result.stderr).not.toMatch(/^\s+at /m);
  });
});
