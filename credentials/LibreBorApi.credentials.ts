import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	Icon,
	INodeProperties,
} from 'n8n-workflow';

import {
	isUnderBaseUrl,
	PRODUCTION_BASE_URL,
	requestTarget,
	resolveBaseUrl,
	SANDBOX_BASE_URL,
} from '../nodes/LibreBor/transport/baseUrl';

const REDIRECT_STATUSES = [301, 302, 303, 307, 308];

export class LibreBorApi implements ICredentialType {
	name = 'libreBorApi';

	displayName = 'LibreBOR API';

	icon: Icon = {
		light: 'file:../icons/librebor.svg',
		dark: 'file:../icons/librebor.dark.svg',
	};

	documentationUrl = 'https://github.com/n8n-nodes-librebor/n8n-nodes-librebor#credentials';

	properties: INodeProperties[] = [
		{
			displayName:
				'Get the API user and password in the LibreBOR user panel, section API > Credentials. Alerts and documents are beta features that need an API subscription.',
			name: 'notice',
			type: 'notice',
			default: '',
		},
		{
			displayName: 'Environment',
			name: 'environment',
			type: 'options',
			options: [
				{
					name: 'Production',
					value: 'production',
					description: PRODUCTION_BASE_URL,
				},
				{
					name: 'Sandbox',
					value: 'sandbox',
					description: `${SANDBOX_BASE_URL} (try integrations without spending paid queries)`,
				},
				{
					name: 'Custom',
					value: 'custom',
					description: 'Another HTTPS base URL, such as a proxy or a local simulator',
				},
			],
			default: 'production',
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			placeholder: 'https://api.example.com/v2',
			description:
				'HTTPS address of the API including its version segment. Plain http:// is refused because the password is sent with every request.',
			displayOptions: {
				show: {
					environment: ['custom'],
				},
			},
		},
		{
			displayName: 'API User',
			name: 'username',
			type: 'string',
			default: '',
			required: true,
		},
		{
			displayName: 'API Password',
			name: 'password',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
		},
	];

	/**
	 * HTTP Basic, added only to HTTPS requests for the configured API host: a request for
	 * any other address (a download link, a typo in a custom URL) never carries the password.
	 * A bare path (the test request below) goes to the API base URL the credential resolves to.
	 */
	authenticate = async (
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> => {
		const resolved = resolveBaseUrl(credentials);
		if ('problem' in resolved) throw new Error(resolved.problem);
		const { baseUrl } = resolved;
		const target = requestTarget(requestOptions, baseUrl);
		if (!isUnderBaseUrl(target, baseUrl)) {
			throw new Error(
				`LibreBOR credentials are only sent over HTTPS to ${baseUrl}; the request was not sent.`,
			);
		}
		return {
			...requestOptions,
			url: requestOptions.baseURL ? requestOptions.url : target,
			// The API never redirects; a redirect is a misconfigured or hostile host, and n8n
			// would copy the password onto every hop (to another host, even to http://).
			disableFollowRedirect: true,
			sendCredentialsOnCrossOriginRedirect: false,
			auth: {
				username: String(credentials.username ?? ''),
				password: String(credentials.password ?? ''),
			},
		};
	};

	test: ICredentialTestRequest = {
		// A bare path: `authenticate` sends it below the base URL the credential resolves to.
		request: { url: '/alerts/following/', method: 'GET' },
		rules: [
			...REDIRECT_STATUSES.map((value) => ({
				type: 'responseCode' as const,
				properties: {
					value,
					message:
						'The base URL answers with a redirect, and LibreBOR credentials are never sent on a redirect. Use the final HTTPS address of the API, ending in its version segment, as the base URL.',
				},
			})),
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message:
						'LibreBOR refused the API user or password. Copy them again from the user panel, API > Credentials, and check the environment.',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 403,
					message:
						'The user and password are right, but the account has no access to alerts and documents: they need an API subscription and a request to LibreBOR.',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 404,
					message:
						'Nothing answers at this base URL. It must end in the version segment, such as /v2.',
				},
			},
		],
	};
}
