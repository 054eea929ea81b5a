import { createHash } from 'crypto';

/**
 * The key of an API account, for what runs learn of its limit: derived from the base URL and the
 * user, never the password, and hashed so that neither is written to the workflow's static data.
 */
export function accountKey(baseUrl: string, username: string): string {
	return createHash('sha256').update(`${baseUrl}\n${username}`).digest('hex').slice(0, 32);
}
