import { request } from 'undici';

import type { Simulator } from '../../tools/simulator/index.mts';

/** One request to the simulator's API as a LibreBOR client sends it: HTTP Basic, a POST's form fields. */
export async function callApi(
	sim: Simulator,
	method: 'GET' | 'POST',
	path: string,
	form?: Record<string, string>,
) {
	const { username, password } = sim.credentials;
	const response = await request(`${sim.baseUrl}${path}`, {
		method,
		headers: {
			authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`,
			...(form && { 'content-type': 'application/x-www-form-urlencoded' }),
		},
		body: form && new URLSearchParams(form).toString(),
	});
	return {
		status: response.statusCode,
		headers: response.headers,
		text: await response.body.text(),
	};
}
