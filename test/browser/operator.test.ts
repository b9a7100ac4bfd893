import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchBrowser, type TestBrowser, type WatchedPage } from '../support/browser';
import { eventually } from '../support/eventually';
import { issueOperatorToken } from '../support/operators';
import { callApi, startServer, stop } from '../support/serve-process';

/** The operator's console in Chromium against `npm start` (bin/serve.ts) on a fresh data directory. */
const DEMO_KEY = 'demo0000000000000000000000000000000key01';
// The simulator gateway delivers every number; this one is a UK mobile.
const SIMULATOR_NUMBER = '447400123450';

jest.setTimeout(60_000);

describe('operator console', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'shortsms-operator-console-'));
  let server: { child: ChildProcess; baseUrl: string };
  let browser: TestBrowser;
  let watched: WatchedPage;
  let token: string;

  beforeAll(async () => {
    // Without the API's key cache (AUTH_CACHE_TTL_MS, 5 s by default) a send follows a
    // moderation change at once, rather than within the cache's few seconds.
    const env = { SIMULATOR_LATENCY_MS: '20', AUTH_CACHE_TTL_MS: '0' };
    [server, browser] = await Promise.all([startServer(dataDir, { demoApiKey: DEMO_KEY, env }), launchBrowser()]);
    ({ token } = await issueOperatorToken(dataDir, 'Moderator'));
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

  const api = (path: string, fields: Record<string, string>) => callApi(server.baseUrl, DEMO_KEY, path, fields);
  const statusOf = async (messageId: number) => (await api('Message/GetSMSStatus', { ids: String(messageId) })).data[0]?.status as string | undefined;

  async function signIn() {
    const { page } = watched;
    await page.goto(`${server.baseUrl}/console/`);
    await page.getByRole('tab', { name: 'Operator' }).click();
    await page.getByLabel('Operator token').fill(token);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Accounts', level: 1 }).waitFor();
  }

  /** The demo account's page, from the accounts list. */
  async function openDemoAccount() {
    const { page } = watched;
    await page.getByRole('link', { name: 'Demo', exact: true }).click();
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
  }

  it('refuses an account API key as an operator token, saying so, and keeps nothing', async () => {
    // Prepare
    const { page } = watched;
    await page.goto(`${server.baseUrl}/console/`);
    await page.getByRole('tab', { name: 'Operator' }).click();
    watched.allowConsoleError(/401/);

    // Act
    await page.getByLabel('Operator token').fill(DEMO_KEY);
    await page.getByRole('button', { name: 'Sign in' }).click();

    // Assess
    await page.getByRole('alert').getByText('An account API key is not an operator token').waitFor();
    expect(await page.getByRole('alert').textContent()).toContain('This operator token is not valid');
    expect(await page.evaluate('sessionStorage.length')).toBe(0);
  });

  it('signs in with the token (never in the URL), lists the accounts and issues a key that works, shown once', async () => {
    // Prepare
    const { page } = watched;
    await signIn();
    expect(page.url()).not.toContain(token);
    expect(await page.evaluate('JSON.stringify(localStorage)')).not.toContain(token);
    await page.getByText('Operator · Moderator').waitFor();
    await watched.screenshot('operator-accounts');
    await openDemoAccount();

    // Act
    await page.getByRole('button', { name: 'Issue a key' }).click();
    const issued = await page.getByLabel('New API key').inputValue();

    // Assess: the key is the account's, and the page forgets it once it was copied
    expect((await callApi(server.baseUrl, issued, 'Link/List', {})).code).toBe(0);
    await watched.screenshot('operator-account');
    await page.getByRole('button', { name: 'I have copied it' }).click();
    expect(await page.getByLabel('New API key').count()).toBe(0);
    expect(await page.content()).not.toContain(issued);
  });

  it('finds a link by its short link and blocks it with a comment: its redirect answers 451, and the audit log says who did it', async () => {
    // Prepare
    const { page } = watched;
    const link = (await api('Link/Create', { 'data[fullLink]': 'https://example.com/phishing' })).data as { code: string; shortLink: string };
    expect((await fetch(`${server.baseUrl}/${link.code}`, { redirect: 'manual' })).status).toBe(302);
    await signIn();
    await page.getByRole('link', { name: 'Moderation' }).click();

    // Act
    await page.getByLabel('Short link').fill(link.shortLink);
    await page.getByRole('button', { name: 'Find' }).click();
    await page.getByRole('button', { name: `Block ${link.code}` }).click();
    const dialog = page.getByRole('dialog', { name: `Block ${link.shortLink}` });
    await dialog.getByLabel('Moderator’s comment').fill('Phishing');
    await dialog.getByRole('button', { name: 'Block link' }).click();

    // Assess
    await page.getByRole('row').filter({ hasText: link.shortLink }).filter({ hasText: 'Blocked' }).filter({ hasText: 'Phishing' }).waitFor();
    expect((await fetch(`${server.baseUrl}/${link.code}`, { redirect: 'manual' })).status).toBe(451);
    await watched.screenshot('operator-moderation');
    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('row').filter({ hasText: 'links/block' }).filter({ hasText: 'Moderator' }).filter({ hasText: 'Phishing' }).waitFor();
    await watched.screenshot('operator-audit');
  });

  it('holds the campaigns of an account under moderation: one approved goes out (DELIVRD), one declined is REJECTD', async () => {
    // Prepare: the account's campaigns wait for an operator from now on
    const { page } = watched;
    await signIn();
    await openDemoAccount();
    const status = page.getByRole('region', { name: 'Status and moderation' });
    await status.getByLabel('Moderation of campaigns').selectOption('all');
    await status.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Moderation policy saved' }).waitFor();
    const send = async (text: string) => {
      const sent = await api('Message/SendSmsMessage', { recipient: SIMULATOR_NUMBER, text });
      expect(sent).toMatchObject({ code: 0, data: { status: 1 } });
      return sent.data as { campaignId: number; messageId: number };
    };
    const approved = await send('Approve me: spring sale');
    const declined = await send('Decline me: too good to be true');
    await page.getByRole('link', { name: 'Moderation' }).click();
    await page.getByRole('row').filter({ hasText: 'Decline me: too good to be true' }).waitFor();
    expect(await statusOf(approved.messageId)).not.toBe('DELIVRD');
    await watched.screenshot('operator-campaigns');

    // Act
    await page.getByRole('button', { name: `Approve campaign ${approved.campaignId} and send it` }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Campaign ${approved.campaignId} approved` })
      .waitFor();
    await page.getByRole('button', { name: `Decline campaign ${declined.campaignId}` }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Campaign ${declined.campaignId} declined` })
      .waitFor();

    // Assess
    await eventually(async () => (await statusOf(approved.messageId)) === 'DELIVRD', {
      failure: async () => `message ${approved.messageId} is ${await statusOf(approved.messageId)}`,
    });
    expect(await statusOf(declined.messageId)).toBe('REJECTD');
    await page.getByText('No campaign is waiting.').waitFor();
    await page.getByRole('link', { name: 'Ambiguous messages' }).click();
    await page.getByLabel('Message ID').fill(String(declined.messageId));
    await page.getByRole('button', { name: 'Find' }).click();
    await page.getByRole('row').filter({ hasText: SIMULATOR_NUMBER }).filter({ hasText: 'REJECTD' }).waitFor();
  });
});
