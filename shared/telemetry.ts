import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';

/**
 * Structured logs and CloudWatch metrics (embedded metric format) through Powertools for
 * AWS Lambda. Service name and namespace come from POWERTOOLS_SERVICE_NAME and
 * POWERTOOLS_METRICS_NAMESPACE (set by the stack); the local runtime turns metrics off
 * (POWERTOOLS_METRICS_DISABLED), where nothing would collect them.
 */
// Metrics go to CloudWatch from Lambda only (EMF lines in its logs); elsewhere (the local
// runtime, tests, the admin CLI) nothing collects them, unless asked for explicitly.
process.env.POWERTOOLS_METRICS_DISABLED ??= process.env.AWS_LAMBDA_FUNCTION_NAME ? 'false' : 'true';

export const logger = new Logger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'shortsms' });
export const metrics = new Metrics({
  namespace: process.env.POWERTOOLS_METRICS_NAMESPACE ?? 'shortsms',
  serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'shortsms',
});

/** Counts `value` of `name` now (one EMF line per call). */
export function count(name: string, value = 1): void {
  if (value <= 0) return;
  metrics.addMetric(name, MetricUnit.Count, value);
  metrics.publishStoredMetrics();
}

/** The error as a log field: its message and stack. */
export function errorField(error: unknown): string {
  return String((error as Error)?.stack ?? error);
}
