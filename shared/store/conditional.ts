import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';

/**
 * Runs a conditional write and returns false when its condition did not hold, the
 * ordinary "not there / not yours" outcome, instead of throwing.
 */
export async function conditionally(write: () => Promise<unknown>): Promise<boolean> {
  try {
    await write();
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}
