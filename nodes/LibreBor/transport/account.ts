import { createHash } from 'crypto';
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { resolveBaseUrl } from './baseUrl';

/**
 * The key of an API account, for everything the nodes keep about it (what runs learn of its
 * limit, the orders placed with it): derived from the base URL and the user, never the password,
 * and hashed so that neither is written to the workflow's static data or n8n's other stores.
 */
export function accountKey(baseUrl: string, username: string): string {
	return createHash('sha256').update(`${baseUrl}\n${username}`).digest('hex').slice(0, 32);
}

/** The API account a credential names: its base URL (empty when refused) and its user. */
export function accountOf(credentials: ICredentialDataDecryptedObject) {
	const resolved = resolveBaseUrl(credentials);
	return {
		baseUrl: 'baseUrl' in resolved ? resolved.baseUrl : '',
		username: String(credentials.username ?? ''),
	};
}
