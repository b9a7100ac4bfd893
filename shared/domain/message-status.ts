/**
 * Message statuses (SPEC §6) and the one rule about moving between them: forward only.
 * Reports can arrive late, twice or out of order; a status that is further along, or
 * final, is never replaced by one that is behind it, and a final status never changes.
 */
export const MESSAGE_STATUSES = ['NEW', 'ENQUEUD', 'ACCEPTD', 'PDLIVRD', 'DELIVRD', 'UNDELIV', 'REJECTD', 'EXPIRED', 'DELETED'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

export const FINAL_STATUSES: ReadonlySet<MessageStatus> = new Set(['DELIVRD', 'UNDELIV', 'REJECTD', 'EXPIRED', 'DELETED']);

const STAGE: Record<MessageStatus, number> = {
  NEW: 0,
  ENQUEUD: 1,
  ACCEPTD: 2,
  PDLIVRD: 3, // some parts delivered: not final, but past "accepted"
  DELIVRD: 4,
  UNDELIV: 4,
  REJECTD: 4,
  EXPIRED: 4,
  DELETED: 4,
};

export function isMessageStatus(value: string): value is MessageStatus {
  return (MESSAGE_STATUSES as readonly string[]).includes(value);
}

export function isFinal(status: MessageStatus): boolean {
  return FINAL_STATUSES.has(status);
}

/** Whether a message in `current` may take `next`. */
export function canMoveTo(current: MessageStatus, next: MessageStatus): boolean {
  return !isFinal(current) && STAGE[next] > STAGE[current];
}

/** The statuses a message may be in when it moves to `next`: what a conditional write checks. */
export function statusesBefore(next: MessageStatus): MessageStatus[] {
  return MESSAGE_STATUSES.filter((status) => canMoveTo(status, next));
}

/**
 * A concatenated message's status from the reports on its parts (part number → that part's
 * final status), or undefined when they do not move it yet. Some parts delivered while
 * others are still out: PDLIVRD. Every part reported: DELIVRD if all were delivered;
 * otherwise the message did not arrive whole, so it is the parts' common failure when
 * they share one, else UNDELIV.
 */
export function statusOfParts(parts: number, reported: Readonly<Record<number, MessageStatus>>): MessageStatus | undefined {
  const statuses = Object.values(reported);
  const delivered = statuses.filter((status) => status === 'DELIVRD').length;
  if (statuses.length < parts) return delivered > 0 ? 'PDLIVRD' : undefined;
  if (delivered === parts) return 'DELIVRD';
  const failures = new Set(statuses.filter((status) => status !== 'DELIVRD'));
  return delivered === 0 && failures.size === 1 ? [...failures][0] : 'UNDELIV';
}
