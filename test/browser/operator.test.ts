import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchBrowser, type TestBrowser, type WatchedPage } from '../support/browser';
import { eventually } from '../support/eventually';
import { adminCall, issueOperatorToken } from '../support/operators';
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

  async function signIn(labels = { tab: 'Operator', token: 'Operator token', heading: 'Accounts' }) {
    const { page } = watched;
    await page.goto(`${server.baseUrl}/console/`);
    await page.getByRole('tab', { name: labels.tab }).click();
    await page.getByLabel(labels.token).fill(token);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: labels.heading, level: 1 }).waitFor();
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
    // An approval schedules the campaign for now; the local server's sweeper, every 20 s, sends it.
    await eventually(async () => (await statusOf(approved.messageId)) === 'DELIVRD', {
      timeoutMs: 45_000,
      intervalMs: 250,
      failure: async () => `message ${approved.messageId} is ${await statusOf(approved.messageId)}`,
    });
    expect(await statusOf(declined.messageId)).toBe('REJECTD');
    await page.getByText('No campaign is waiting.').waitFor();
    await page.getByRole('link', { name: 'Ambiguous messages' }).click();
    await page.getByLabel('Message ID').fill(String(declined.messageId));
    await page.getByRole('button', { name: 'Find' }).click();
    await page.getByRole('row').filter({ hasText: SIMULATOR_NUMBER }).filter({ hasText: 'REJECTD' }).waitFor();
  });

  it('creates an account and sets it up: time zone, rate limit, a signature approved as the default, a price and a webhook', async () => {
    // Prepare
    const { page } = watched;
    await signIn();

    // Act: every change through the page's forms, each confirmed before the next
    await page.getByLabel('Name').fill('Acme Retail');
    await page.getByLabel('Time zone').fill('Asia/Almaty');
    await page.getByLabel('Currency').fill('KZT');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: /^Acme Retail \(account \d+\)$/ }).waitFor();
    const accountId = Number(/accounts\/(\d+)$/.exec(page.url())?.[1]);
    const settings = page.getByRole('region', { name: 'Settings' });
    await settings.getByLabel('Rate limit').selectOption('custom');
    await settings.getByLabel('Requests per second').fill('7');
    await settings.getByRole('button', { name: 'Save' }).click();
    await settings.getByRole('status').filter({ hasText: 'Settings saved.' }).waitFor();
    const signatures = page.getByRole('region', { name: 'Sender signatures' });
    await signatures.getByLabel('New signature').fill('ACME');
    await signatures.getByRole('button', { name: 'Add' }).click();
    await signatures.getByRole('button', { name: 'Approve ACME' }).click();
    await signatures.getByRole('button', { name: 'Make ACME the default' }).click();
    await signatures.getByText('Default', { exact: true }).waitFor();
    const prices = page.getByRole('region', { name: 'Prices (KZT)' });
    await prices.getByLabel('Country').fill('kz');
    await prices.getByLabel('Price of a segment').fill('12,5');
    await prices.getByRole('button', { name: 'Set price' }).click();
    await prices.getByRole('status').filter({ hasText: 'Price for KZ set.' }).waitFor();
    const webhooks = page.getByRole('region', { name: 'Webhooks' });
    await webhooks.getByLabel('URL').fill('https://hooks.example.com/acme');
    await webhooks.getByRole('button', { name: 'Add webhook' }).click();
    const secret = await webhooks.getByLabel('Webhook secret').inputValue();
    await webhooks.getByRole('cell', { name: 'https://hooks.example.com/acme', exact: true }).waitFor();

    // Assess: the operator API has it all as set
    const account = (await adminCall(server.baseUrl, token, 'accounts/get', { query: { id: String(accountId) } })).json?.data;
    expect(account).toMatchObject({
      name: 'Acme Retail',
      timeZone: 'Asia/Almaty',
      currency: 'KZT',
      rateLimit: 7,
      sending: { signatures: { ACME: { approved: true } }, defaultSignature: 'ACME', tariff: { KZ: 12.5 } },
    });
    const hooks = (await adminCall(server.baseUrl, token, 'webhooks/list', { query: { accountId: String(accountId) } })).json?.data;
    expect(hooks).toEqual([expect.objectContaining({ url: 'https://hooks.example.com/acme' })]);
    expect(secret.length).toBeGreaterThan(0);
  });

  it('tells a refused change plainly and keeps the form as it was', async () => {
    // Prepare
    const { page } = watched;
    await signIn();
    await openDemoAccount();
    const settings = page.getByRole('region', { name: 'Settings' });
    watched.allowConsoleError(/400/);

    // Act
    await settings.getByLabel('Time zone').fill('Mars/Olympus');
    await settings.getByRole('button', { name: 'Save' }).click();

    // Assess
    await settings.getByRole('alert').filter({ hasText: 'Not done:' }).filter({ hasText: 'time zone' }).waitFor();
    expect(await settings.getByLabel('Time zone').inputValue()).toBe('Mars/Olympus');
    const account = (await adminCall(server.baseUrl, token, 'accounts/get', { query: { id: '1' } })).json?.data;
    expect(account.timeZone).not.toBe('Mars/Olympus');
  });

  it('speaks Russian to a Russian browser', async () => {
    // Prepare
    await watched.page.context().close();
    watched = await browser.newPage({ locale: 'ru-RU' });

    // Act
    await signIn({ tab: 'Оператор', token: 'Токен оператора', heading: 'Аккаунты' });

    // Assess
    await watched.page.getByRole('link', { name: 'Модерация' }).click();
    await watched.page.getByRole('heading', { name: 'Рассылки, ждущие одобрения' }).waitFor();
    expect(await watched.page.evaluate('document.documentElement.lang')).toBe('ru');
  });
});
