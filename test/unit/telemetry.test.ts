/**
 * Powertools metrics on Lambda: a count is one CloudWatch embedded-metric-format line in
 * the function's log, in the service's namespace.
 */
describe('telemetry', () => {
  it('writes a count as an EMF line in the shortsms namespace when running on Lambda', async () => {
    // Prepare: as on Lambda
    jest.resetModules();
    const saved = { ...process.env };
    Object.assign(process.env, {
      AWS_LAMBDA_FUNCTION_NAME: 'shortsms-sms-worker',
      POWERTOOLS_SERVICE_NAME: 'shortsms',
      POWERTOOLS_METRICS_NAMESPACE: 'shortsms',
    });
    delete process.env.POWERTOOLS_METRICS_DISABLED;
    delete process.env.POWERTOOLS_DEV;
    const lines: string[] = [];
    const write = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
    try {
      const { count } = await import('../../shared/telemetry');
      // Act
      count('SmsAccepted', 3);
    } finally {
      write.mockRestore();
      process.env = saved;
    }
    // Assess
    const emf = lines.map((line) => JSON.parse(line)).find((entry) => entry._aws);
    expect(emf).toMatchObject({
      SmsAccepted: 3,
      service: 'shortsms',
      _aws: { CloudWatchMetrics: [{ Namespace: 'shortsms', Metrics: [{ Name: 'SmsAccepted', Unit: 'Count' }] }] },
    });
  });

  it('keeps metrics off outside Lambda', async () => {
    jest.resetModules();
    const saved = { ...process.env };
    delete process.env.AWS_LAMBDA_FUNCTION_NAME;
    delete process.env.POWERTOOLS_METRICS_DISABLED;
    const lines: string[] = [];
    const write = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
    try {
      const { count } = await import('../../shared/telemetry');
      count('SmsAccepted');
    } finally {
      write.mockRestore();
      process.env = saved;
    }
    expect(lines.filter((line) => line.includes('SmsAccepted'))).toEqual([]);
  });
});
