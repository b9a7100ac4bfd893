import * as v from 'valibot';
import type { ErrorKind } from '../../domain/errors';
import { createSchema } from '../operations/link-create';
import { idsSchema as deleteIds } from '../operations/link-delete';
import { refSchema } from '../operations/link-get';
import { campaignIdSchema } from '../operations/link-get-links';
import { statsSchema } from '../operations/link-get-stats';
import { linkListSchema } from '../operations/link-list';
import { idSchema as updateId, updateSchema } from '../operations/link-update';
import { idsSchema as statusIds } from '../operations/message-get-sms-status';
import { messageListSchema } from '../operations/message-list';
import { paramsSchema, sendSchema } from '../operations/message-send-sms-message';
import type { OPERATIONS } from '../routes';
import * as answers from './responses';

/**
 * The ten operations as the document describes them. Each one's parameters are a valibot
 * object of its top-level parameters, built from the schemas the operation itself reads
 * with (exported beside it); where a schema depends on the deployment or the account (the
 * short-link host, the time zone), it is built with a placeholder, which only changes
 * error messages, never the parameters.
 */

/** The placeholder short-link host for createSchema: it only names the refused host in a message. */
const SHORT_LINK_HOST = 'short.example';
/** Times are read in the account's zone; any zone gives the same parameters. */
const ZONE = 'UTC';

type Operations = typeof OPERATIONS;
/** A module and one of its methods, as routes.ts spells them. */
type OperationName = { [M in keyof Operations]: { module: M; method: keyof Operations[M] & string } }[keyof Operations];

/** A result code an operation may answer, by its kind in result-codes.ts, and when. */
export interface ResultDoc {
  kind: ErrorKind | 'success';
  when: string;
}

export type OperationDoc = OperationName & {
  summary: string;
  description?: string;
  /** The top-level parameters; nested objects become bracket parameters (`data[fullLink]`). */
  parameters: v.GenericSchema;
  /** Checked by the operation before its schema (code 11, or 2 for GetSMSStatus): required although the schema allows absence. */
  required?: string[];
  results: ResultDoc[];
  /** `data` of a successful answer. */
  data: v.GenericSchema;
};

/** Link/Get's references: each alternative of the one `{name, value}` variant that ends refSchema. */
function linkReferences(): v.GenericSchema {
  const variant = refSchema.pipe.at(-1) as unknown as {
    options: v.ObjectSchema<{ name: v.LiteralSchema<string, undefined>; value: v.GenericSchema }, undefined>[];
  };
  return v.object(Object.fromEntries(variant.options.map((option) => [option.entries.name.literal, v.optional(option.entries.value)])));
}

export const OPERATION_DOCS: OperationDoc[] = [
  {
    module: 'Link',
    method: 'Create',
    summary: 'Create a short link',
    description:
      '`data[expirationDate]` is `YYYY-MM-DD`: the link works through that day in the account’s zone. `data[fullLink]` may leave out its scheme (`www.example.com` gets `http://`).',
    parameters: v.object({ data: createSchema(SHORT_LINK_HOST) }),
    results: [
      { kind: 'success', when: 'The link is created' },
      { kind: 'missingParameter', when: '`data` is not given' },
      {
        kind: 'invalid',
        when: 'A field has a bad value: `data[fullLink]` missing, not an http(s) URL, longer than 2,000 characters or on the short-link host; `data[status]` not 0 or 1; `data[expirationDate]` not a date or in the past; `data[comment]` over 255 characters',
      },
    ],
    data: answers.linkCreated,
  },
  {
    module: 'Link',
    method: 'Delete',
    summary: 'Delete links',
    description: 'Ids that do not exist or belong to another account come back in `notProcessed`.',
    parameters: v.object({ ids: deleteIds }),
    required: ['ids'],
    results: [
      { kind: 'success', when: 'The ids are processed' },
      { kind: 'missingParameter', when: '`ids` is not given or empty' },
      { kind: 'limit', when: '`ids` is not a list, or has more than 1,000 ids' },
    ],
    data: answers.linksDeleted,
  },
  {
    module: 'Link',
    method: 'Get',
    summary: 'Get one link',
    description: 'Pass exactly one of `id`, `code` or `shortLink`.',
    parameters: linkReferences(),
    results: [
      { kind: 'success', when: 'The link is returned' },
      { kind: 'limit', when: 'None, or more than one, of `id`, `code`, `shortLink` is given, or one is not a single value' },
      { kind: 'notFound', when: 'The account has no such link' },
    ],
    data: answers.link,
  },
  {
    module: 'Link',
    method: 'GetLinks',
    summary: 'The links of a campaign',
    description: 'The links `params[shortenLinks]=1` made in the campaign’s text, with their click and redirect counts.',
    parameters: v.object({ campaignId: campaignIdSchema }),
    results: [
      { kind: 'success', when: 'The links are returned' },
      { kind: 'missingParameter', when: '`campaignId` is not given' },
      { kind: 'notFound', when: 'The account has no such campaign' },
    ],
    data: answers.campaignLinks,
  },
  {
    module: 'Link',
    method: 'GetStats',
    summary: 'Click and redirect counts per period',
    description:
      'Maximum interval per type: monthly 3 years, daily 90 days, hourly 1 week, minute 3 hours. Neither date: the last maximum interval; only `criteria[dateFrom]`, or a longer gap: the maximum interval from it; only `criteria[dateTo]`: the maximum interval ending at it. Times are `YYYY-MM-DD HH:MM:SS` in the account’s zone.',
    parameters: statsSchema(ZONE),
    required: ['ids'],
    results: [
      { kind: 'success', when: 'The statistics are returned' },
      { kind: 'missingParameter', when: '`ids` is not given' },
      {
        kind: 'limit',
        when: 'More than 5 ids, no or an unknown `type`, a date that cannot be read, or `criteria[dateTo]` before `criteria[dateFrom]`',
      },
    ],
    data: answers.linkStats,
  },
  {
    module: 'Link',
    method: 'List',
    summary: 'List and search the account’s links',
    description:
      '`criteria[query]` searches codes, recipient tracking codes and comments (case-insensitive). Dates are `YYYY-MM-DD` or `YYYY-MM-DD HH:MM:SS` in the account’s zone. Default: newest first, 25 a page.',
    parameters: linkListSchema(ZONE),
    results: [
      { kind: 'success', when: 'A page of links is returned' },
      { kind: 'limit', when: 'A bad criteria, sort or pagination value' },
    ],
    data: answers.linkPage,
  },
  {
    module: 'Link',
    method: 'Update',
    summary: 'Change a link',
    description: 'Without `data[expirationDate]` the link no longer expires; without `data[status]` or `data[comment]` they stay as they are.',
    parameters: v.object({ id: updateId, data: v.optional(updateSchema) }),
    required: ['id'],
    results: [
      { kind: 'success', when: 'The link is changed; its short link is returned' },
      { kind: 'missingParameter', when: '`id` is not given' },
      { kind: 'limit', when: '`id` is not a single value' },
      { kind: 'notFound', when: 'The account has no such link' },
      { kind: 'invalid', when: 'A `data[...]` field has a bad value' },
    ],
    data: answers.shortLink,
  },
  {
    module: 'Message',
    method: 'GetSMSStatus',
    summary: 'Delivery status of messages',
    description: 'Unknown ids and other accounts’ ids produce no record.',
    parameters: v.object({ ids: statusIds }),
    required: ['ids'],
    results: [
      { kind: 'success', when: 'The status records are returned' },
      { kind: 'notFound', when: 'No message ids are given' },
      { kind: 'limit', when: 'More than 100 ids, or `ids` is not a list' },
    ],
    data: answers.deliveryStatuses,
  },
  {
    module: 'Message',
    method: 'List',
    summary: 'List and search the account’s messages',
    description:
      '`criteria[to]` matches part of a number; `criteria[text]` the whole text. Times are `YYYY-MM-DD HH:MM:SS` (or a date) in the account’s zone.',
    parameters: messageListSchema(ZONE),
    results: [
      { kind: 'success', when: 'A page of messages is returned' },
      { kind: 'limit', when: 'A bad criteria, sort or pagination value' },
    ],
    data: answers.messagePage,
  },
  {
    module: 'Message',
    method: 'SendSmsMessage',
    summary: 'Send one SMS',
    description:
      'Also with GET, the text URL-encoded. `params[deferredToTs]` is `YYYY-MM-DD HH:MM:SS` in the account’s zone, 1 hour to 14 days ahead; `params[validity]` is in minutes. A text may take up to 10 segments.',
    parameters: v.object({ ...sendSchema.entries, params: v.optional(paramsSchema) }),
    required: ['recipient', 'text'],
    results: [
      { kind: 'success', when: 'The message is accepted' },
      { kind: 'missingParameter', when: '`recipient` or `text` is not given' },
      {
        kind: 'invalid',
        when: 'A bad value: a number that is not valid for its country or a country not enabled for the account, an empty or too long text, a sender not approved for the account, a deferred time out of range, a validity out of range',
      },
    ],
    data: answers.messageSent,
  },
];
