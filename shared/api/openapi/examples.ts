/**
 * What "Try it out" starts a required parameter with, by bracket name, so a first call
 * works as it stands. Optional form fields start empty: an empty field is not sent, and
 * the API reads `name=` as not given anyway.
 */
export const EXAMPLES: Record<string, string | string[]> = {
  'data[fullLink]': 'https://example.com/offer',
  'ids[]': ['1'],
  campaignId: '1',
  id: '1',
  recipient: '447400123450',
  text: 'Hello from the API',
  type: 'daily',
};
