import type { Store } from './client';
import type { CountedWrites } from './counted-writes';
import { keys } from './keys';
import { MESSAGE_SCHEMA, MessageChanges, timesNotBeforeCreation } from './message-changes';
import { statusOfKey } from './message-keys';
import type { ItemUpgrade } from './migration';

/**
 * A Message written before schema 2 gets what a new message gets (`admin migrate`): every
 * index attribute, its campaign's status copied from the Campaign item, and its counts, in
 * one conditional UpdateItem counted through CountedWrites (MessageChanges.apply). One at
 * schema 2 written before its text's counter was kept (no `textCounted`), or before its
 * number's (no `toCounted`: criteria[to]'s counts), or before the combinations of status,
 * campaign status and sender were (no `combosCounted`), or before the hourly cells per status
 * were (no `statusHoursCounted`) or before the sending hour's were (no `sentStatusCounted`),
 * or before its sender's day items were (no `senderDated`), is added to those counters the same way, and nothing else changes. The condition holds the attributes those
 * follow as read, so a message changed meanwhile (a report, or its campaign's move, which
 * upgrades it itself) is reported 'changed' and nothing is written; a message counted is
 * skipped, so a second pass adds nothing. A message whose sending or status time lies before
 * its creation (written before such times were brought up to it, message-changes.ts) gets
 * that time set to its creation, its index keys and hourly counts moved with it. One whose
 * sending or status-update key does not end with its status (gsi2 and gsi4: written before
 * the keys carried it; `contains` finds the status only there, as the rest of such a key is
 * digits and times) gets those keys written again, nothing counted.
 * Campaigns: campaign-migration.ts.
 */
export function messageUpgrade(store: Store, counted: CountedWrites): ItemUpgrade {
  const changes = new MessageChanges(store, counted);
  return {
    entity: 'Message',
    // Every message not current by the check below. Times are stored as toISOString()
    // writes them (one width, UTC), so their string order is their time order.
    candidates: {
      expression:
        'NOT (#schema = :schema AND textCounted = :one AND toCounted = :one AND combosCounted = :one AND statusHoursCounted = :one' +
        ' AND sentStatusCounted = :one AND senderDated = :one AND contains(gsi2sk, #status) AND contains(gsi4sk, #status))' +
        ' OR startSendAt < createdAt OR statusUpdatedAt < createdAt',
      names: { '#schema': 'schema', '#status': 'status' },
      values: { ':schema': MESSAGE_SCHEMA, ':one': 1 },
    },
    async upgrade(item) {
      const current =
        item.schema === MESSAGE_SCHEMA &&
        item.textCounted === 1 &&
        item.toCounted === 1 &&
        item.combosCounted === 1 &&
        item.statusHoursCounted === 1 &&
        item.sentStatusCounted === 1 &&
        item.senderDated === 1 &&
        statusOfKey(item.gsi2sk) === item.status &&
        statusOfKey(item.gsi4sk) === item.status &&
        Object.keys(timesNotBeforeCreation(item)).length === 0;
      if (current) return 'skipped';
      if ((await changes.apply(item, {})) === 'changed') return 'changed';
      // Finished, even where its writer lost its lease on a slow store (as for links).
      await counted.settle(keys.message(Number(item.id)));
      return 'upgraded';
    },
  };
}
