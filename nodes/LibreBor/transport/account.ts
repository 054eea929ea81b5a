import { createHash } from 'crypto';
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { resolveBaseUrl } from './baseUrl';

/**
 * The key of the API account a credential names, for everything the nodes keep about it (what
 * runs learn of its limit, the orders placed with it): derived from the base URL and the user,
 * never the password, and hashed so that neither is written to the workflow's static data or
 * n8n's other stores. A refused base URL sends no request, so its problem stands in for it.
 */
export function accountKey(credentials: ICredentialDataDecryptedObject): string {
	const resolved = resolveBaseUrl(credentials);
	const baseUrl = 'baseUrl' in resolved ? resolved.baseUrl : resolved.problem;
	return createHash('sha256')
		.update(`${baseUrl}\n${String(credentials.username)}`)
		.digest('hex')
		.slice(0, 32);
}
