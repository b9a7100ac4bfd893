import type { NativeAttributeValue } from '@aws-sdk/lib-dynamodb';
import type { MessageStatus } from '../domain/message-status';
import type { Message } from '../domain/messages';

/** A message as its item stores it: the repository's reads, the lists' pages and the counted changes' keys read it the same way. */
const PART_ATTRIBUTE = /^part(\d+)Status$/;

function partStatusesOf(item: Record<string, NativeAttributeValue>): Record<number, MessageStatus> | undefined {
  let parts: Record<number, MessageStatus> | undefined;
  for (const [name, value] of Object.entries(item)) {
    const part = PART_ATTRIBUTE.exec(name)?.[1];
    if (part === undefined) continue;
    parts ??= {};
    parts[Number(part)] = value as MessageStatus;
  }
  return parts;
}

export function fromMessageItem(item: Record<string, NativeAttributeValue>): Message {
  const partStatuses = partStatusesOf(item);
  return {
    ...(partStatuses && { partStatuses }),
    ...(item.smscMessageIds instanceof Set && { smscMessageIds: [...(item.smscMessageIds as Set<string>)].sort() }),
    id: Number(item.id),
    accountId: Number(item.accountId),
    campaignId: Number(item.campaignId),
    from: String(item.from),
    to: String(item.to),
    text: String(item.text),
    segNum: Number(item.segNum),
    segUserBuy: Number(item.segUserBuy),
    status: item.status as MessageStatus,
    uuid: String(item.uuid),
    countryA2: String(item.countryA2),
    validityMinutes: Number(item.validityMinutes),
    createdAt: String(item.createdAt),
    startSendAt: item.startSendAt ?? null,
    statusUpdatedAt: item.statusUpdatedAt ?? null,
    gateway: item.gateway ?? null,
    gatewayMessageId: item.gatewayMessageId ?? null,
    submitState: item.submitState ?? null,
    submitProblem: item.submitProblem ?? null,
  };
}
