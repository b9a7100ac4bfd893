/**
 * Every key format of the single table, built from labelled segments. Items carry
 * generic key attributes (pk, sk, gsi1pk, gsi1sk) and an `entity` attribute.
 *
 * | entity  | pk                 | sk        | gsi1pk                      | gsi1sk              |
 * |---------|--------------------|-----------|-----------------------------|---------------------|
 * | Account | ACCOUNT#<id>       | #ACCOUNT  | ACCOUNTS                    | <id, padded>        |
 * | ApiKey  | APIKEY#<sha256>    | #APIKEY   | ACCOUNT#<id>#APIKEYS        | <keyId>             |
 * | Link    | LINK#<id>          | #LINK     | ACCOUNT#<id>#LINKS          | <createdAt>#<id>    |
 * | Counter | COUNTER#<name>     | #COUNTER  |                             |                     |
 * | Setting | SETTING#<name>     | #SETTING  |                             |                     |
 */

export const GSI1 = 'gsi1';

export type Key = { pk: string; sk: string };

const pad = (id: number) => String(id).padStart(15, '0');

export const keys = {
  account: (id: number): Key => ({ pk: `ACCOUNT#${id}`, sk: '#ACCOUNT' }),
  accountsIndex: (id: number) => ({ gsi1pk: 'ACCOUNTS', gsi1sk: pad(id) }),
  allAccounts: () => 'ACCOUNTS',

  apiKey: (hash: string): Key => ({ pk: `APIKEY#${hash}`, sk: '#APIKEY' }),
  apiKeyIndex: (accountId: number, keyId: string) => ({ gsi1pk: accountApiKeys(accountId), gsi1sk: keyId }),
  accountApiKeys,

  link: (id: number): Key => ({ pk: `LINK#${id}`, sk: '#LINK' }),
  linkIndex: (accountId: number, createdAt: string, id: number) => ({
    gsi1pk: accountLinks(accountId),
    gsi1sk: `${createdAt}#${pad(id)}`,
  }),
  accountLinks,

  counter: (name: string): Key => ({ pk: `COUNTER#${name}`, sk: '#COUNTER' }),
  setting: (name: string): Key => ({ pk: `SETTING#${name}`, sk: '#SETTING' }),
};

function accountApiKeys(accountId: number): string {
  return `ACCOUNT#${accountId}#APIKEYS`;
}

function accountLinks(accountId: number): string {
  return `ACCOUNT#${accountId}#LINKS`;
}
