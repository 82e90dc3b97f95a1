import { notFound } from '@tanstack/react-router';
import { ApiError } from '../api/errors';

/**
 * For loaders: a 404 from the service means the thing is not there, which the route shows with
 * its not-found screen (a way back), not as a failure with a Retry that asks the same again.
 */
export async function notFoundOn404<T>(load: Promise<T>): Promise<T> {
  try {
    return await load;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) throw notFound();
    throw error;
  }
}
