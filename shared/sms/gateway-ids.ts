/**
 * A gateway's or SMSC's message id in one canonical form: trimmed and lower case (SMSCs
 * differ in the case of hexadecimal ids), so the same id always reads the same.
 */
export function normalizeGatewayMessageId(id: string): string {
  return id.trim().toLowerCase();
}
