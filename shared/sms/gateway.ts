/** The gateway port belongs to the domain (shared/domain/gateway.ts); re-exported here for existing imports. */
export type { DeliveryReport, OutboundSms, SmsGateway, SubmitResult } from '../domain/gateway';
