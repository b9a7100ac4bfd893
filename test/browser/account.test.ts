import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchBrowser, type TestBrowser, type WatchedPage } from '../support/browser';
import { startServer, stop } from '../support/serve-process';

/** The account's console in Chromium against `npm start` (bin/serve.ts) on a fresh data directory. */
const DEMO_KEY = 'demo0000000000000000000000000000000key01';

jest.setTimeout(60_000);

describe('account console', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'shortsms-console-'));
  let server: { child: ChildProcess; baseUrl: string };
  let browser: TestBrowser;
  let watched: WatchedPage;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(dataDir, { demoApiKey: DEMO_KEY }), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    if (server) await stop(server.child);
    rmSync(dataDir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    watched = await browser.newPage();
  });
  afterEach(async () => {
    // No page error and no console error (CSP violations included) in any flow.
    expect(watched.errors).toEqual([]);
    await watched.page.context().close();
  });

  it('tells a wrong API key clearly and keeps the user on the sign-in page', async () => {
    const { page } = watched;
    await page.goto(`${server.baseUrl}/console/`);
    await watched.screenshot('sign-in');
    await page.getByLabel('API key').fill('wrong000000000000000000000000000000key01');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').getByText('This API key is not valid').waitFor();
    expect(await page.evaluate('sessionStorage.length')).toBe(0);
  });

  it('signs in with the API key, keeps it in sessionStorage only, and signs out', async () => {
    const { page } = watched;
    await page.goto(`${server.baseUrl}/console/`);
    await page.getByLabel('API key').fill(DEMO_KEY);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Links', level: 1 }).waitFor();
    expect(page.url()).not.toContain(DEMO_KEY);
    expect(await page.evaluate('JSON.stringify(sessionStorage)')).toContain(DEMO_KEY);
    expect(await page.evaluate('JSON.stringify(localStorage)')).not.toContain(DEMO_KEY);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('API key').waitFor();
    expect(await page.evaluate('sessionStorage.length')).toBe(0);
  });
});
