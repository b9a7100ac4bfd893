import { campaignById } from '../../shared/admin/campaigns';
import { messageById } from '../../shared/admin/messages';
import { adminServices } from '../../shared/admin/services';
import { addWebhook, listWebhooks } from '../../shared/admin/webhooks';
import { AppError } from '../../shared/domain/errors';
import type { Runtime } from '../../shared/runtime';
import { describeRateLimit, describeSignatures, describeTariff, rateLimitOption } from './describe';
import { type Options, UsageError } from './usage';

/** Runs one command of the CLI against the store and prints its outcome. */
export async function run(rt: Runtime, values: Options, group: string, command: string, args: string[]): Promise<void> {
  const id = (position: number, what: string) => {
    const value = args[position];
    if (!value || !/^\d+$/.test(value)) throw new AppError('invalid', `Expected ${what} (a number)`);
    return Number(value);
  };
  const print = (human: string, data: unknown) => console.log(values.json ? JSON.stringify(data, null, 2) : human);
  const settings = () => ({ name: values.name, timeZone: values['time-zone'], currency: values.currency?.toUpperCase() });

  switch (`${group} ${command}`) {
    case 'account create': {
      if (!values.name) throw new AppError('invalid', 'account create needs --name');
      const account = await rt.accounts.createAccount({ ...settings(), name: values.name });
      return print(`Account ${account.id} created (${account.timeZone}, ${account.currency})`, account);
    }
    case 'account list': {
      const accounts = await rt.accounts.listAccounts();
      const lines = accounts.map((a) => `${a.id}\t${a.status}\t${a.timeZone}\t${a.currency}\t${describeRateLimit(a.rateLimit)}\t${a.name}`);
      return print(lines.join('\n') || 'No accounts', accounts);
    }
    case 'account show': {
      const account = await rt.accounts.getAccount(id(0, 'an account id'));
      return print(JSON.stringify(account, null, 2), account);
    }
    case 'account update': {
      const account = await rt.accounts.updateAccount(id(0, 'an account id'), { ...settings(), rateLimit: rateLimitOption(values['rate-limit']) });
      return print(`Account ${account.id} updated (rate limit: ${describeRateLimit(account.rateLimit)})`, account);
    }
    case 'account block':
    case 'account unblock': {
      const account = await rt.accounts.updateAccount(id(0, 'an account id'), { status: command === 'block' ? 'blocked' : 'active' });
      return print(`Account ${account.id} is ${account.status}`, account);
    }
    case 'key issue': {
      const { key, apiKey } = await rt.accounts.issueKey(id(0, 'an account id'));
      return print(`API key ${key} (key id ${apiKey.keyId}); it is shown only now`, { ...apiKey, key });
    }
    case 'key list': {
      const keys = await rt.accounts.listKeys(id(0, 'an account id'));
      return print(
        keys.map((k) => `${k.keyId}\t${k.prefix}…\t${k.revokedAt ? `revoked ${k.revokedAt}` : 'active'}\t${k.createdAt}`).join('\n') || 'No keys',
        keys,
      );
    }
    case 'key revoke': {
      const keyId = args[1];
      if (!keyId) throw new AppError('invalid', 'key revoke needs ACCOUNT_ID KEY_ID');
      await rt.accounts.revokeKey(id(0, 'an account id'), keyId);
      return print(`Key ${keyId} revoked`, { keyId, revoked: true });
    }
    case 'operator token': {
      const { operators } = adminServices(rt);
      const [action, tokenId] = args;
      if (action === 'issue') {
        if (!values.name) throw new AppError('invalid', 'operator token issue needs --name');
        const { token, operatorToken } = await operators.issue(values.name);
        return print(`Operator token ${token} (token id ${operatorToken.tokenId}); it is shown only now`, { ...operatorToken, token });
      }
      if (action === 'list') {
        const tokens = await operators.list();
        const lines = tokens.map(
          (t) => `${t.tokenId}\top_${t.prefix}…\t${t.revokedAt ? `revoked ${t.revokedAt}` : 'active'}\t${t.createdAt}\t${t.name}`,
        );
        return print(lines.join('\n') || 'No operator tokens', tokens);
      }
      if (action === 'revoke' && tokenId) {
        const revoked = await operators.revoke(tokenId);
        return print(`Operator token ${revoked.tokenId} (${revoked.name}) revoked`, revoked);
      }
      throw new UsageError(`Unknown command: operator token ${args.join(' ')}`.trim());
    }
    case 'link block':
    case 'link approve': {
      const link = await rt.links.moderate(id(0, 'a link id'), command === 'block' ? 0 : 1, values.comment ?? null);
      return print(`Link ${link.id} is ${link.moderatorStatus === 0 ? 'blocked' : 'approved'}`, link);
    }
    case 'signature add':
    case 'signature approve':
    case 'signature default': {
      const name = args[1];
      if (!name) throw new AppError('invalid', `signature ${command} needs ACCOUNT_ID NAME`);
      const accountId = id(0, 'an account id');
      const account =
        command === 'add'
          ? await rt.accounts.addSignature(accountId, name)
          : command === 'approve'
            ? await rt.accounts.approveSignature(accountId, name)
            : await rt.accounts.setDefaultSignature(accountId, name === '-' ? null : name);
      return print(`Signatures of account ${account.id}: ${describeSignatures(account.sending)}`, account.sending);
    }
    case 'signature list': {
      const { sending } = await rt.accounts.getAccount(id(0, 'an account id'));
      return print(describeSignatures(sending), sending);
    }
    case 'tariff set': {
      const [, country, price] = args;
      if (!country || price === undefined) throw new AppError('invalid', 'tariff set needs ACCOUNT_ID COUNTRY|* PRICE|-');
      const value = price === '-' ? null : Number(price);
      const account = await rt.accounts.setPrice(id(0, 'an account id'), country, value === null || Number.isFinite(value) ? value : NaN);
      return print(`Tariff of account ${account.id} (${account.currency}): ${describeTariff(account.sending.tariff)}`, account.sending.tariff);
    }
    case 'tariff show': {
      const account = await rt.accounts.getAccount(id(0, 'an account id'));
      return print(`${account.currency}: ${describeTariff(account.sending.tariff)}`, account.sending.tariff);
    }
    case 'moderation set': {
      const account = await rt.accounts.setModeration(id(0, 'an account id'), args[1] as 'none' | 'all');
      return print(`Moderation of account ${account.id}: ${account.sending.moderation}`, { moderation: account.sending.moderation });
    }
    case 'campaign approve':
    case 'campaign decline': {
      const campaignId = id(0, 'a campaign id');
      const campaign = command === 'approve' ? await rt.moderation.approve(campaignId) : await rt.moderation.decline(campaignId);
      return print(`Campaign ${campaign.id} is ${campaign.status}`, campaign);
    }
    case 'message show': {
      const message = await messageById(rt, id(0, 'a message id'));
      return print(JSON.stringify(message, null, 2), message);
    }
    case 'message ambiguous': {
      const messages = await rt.messageStore.listAmbiguous();
      const lines = messages.map(
        (m) => `${m.id}\tcampaign ${m.campaignId}\tto ${m.to}\t${m.status}\tclaimed ${m.statusUpdatedAt ?? m.createdAt}\t${m.submitProblem ?? ''}`,
      );
      return print(lines.length ? lines.join('\n') : 'No ambiguous messages', messages);
    }
    case 'webhook add': {
      const accountId = id(0, 'an account id');
      if (!args[1]) throw new AppError('invalid', 'webhook add needs ACCOUNT_ID URL [SECRET]');
      const webhook = await addWebhook(rt, accountId, args[1], args[2]);
      return print(
        `Webhook ${webhook.id} of account ${accountId}: ${webhook.url}\nSecret (events are signed with it; shown once): ${webhook.secret}`,
        webhook,
      );
    }
    case 'webhook list': {
      const listed = await listWebhooks(rt, id(0, 'an account id'));
      return print(listed.length ? listed.map((w) => `${w.id}\t${w.url}\tsince ${w.createdAt}`).join('\n') : 'No webhooks', listed);
    }
    case 'webhook remove': {
      const accountId = id(0, 'an account id');
      if (!args[1]) throw new AppError('invalid', 'webhook remove needs ACCOUNT_ID WEBHOOK_ID');
      await rt.webhooks.remove(accountId, args[1]);
      return print(`Webhook ${args[1]} removed`, { removed: args[1] });
    }
    case 'campaign show': {
      const campaign = await campaignById(rt, id(0, 'a campaign id'));
      return print(JSON.stringify(campaign, null, 2), campaign);
    }
    case 'rollups copy': {
      if (values.restart) await rt.rollups.restart();
      const days = await rt.rollups.run();
      return print(`Copied ${days} settled days onto their month items`, { days });
    }
    default:
      throw new UsageError(`Unknown command: ${group} ${command}`);
  }
}
