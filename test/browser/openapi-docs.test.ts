import { mkdirSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import qs from 'qs';
import type { WebFiles } from '../../web/build';
import { docsFiles } from '../../web/docs/files';
import { SECURITY_HEADERS } from '../../web/headers';
import { ensureChromium } from '../support/browser';
import { startService, type TestService } from '../support/local-service';

/**
 * The docs page in Chromium under the site's Content-Security-Policy: Swagger UI renders
 * the ten operations and the redirect from /openapi.json with no page or console error (a
 * CSP violation is one), and "Try it out" sends the bracket parameters the way the API's
 * own parser (qs) reads them, as a form body for POST and a query string for GET.
 * The files come from docsFiles() through a small server of this test's own.
 */

const ROOT = join(__dirname, '..', '..');

interface Sent {
  method: string;
  path: string;
  query: Record<string, unknown>;
  contentType: string | undefined;
  body: Record<string, unknown>;
}

/**
 * Serves `files` (a folder answers its index.html) and passes what reaches /service/ on to
 * the real API at `api`, recording it as the API's parser (qs) reads it.
 */
function serve(files: WebFiles, api: string, sent: Sent[]): Promise<Server> {
  const server = createServer(async (request: IncomingMessage, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (url.pathname.startsWith('/service/')) {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const body = Buffer.concat(chunks).toString();
      const contentType = request.headers['content-type'];
      sent.push({ method: request.method ?? '', path: url.pathname, query: qs.parse(url.search.slice(1)), contentType, body: qs.parse(body) });
      const answer = await fetch(`${api}${url.pathname}${url.search}`, {
        method: request.method,
        headers: contentType ? { 'content-type': contentType } : {},
        body: request.method === 'POST' ? body : undefined,
      });
      response.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'text/plain' }).end(await answer.text());
      return;
    }
    const file = files.get(url.pathname) ?? (url.pathname.endsWith('/') ? files.get(`${url.pathname}index.html`) : undefined);
    if (!file) return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': file.contentType, ...SECURITY_HEADERS }).end(file.body);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** Chromium from Debian (installed by the project's script when missing), headless, without the sandbox when root. */
async function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: ensureChromium(),
    headless: true,
    args: [...(process.getuid?.() === 0 ? ['--no-sandbox'] : []), '--disable-dev-shm-usage'],
  });
}

describe('the docs page', () => {
  let service: TestService;
  let key: string;
  let server: Server;
  let browser: Browser;
  let page: Page;
  const sent: Sent[] = [];
  const errors: string[] = [];

  beforeAll(async () => {
    service = await startService();
    key = (await service.account()).key;
    server = await serve(await docsFiles({ root: ROOT }), service.baseUrl, sent);
    browser = await launch();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(`console: ${message.text()}`);
    });
    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/docs/`);
    await page.locator('.opblock').first().waitFor();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
    await service?.close();
  });

  it('lists the ten operations, each with POST and GET, and the redirect with GET and HEAD', async () => {
    // Act
    const rows = await page
      .locator('.opblock-summary')
      .evaluateAll((elements) =>
        elements.map(
          (element) =>
            `${element.querySelector('.opblock-summary-method')?.textContent} ${element.querySelector('.opblock-summary-path')?.textContent}`,
        ),
      );

    // Assess
    const operations = ['Create', 'Delete', 'Get', 'GetLinks', 'GetStats', 'List', 'Update']
      .map((method) => `/service/Link/${method}`)
      .concat(['GetSMSStatus', 'List', 'SendSmsMessage'].map((method) => `/service/Message/${method}`));
    expect(rows.sort()).toEqual([...operations.flatMap((path) => [`GET ${path}`, `POST ${path}`]), 'GET /{code}', 'HEAD /{code}'].sort());
    expect(errors).toEqual([]);
    // For the README, like the console's pictures.
    if (process.env.SCREENSHOTS === '1') {
      mkdirSync(join(ROOT, 'docs', 'screenshots'), { recursive: true });
      await page.locator('#operations-tag-Link').scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(ROOT, 'docs', 'screenshots', 'openapi-docs.png') });
    }
  });

  // Swagger UI takes a few seconds per click on a busy machine.
  it('creates a link with Link/Create, sent as a form with the API key from Authorize', async () => {
    // Prepare
    await page.locator('.auth-wrapper .authorize').click();
    await page.locator('.modal-ux input[type=text]').fill(key);
    await page.locator('.modal-ux').getByRole('button', { name: 'Apply credentials' }).click();
    await page.locator('.modal-ux button.btn-done').click();
    const operation = page.locator('#operations-Link-linkCreate');
    await operation.locator('.opblock-summary').click();
    await operation.getByRole('button', { name: 'Try it out' }).click();
    await operation.locator('tr[data-property-name="data[fullLink]"] input[type=text]').fill('https://example.com/spring');
    await operation.locator('tr[data-property-name="data[comment]"] input[type=text]').fill('Spring sale');

    // Act
    await operation.getByRole('button', { name: 'Execute' }).click();
    await operation.locator('.responses-table.live-responses-table').waitFor();

    // Assess
    const request = sent.find(({ path }) => path === '/service/Link/Create')!;
    expect(request).toMatchObject({
      method: 'POST',
      query: { output: 'json', api: 'v1', apiKey: key },
      contentType: 'application/x-www-form-urlencoded',
    });
    // Swagger UI sends the fields left empty as `name=`, which the API reads as not given.
    expect(request.body).toEqual({ data: { fullLink: 'https://example.com/spring', comment: 'Spring sale', status: '', expirationDate: '' } });
    expect(await operation.locator('.live-responses-table').textContent()).toMatch(/"code":\s*0\b/);
    const { data } = await service.api('Link/List', key, { 'criteria[query]': 'Spring sale' });
    expect(data.items).toEqual([expect.objectContaining({ fullLink: 'https://example.com/spring', status: 1, expirationDate: null })]);
    expect(errors).toEqual([]);
  }, 60_000);

  it('sends Link/GetStats with GET as ids[] repeated and type in the query', async () => {
    // Prepare
    const operation = page.locator('#operations-Link-linkGetStatsGet');
    await operation.locator('.opblock-summary').click();
    await operation.getByRole('button', { name: 'Try it out' }).click();
    const ids = operation.locator('tr[data-param-name="ids[]"]');
    // The list starts with its example item.
    const items = ids.locator('input[type=text]');
    while ((await items.count()) < 2) await ids.getByRole('button', { name: /Add .*item/ }).click();
    await items.nth(0).fill('7');
    await items.nth(1).fill('9');
    await operation.locator('tr[data-param-name="type"] select').selectOption('hourly');

    // Act
    await operation.getByRole('button', { name: 'Execute' }).click();
    await operation.locator('.responses-table.live-responses-table').waitFor();

    // Assess
    const request = sent.find(({ path }) => path === '/service/Link/GetStats')!;
    expect(request).toMatchObject({ method: 'GET', query: { ids: ['7', '9'], type: 'hourly', output: 'json', api: 'v1' } });
    expect(errors).toEqual([]);
  }, 60_000);
});
