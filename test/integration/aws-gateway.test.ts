import { PinpointSMSVoiceV2Client, SendTextMessageCommand, ThrottlingException, ValidationException } from '@aws-sdk/client-pinpoint-sms-voice-v2';
import type { SNSEvent } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import type { Message } from '../../shared/domain/messages';
import { SmsDispatcher } from '../../shared/domain/sms-dispatcher';
import { AwsSmsGateway } from '../../shared/sms/aws';
import { awsSmsEvents } from '../../shared/sms/aws-events';
import type { Store } from '../../shared/store/client';
import { MessagesRepository } from '../../shared/store/messages-repo';
import { startTestStore } from '../support/dynamo';

/**
 * The aws gateway: SendTextMessage as AWS End User Messaging SMS takes it (the client
 * mocked: there is no AWS here), and delivery events as its configuration set publishes
 * them through SNS (shapes from the AWS documentation), applied to messages in dynalite.
 */
let store: Store;
let close: () => Promise<void>;
let messages: MessagesRepository;
let nextId = 1;
const sms = mockClient(PinpointSMSVoiceV2Client);

beforeAll(async () => {
  ({ store, close } = await startTestStore());
  messages = new MessagesRepository(store);
});
afterAll(() => close());
beforeEach(() => sms.reset());

const settings = {
  region: 'eu-west-1',
  configurationSetName: 'shortsms-events',
  originationIdentity: 'MyShop',
  messageType: 'TRANSACTIONAL' as const,
};

async function newMessage(text = 'Your code is 1234', validityMinutes = 60): Promise<number> {
  const id = nextId++;
  const message: Message = {
    id,
    accountId: 1,
    campaignId: id,
    from: 'MyShop',
    to: '447400123450',
    text,
    segNum: 1,
    segUserBuy: 0.05,
    status: 'NEW',
    uuid: `u${id}`,
    countryA2: 'GB',
    validityMinutes,
    // Before the fixed times the tests report at: a message's times are never before its creation.
    createdAt: '2026-11-22T09:00:00.000Z',
    startSendAt: null,
    statusUpdatedAt: null,
    gateway: null,
    gatewayMessageId: null,
    submitState: null,
  };
  await messages.create(message, { status: 'RUNNING', deferred: false });
  return id;
}

/** An SNS notification carrying one SMS event, as the configuration set's event destination sends it. */
function snsEvent(...events: object[]): SNSEvent {
  return {
    Records: events.map((event, index) => ({
      EventSource: 'aws:sns',
      EventVersion: '1.0',
      EventSubscriptionArn: 'arn:aws:sns:eu-west-1:111122223333:sms-events:0b5c',
      Sns: {
        Type: 'Notification',
        MessageId: `sns-${index}`,
        TopicArn: 'arn:aws:sns:eu-west-1:111122223333:sms-events',
        Subject: '',
        Message: JSON.stringify(event),
        Timestamp: '2026-11-22T10:00:00.000Z',
        SignatureVersion: '1',
        Signature: 'x',
        SigningCertUrl: 'https://sns.eu-west-1.amazonaws.com/cert.pem',
        UnsubscribeUrl: 'https://sns.eu-west-1.amazonaws.com/?Action=Unsubscribe',
        MessageAttributes: {},
      },
    })),
  };
}

const smsEvent = (eventType: string, messageId: string, extra: object = {}) => ({
  eventType,
  eventVersion: '1.0',
  eventTimestamp: Date.parse('2026-11-22T10:00:05Z'),
  isFinal: true,
  originationPhoneNumber: 'MyShop',
  destinationPhoneNumber: '+447400123450',
  isInternationalSend: false,
  mcc: '234',
  mnc: '10',
  messageId,
  messageRequestTimestamp: Date.parse('2026-11-22T10:00:00Z'),
  messageEncoding: 'GSM',
  messageType: 'TRANSACTIONAL',
  messageStatus: 'DELIVERED',
  messageStatusDescription: 'Message has been accepted by phone',
  context: { messageId: '1' },
  totalMessageParts: 1,
  totalMessagePrice: 0.0407,
  totalCarrierFee: 0.0,
  ...extra,
});

describe('aws gateway (AWS End User Messaging SMS)', () => {
  it('sends with the configuration set, the validity as TimeToLive and our id in Context', async () => {
    // Prepare
    sms.on(SendTextMessageCommand).resolves({ MessageId: 'a1b2c3d4-aws' });
    const dispatcher = new SmsDispatcher({ messages, gateway: new AwsSmsGateway(settings), clock: () => new Date() });
    const id = await newMessage('Your code is 1234', 90);

    // Act
    const outcome = await dispatcher.dispatch(id);

    // Assess
    expect(outcome).toBe('accepted');
    expect(sms.commandCalls(SendTextMessageCommand).map((call) => call.args[0].input)).toEqual([
      {
        DestinationPhoneNumber: '+447400123450',
        OriginationIdentity: 'MyShop',
        MessageBody: 'Your code is 1234',
        MessageType: 'TRANSACTIONAL',
        ConfigurationSetName: 'shortsms-events',
        TimeToLive: 5400,
        Context: { messageId: String(id) },
      },
    ]);
    expect(await messages.get(id)).toMatchObject({ status: 'ACCEPTD', gateway: 'aws', gatewayMessageId: 'a1b2c3d4-aws' });
  });

  it('treats a refusal as REJECTD and throttling as ambiguous, never to be resent blindly', async () => {
    // Prepare
    const dispatcher = new SmsDispatcher({ messages, gateway: new AwsSmsGateway(settings), clock: () => new Date() });
    const refused = await newMessage();
    const throttled = await newMessage();
    sms
      .on(SendTextMessageCommand)
      .rejectsOnce(new ValidationException({ message: 'Invalid destination', $metadata: {}, Reason: 'INVALID_PARAMETER' } as never))
      .rejectsOnce(new ThrottlingException({ message: 'Rate exceeded', $metadata: {} }));

    // Act
    const outcomes = [await dispatcher.dispatch(refused), await dispatcher.dispatch(throttled)];

    // Assess
    expect(outcomes).toEqual(['rejected', 'ambiguous']);
    expect(await messages.get(refused)).toMatchObject({ status: 'REJECTD' });
    expect(await messages.get(throttled)).toMatchObject({ status: 'ENQUEUD', submitState: 'ambiguous' });
  });

  it('applies delivery events from SNS: final ones move the message, others and repeats change nothing', async () => {
    // Prepare: three accepted messages
    let n = 0;
    sms.on(SendTextMessageCommand).callsFake(async () => ({ MessageId: `aws-msg-${++n}` }));
    const dispatcher = new SmsDispatcher({ messages, gateway: new AwsSmsGateway(settings), clock: () => new Date() });
    const [delivered, blocked, expired] = [await newMessage(), await newMessage(), await newMessage()];
    for (const id of [delivered, blocked, expired]) await dispatcher.dispatch(id);
    const awsId = async (id: number) => (await messages.get(id))!.gatewayMessageId!;

    // Act: pending first, then finals, one repeated, one late, one for an unknown message, one not JSON
    const result = await awsSmsEvents(
      snsEvent(
        smsEvent('TEXT_PENDING', await awsId(delivered), { isFinal: false, messageStatus: 'PENDING' }),
        smsEvent('TEXT_DELIVERED', await awsId(delivered)),
        smsEvent('TEXT_CARRIER_BLOCKED', await awsId(blocked), { messageStatus: 'CARRIER_BLOCKED' }),
        smsEvent('TEXT_TTL_EXPIRED', await awsId(expired), { messageStatus: 'TTL_EXPIRED' }),
        smsEvent('TEXT_DELIVERED', await awsId(delivered)),
        smsEvent('TEXT_UNREACHABLE', await awsId(delivered), { messageStatus: 'UNREACHABLE' }),
        smsEvent('TEXT_DELIVERED', 'not-ours'),
      ),
      { dispatcher },
    );
    const notJson = await awsSmsEvents(
      { Records: [{ ...snsEvent({}).Records[0]!, Sns: { ...snsEvent({}).Records[0]!.Sns, Message: 'not json' } }] },
      { dispatcher },
    );

    // Assess
    expect(await messages.get(delivered)).toMatchObject({ status: 'DELIVRD', statusUpdatedAt: '2026-11-22T10:00:05.000Z' });
    expect(await messages.get(blocked)).toMatchObject({ status: 'REJECTD' });
    expect(await messages.get(expired)).toMatchObject({ status: 'EXPIRED' });
    expect(result).toEqual({ applied: 5, ignored: 2 });
    expect(notJson).toEqual({ applied: 0, ignored: 1 });
  });

  it('takes TEXT_SUCCESSFUL as delivered only when AWS marks it final', async () => {
    // Prepare
    sms.on(SendTextMessageCommand).resolves({ MessageId: 'aws-successful' });
    const dispatcher = new SmsDispatcher({ messages, gateway: new AwsSmsGateway(settings), clock: () => new Date() });
    const id = await newMessage();
    await dispatcher.dispatch(id);

    // Act and assess
    await awsSmsEvents(snsEvent(smsEvent('TEXT_SUCCESSFUL', 'aws-successful', { isFinal: false })), { dispatcher });
    expect(await messages.get(id)).toMatchObject({ status: 'ACCEPTD' });
    await awsSmsEvents(snsEvent(smsEvent('TEXT_SUCCESSFUL', 'aws-successful', { isFinal: true })), { dispatcher });
    expect(await messages.get(id)).toMatchObject({ status: 'DELIVRD' });
  });
});
