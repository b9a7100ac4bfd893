import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchBrowser, type TestBrowser, type WatchedPage } from '../support/browser';
import { eventually } from '../support/eventually';
import { callApi, startServer, stop } from '../support/serve-process';

/** The account's console in Chromium against `npm start` (bin/serve.ts) on a fresh data directory. */
const DEMO_KEY = 'demo0000000000000000000000000000000key01';
/** A visitor's browser: requests from bots are not counted as clicks. */
const VISITOR = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/150.0 Safari/537.36';

jest.setTimeout(60_000);

describe('account console', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'shortsms-console-'));
  let server: { child: ChildProcess; baseUrl: string };
  let browser: TestBrowser;
  let watched: WatchedPage;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(dataDir, { demoApiKey: DEMO_KEY, env: { SIMULATOR_LATENCY_MS: '20' } }), launchBrowser()]);
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

  /** Signs in with the demo key on /console/ and waits for the links page. */
  async function signIn() {
    const { page } = watched;
    await page.goto(`${server.baseUrl}/console/`);
    await page.getByLabel('API key').fill(DEMO_KEY);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Links', level: 1 }).waitFor();
  }

  /** Presses `button` until `check` holds: the page shows what the service had when it last asked. */
  async function refreshUntil(button: string, check: () => Promise<boolean>, failure: () => Promise<string>) {
    await eventually(
      async () => {
        if (await check()) return true;
        await watched.page.getByRole('button', { name: button, exact: true }).click();
        return false;
      },
      { timeoutMs: 20_000, intervalMs: 250, failure },
    );
  }

  it('creates a link, and its page shows the visit in its count and chart, with its QR code', async () => {
    // Prepare
    const { page } = watched;
    await signIn();

    // Act: create
    await page.getByLabel('Long URL').fill('https://example.com/spring-sale?utm=console');
    await page.getByLabel('Comment').fill('Spring campaign');
    await page.getByRole('button', { name: 'Shorten' }).click();
    const created = await page.getByRole('status').filter({ hasText: 'Created' }).textContent();
    const shortLink = /Created (\S+)/.exec(created ?? '')![1]!;
    const code = shortLink.split('/').at(-1)!;
    const row = page.getByRole('row').filter({ hasText: 'Spring campaign' });
    expect(await row.getByRole('cell').nth(2).textContent()).toBe('0');

    // Assess: its page, before any visit
    await row.getByRole('link', { name: code }).click();
    await page.getByRole('heading', { name: `Link ${code}` }).waitFor();
    const chart = page.getByRole('img', { name: /Chart of clicks and redirects/ });
    await chart.waitFor();
    expect(await chart.getAttribute('aria-label')).toContain('in total: clicks 0, redirects 0');
    const qr = page.getByRole('img', { name: `QR code of ${shortLink}` });
    expect(await qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml;charset=utf-8,%3Csvg/);

    // Act: a visitor follows the short link
    const visit = await fetch(shortLink, { redirect: 'manual', headers: { 'user-agent': VISITOR } });
    expect(visit.status).toBe(302);

    // Assess: the count and the chart move once the page refreshes
    const allTime = page.locator('.stat').filter({ hasText: 'Clicks, all time' }).locator('.stat-value');
    await refreshUntil(
      'Refresh',
      async () => (await allTime.textContent()) === '1' && (await chart.getAttribute('aria-label'))!.includes('in total: clicks 1, redirects 1'),
      async () => `count ${await allTime.textContent()}, chart ${await chart.getAttribute('aria-label')}`,
    );
    await watched.screenshot('link');
    await page.getByRole('button', { name: 'Show as a table' }).click();
    expect(await page.locator('#stats-table tbody tr').count()).toBe(1);
    await page.getByRole('button', { name: 'Hours' }).click();
    await page.getByRole('img', { name: /Chart of clicks and redirects by Hours, in total: clicks 1, redirects 1/ }).waitFor();
  });

  it('works from the keyboard alone: sign in, shorten a link, open its page', async () => {
    const { page } = watched;
    /** Presses Tab until the focused element is the one `label` names (at most 40 presses): it is reachable. */
    async function tabTo(label: string) {
      for (let presses = 0; presses < 40; presses++) {
        await page.keyboard.press('Tab');
        // The test's own TypeScript has no DOM types: the page runs this as a string.
        const focused = (await page.evaluate(`(() => {
          const element = document.activeElement;
          const label = element && element.id ? document.querySelector('label[for="' + element.id + '"]') : null;
          const name = label ? label.textContent : element ? element.getAttribute('aria-label') || element.textContent : '';
          return { name: (name || '').trim(), outline: element ? getComputedStyle(element).outlineStyle : 'none' };
        })()`)) as { name: string; outline: string };
        if (focused.name === label) {
          // What has the focus shows it.
          expect(focused.outline).not.toBe('none');
          return;
        }
      }
      throw new Error(`Tab never reached ${label}`);
    }
    await page.goto(`${server.baseUrl}/console/`);
    await tabTo('API key');
    await page.keyboard.type(DEMO_KEY);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Links', level: 1 }).waitFor();

    await tabTo('Long URL');
    await page.keyboard.type('https://example.com/keyboard-only');
    await page.keyboard.press('Enter');
    const created = await page.getByRole('status').filter({ hasText: 'Created' }).textContent();
    const code = /Created (\S+)/
      .exec(created ?? '')![1]!
      .split('/')
      .at(-1)!;

    await tabTo(code);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: `Link ${code}` }).waitFor();
  });

  it('shows the API’s reason when it refuses a link, and lists nothing new', async () => {
    // Prepare
    const { page } = watched;
    await signIn();
    const before = await callApi(server.baseUrl, DEMO_KEY, 'Link/List', {});

    // Act
    await page.getByLabel('Long URL').fill('javascript:alert(1)');
    await page.getByRole('button', { name: 'Shorten' }).click();

    // Assess
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('Links with the javascript: scheme are not allowed');
    expect((await callApi(server.baseUrl, DEMO_KEY, 'Link/List', {})).data.totalItemCount).toBe(before.data.totalItemCount);
  });

  it('edits a link (status, comment, expiration) and deletes it after confirming', async () => {
    // Prepare
    const { page } = watched;
    await signIn();
    await page.getByLabel('Long URL').fill('https://example.com/to-edit');
    await page.getByRole('button', { name: 'Shorten' }).click();
    const row = page.getByRole('row').filter({ hasText: 'https://example.com/to-edit' });
    const code = (await row.locator('a.code').textContent())!;

    // Act: edit
    await row.getByRole('button', { name: `Edit link ${code}` }).click();
    const dialog = page.getByRole('dialog', { name: `Edit link ${code}` });
    await dialog.getByLabel('Status').selectOption('0');
    await dialog.getByLabel('Comment').fill('Paused');
    await dialog.getByLabel('Last day of validity').fill('2099-12-31');
    await dialog.getByRole('button', { name: 'Save' }).click();

    // Assess
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    await row.filter({ hasText: 'Paused' }).filter({ hasText: 'Inactive' }).filter({ hasText: '2099-12-31' }).waitFor();

    // Act: search finds it by its comment, then delete it
    await page.getByLabel('Search').fill('paused');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: '1 link', exact: true }).waitFor();
    await row.getByRole('button', { name: `Delete ${code}` }).click();
    await page.getByRole('dialog', { name: 'Delete this link?' }).getByRole('button', { name: 'Delete' }).click();

    // Assess
    await page
      .getByRole('status')
      .filter({ hasText: `Link ${code} deleted.` })
      .waitFor();
    await page.getByText('Nothing matches.').waitFor();
  });

  it('sends an SMS, showing segments and encoding as the text is typed, and sees it DELIVRD', async () => {
    // Prepare
    const { page } = watched;
    await signIn();
    await page.getByRole('link', { name: 'Send SMS' }).click();
    await page.getByRole('heading', { name: 'Send an SMS' }).waitFor();
    const meter = page.locator('#send-meter');

    // Act / Assess: the counts follow the text (shared/domain/segments.ts)
    await page.getByLabel('Recipient', { exact: true }).fill('+447400123450');
    await page.getByLabel('Text', { exact: true }).fill('x'.repeat(161));
    expect(await meter.textContent()).toContain('Encoding: GSM-7');
    expect(await meter.textContent()).toContain('2 of 10 segments');
    await page.getByLabel('Text', { exact: true }).fill('Привет! Ваш заказ отправлен.');
    expect(await meter.textContent()).toContain('Encoding: UCS-2');
    expect(await meter.textContent()).toContain('1 of 10 segments');
    await page.getByLabel('Text', { exact: true }).fill('Your order has shipped: https://example.com/track/42');
    await page.getByLabel('Shorten the links in the text').check();
    await watched.screenshot('send');
    await page.getByRole('button', { name: 'Send', exact: true }).click();

    // Assess: the message goes out and is delivered
    await page.getByRole('status').filter({ hasText: 'Sent: message' }).waitFor();
    await page.getByRole('link', { name: 'Open the message' }).click();
    const status = page.locator('.status-big');
    await refreshUntil(
      'Refresh',
      async () => (await status.textContent()) === 'DELIVRD',
      async () => `status ${await status.textContent()}`,
    );
    // The text as the service keeps it: its link shortened to one of the account's.
    await page
      .locator('.message-text')
      .filter({ hasText: `Your order has shipped: ${server.baseUrl}/` })
      .waitFor();
    await watched.screenshot('message');

    // Assess: the list finds it by its status
    await page.getByRole('link', { name: 'Messages' }).click();
    await page.getByLabel('Status').selectOption('DELIVRD');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByRole('row').filter({ hasText: '447400123450' }).filter({ hasText: 'DELIVRD' }).first().waitFor();
    await watched.screenshot('messages');

    // Assess: a send-time range that excludes it finds nothing, and Reset brings it back
    await page.getByLabel('Sent from').fill('2099-01-01T00:00');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('Nothing matches.').waitFor();
    await page.getByRole('button', { name: 'Reset' }).click();
    await page.getByRole('row').filter({ hasText: '447400123450' }).first().waitFor();
  });

  /** Waits until the links table lists exactly these codes, in this order (a page shows the last answer it got). */
  async function shows(codes: string[]) {
    let listed: string[] = [];
    await eventually(
      async () => {
        listed = await watched.page.locator('tbody a.code').allTextContents();
        return JSON.stringify(listed) === JSON.stringify(codes);
      },
      { intervalMs: 100, failure: () => `listed ${listed.join(' ')}, expected ${codes.join(' ')}` },
    );
  }

  it('pages through the links the search finds and sorts them by code', async () => {
    // Prepare: 26 links, one more than a page holds
    const codes: string[] = [];
    for (let n = 0; n < 26; n++) {
      const created = await callApi(server.baseUrl, DEMO_KEY, 'Link/Create', {
        'data[fullLink]': `https://example.com/p/${n}`,
        'data[comment]': `batch ${n}`,
      });
      codes.push(created.data.code);
    }
    codes.sort();
    const { page } = watched;
    await signIn();

    // Act
    await page.getByLabel('Search').fill('batch');
    await page.getByLabel('Sort by').selectOption('code');
    await page.getByLabel('Order').selectOption('ASC');
    await page.getByRole('button', { name: 'Search', exact: true }).click();

    // Assess: the first page, then the second
    await page.getByRole('heading', { name: '26 links' }).waitFor();
    await page.getByText('Page 1 of 2').waitFor();
    await shows(codes.slice(0, 25));
    await watched.screenshot('links');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Page 2 of 2').waitFor();
    await shows(codes.slice(25));
  });

  it('speaks the browser’s language (Russian here), switches to English and remembers it', async () => {
    // Prepare: a Russian-speaking browser
    await watched.page.context().close();
    watched = await browser.newPage({ locale: 'ru-RU' });
    const { page } = watched;

    // Act / Assess
    await page.goto(`${server.baseUrl}/console/`);
    await page.getByRole('heading', { name: 'Вход в консоль' }).waitFor();
    await page.getByLabel('API-ключ').waitFor();
    expect(await page.getAttribute('html', 'lang')).toBe('ru');
    await page.getByRole('button', { name: 'EN' }).click();
    await page.getByLabel('API key').waitFor();
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    await page.reload();
    await page.getByRole('heading', { name: 'Sign in to the console' }).waitFor();
  });
});
