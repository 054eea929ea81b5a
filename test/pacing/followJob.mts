// The job every pacing test runs: Watch List > Follow over companies no earlier run followed.
import type { INodeParameters } from 'n8n-workflow';

import { companyNifs } from '../../scripts/bench/nifs.mts';

export const follow = (options: INodeParameters = {}): INodeParameters => ({
	resource: 'watchlist',
	operation: 'follow',
	nif: '={{ $json.nif }}',
	options,
});

/** `count` companies to follow, from the `from`th on. */
export const nifItems = (count: number, from = 0) =>
	companyNifs(from + count)
		.slice(from)
		.map((nif) => ({ nif }));
