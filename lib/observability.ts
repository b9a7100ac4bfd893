import { Duration } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

export interface WatchedQueue {
  readonly name: string;
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;
  /** How old the oldest waiting message may get before someone should look. */
  readonly maxAge: Duration;
}

export interface ObservabilityProps {
  readonly functions: Map<string, LambdaFunction>;
  readonly queues: WatchedQueue[];
  /** Alarm notifications by email as well (a subscription to confirm). */
  readonly alarmEmail?: string;
}

/**
 * Alarms to one SNS topic: any message in a dead-letter queue (work that failed five
 * times), work waiting too long in a queue (its consumer is failing or too slow), and
 * errors of any function (a handler that threw: bad input never does).
 */
export class Observability extends Construct {
  readonly topic: Topic;
  readonly alarms: Alarm[] = [];

  constructor(scope: Construct, id: string, props: ObservabilityProps) {
    super(scope, id);
    this.topic = new Topic(this, 'AlarmTopic', { displayName: 'shortsms alarms', enforceSSL: true });
    if (props.alarmEmail) this.topic.addSubscription(new EmailSubscription(props.alarmEmail));
    const action = new SnsAction(this.topic);
    const alarm = (alarmId: string, settings: ConstructorParameters<typeof Alarm>[2]) => {
      const created = new Alarm(this, alarmId, { treatMissingData: TreatMissingData.NOT_BREACHING, ...settings });
      created.addAlarmAction(action);
      this.alarms.push(created);
    };
    for (const { name, queue, deadLetterQueue, maxAge } of props.queues) {
      alarm(`${name}DeadLetters`, {
        alarmDescription: `Messages in the ${name} dead-letter queue: work that failed five times`,
        metric: deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' }),
        threshold: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
      });
      alarm(`${name}Age`, {
        alarmDescription: `The oldest message in the ${name} queue is older than ${maxAge.toHumanString()}`,
        metric: queue.metricApproximateAgeOfOldestMessage({ period: Duration.minutes(1), statistic: 'Maximum' }),
        threshold: maxAge.toSeconds(),
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 3,
      });
    }
    for (const [name, fn] of props.functions) {
      alarm(`${name}Errors`, {
        alarmDescription: `The ${name} function threw errors`,
        metric: fn.metricErrors({ period: Duration.minutes(5), statistic: 'Sum' }),
        threshold: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
      });
    }
  }
}
