import type { Account } from './accounts';
import type { Message } from './messages';

/** Messages read by id, any account's; the messages repository is one. */
export interface MessagesById {
  getMany(ids: number[]): Promise<Message[]>;
}

/**
 * The account's messages among `ids`, in the order asked and each once. Ids no message
 * has and other accounts' messages give nothing, so a caller learns nothing of ids that
 * are not its own.
 */
export async function accountMessages(messages: MessagesById, account: Pick<Account, 'id'>, ids: readonly number[]): Promise<Message[]> {
  const wanted = [...new Set(ids)];
  const found = new Map(
    (await messages.getMany(wanted)).filter((message) => message.accountId === account.id).map((message) => [message.id, message]),
  );
  return wanted.flatMap((id) => found.get(id) ?? []);
}
