import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LocalService } from '../../shared/local/runtime';
import { callApi, startServer, stop } from '../support/serve-process';

/**
 * Kill test of the click path with real processes: redirect load over many codes against
 * the service (bin/serve.ts), SIGKILL in the middle of it, a restart on the same data
 * directory. Once the click queue has delivered what its journal kept, the counts hold
 * all but the clicks of the last group-commit window (at least 99 % of the redirects
 * answered), and no link holds more than it was answered: a click delivered again after
 * the restart is recognised, not counted twice.
 */
const DEMO_KEY = 'crash000000000000000000000000000000key03';
const CODES = 1000;
/**
 * Redirects answered before the kill. What a kill may lose is the last commit window's
 * clicks (20 ms), so the share lost depends on how long the load ran: at 1,500 redirects a
 * second, 3,000 answered are two seconds of load and the window 30 clicks, 1 %. 10,000 make
 * the window about 0.3 % at that rate (a minute of load makes it 0.03 %).
 */
const ANSWERED_BEFORE_KILL = 10_000;
const CONNECTIONS = 16;
const BROWSER = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';

describe('click counts when the service is killed under redirect load', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'shortsms-click-crash-'));
  const children: ChildProcess[] = [];
  let local: LocalService | undefined;

  afterAll(async () => {
    await Promise.all(children.map((child) => stop(child, 'SIGKILL')));
    await local?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const api = (baseUrl: string, path: string, fields: Record<string, string>) => callApi(baseUrl, DEMO_KEY, path, fields);

  it('counts at least 99 % of the redirects answered before a kill -9, and never more than answered', async () => {
    // Prepare: the links, made through the API.
    const server = await startServer(dataDir, { demoApiKey: DEMO_KEY, env: { API_RATE_LIMIT: '0' } });
    children.push(server.child);
    const codes: string[] = [];
    for (let i = 0; i < CODES; i += CONNECTIONS) {
      const made = await Promise.all(
        Array.from({ length: Math.min(CONNECTIONS, CODES - i) }, (_, j) =>
          api(server.baseUrl, 'Link/Create', { 'data[fullLink]': `https://example.com/${i + j}` }),
        ),
      );
      for (const link of made) {
        expect(link.code).toBe(0);
        codes.push(link.data.code);
      }
    }

    // Act: redirects over every code from many connections, and the kill once enough are answered.
    const answered = new Map<string, number>();
    let total = 0;
    let killed: Promise<number | null> | undefined;
    const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
    const visit = (code: string) =>
      new Promise<number>((resolve, reject) => {
        const req = request(`${server.baseUrl}/${code}`, { agent, headers: { 'user-agent': BROWSER } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.once('error', reject);
        req.end();
      });
    const load = async (connection: number) => {
      for (let i = connection; ; i += CONNECTIONS) {
        const code = codes[(i * 7919) % CODES]!;
        let status: number;
        try {
          status = await visit(code);
        } catch {
          return; // the service is gone
        }
        expect(status).toBe(302);
        answered.set(code, (answered.get(code) ?? 0) + 1);
        if (++total >= ANSWERED_BEFORE_KILL) killed ??= stop(server.child, 'SIGKILL');
      }
    };
    await Promise.all(Array.from({ length: CONNECTIONS }, (_, connection) => load(connection)));
    await killed;
    agent.destroy();
    expect(total).toBeGreaterThanOrEqual(ANSWERED_BEFORE_KILL);

    // Back up on the same data directory, in this process so the queues can be drained.
    process.env.API_RATE_LIMIT = '0';
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
    const { startLocal } = await import('../../shared/local/runtime');
    local = await startLocal({ port: 0, dataDir, demoApiKey: DEMO_KEY });
    await local.queues.drain();

    // Assess
    const counted = new Map<string, number>();
    for (let page = 0; counted.size < CODES; page++) {
      const listed = await api(local.baseUrl, 'Link/List', { 'pagination[pageSize]': '100', 'pagination[currentPage]': String(page) });
      expect(listed.code).toBe(0);
      if (listed.data.items.length === 0) break;
      for (const link of listed.data.items as { code: string; clickCnt: number }[]) counted.set(link.code, link.clickCnt);
    }
    expect(counted.size).toBe(CODES);
    const overCounted = codes.filter((code) => counted.get(code)! > (answered.get(code) ?? 0));
    expect(overCounted.map((code) => `${code}: ${counted.get(code)} counted, ${answered.get(code) ?? 0} answered`)).toEqual([]);
    const sum = [...counted.values()].reduce((a, b) => a + b, 0);
    expect({ answered: total, counted: sum, share: sum / total >= 0.99 }).toEqual({ answered: total, counted: sum, share: true });
    expect(local.queues.queues.clicks.depth).toBe(0);
  }, 420_000); // making the links and counting the clicks take most of it
});
