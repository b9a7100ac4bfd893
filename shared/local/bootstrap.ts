import type { Runtime } from '../runtime';

export interface DemoAccount {
  accountId: number;
  /** Set only when a key was issued by this start: it is never shown again. */
  issuedKey?: string;
}

/**
 * On the first start of a data directory: a demo account with one API key. With
 * DEMO_API_KEY the key is that fixed value, added to the demo account on any start that
 * does not know it yet, so scripts can rely on it.
 */
export async function ensureDemoAccount(rt: Runtime, demoApiKey: string | undefined): Promise<DemoAccount> {
  const { accounts, settings } = rt;
  let accountId = await settings.get('demo-account').then((value) => (value ? Number(value) : undefined));
  let issuedKey: string | undefined;
  if (accountId === undefined) {
    const account = await accounts.createAccount({ name: 'Demo' });
    // A price for every destination, so the demo account can send from the first start.
    await accounts.setPrice(account.id, '*', 0.05);
    if (!(await settings.claimOnce('demo-account', String(account.id)))) {
      // Another process bootstrapped the same table first; use its demo account.
      accountId = Number(await settings.get('demo-account'));
    } else {
      accountId = account.id;
      issuedKey = (await accounts.issueKey(accountId, demoApiKey)).key;
    }
  }
  if (demoApiKey && !issuedKey && !(await accounts.keyExists(demoApiKey))) {
    issuedKey = (await accounts.issueKey(accountId, demoApiKey)).key;
  }
  return { accountId, issuedKey };
}
