import * as v from 'valibot';
import type { AccountService } from '../domain/account-service';
import type { Webhook, WebhookService } from '../domain/webhooks';
import { MAX_WEBHOOK_SECRET_LENGTH, MAX_WEBHOOK_URL_LENGTH } from '../domain/webhooks';
import { adminOperation, entityIdField, textField } from './operation';

export interface WebhooksDeps {
  accounts: Pick<AccountService, 'getAccount'>;
  webhooks: Pick<WebhookService, 'register' | 'list' | 'remove'>;
}

/** The account's webhooks without their secrets (the CLI's `webhook list` too). */
export async function listWebhooks(deps: WebhooksDeps, accountId: number): Promise<Omit<Webhook, 'secret'>[]> {
  return (await deps.webhooks.list(accountId)).map(({ secret: _secret, ...webhook }) => webhook);
}

/** Registers a webhook for an existing account; the answer holds its secret, the only time (the CLI's `webhook add` too). */
export async function addWebhook(deps: WebhooksDeps, accountId: number, url: string, secret?: string): Promise<Webhook> {
  await deps.accounts.getAccount(accountId);
  return deps.webhooks.register(accountId, url, secret);
}

const accountId = entityIdField('accountId');

export const webhooksList = adminOperation({
  path: 'webhooks/list',
  input: v.strictObject({ accountId }),
  run: ({ accountId }, deps: WebhooksDeps) => listWebhooks(deps, accountId),
});

export const webhooksAdd = adminOperation({
  path: 'webhooks/add',
  input: v.strictObject({
    accountId,
    url: textField('url', MAX_WEBHOOK_URL_LENGTH),
    secret: v.optional(
      v.pipe(v.string('secret must be text'), v.maxLength(MAX_WEBHOOK_SECRET_LENGTH, `secret is at most ${MAX_WEBHOOK_SECRET_LENGTH} characters`)),
    ),
  }),
  run: ({ accountId, url, secret }, deps: WebhooksDeps) => addWebhook(deps, accountId, url, secret),
  target: ({ accountId }, webhook) => ({ accountId, ...(webhook && { webhookId: webhook.id }) }),
  secrets: ['secret'],
});

export const webhooksRemove = adminOperation({
  path: 'webhooks/remove',
  input: v.strictObject({ accountId, webhookId: textField('webhookId', 64) }),
  run: async ({ accountId, webhookId }, { webhooks }: WebhooksDeps) => {
    await webhooks.remove(accountId, webhookId);
    return { removed: webhookId };
  },
});
