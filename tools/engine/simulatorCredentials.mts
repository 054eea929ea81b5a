import type { IDataObject } from 'n8n-workflow';

import type { Simulator } from '../simulator/index.mts';

/** The LibreBOR credential of the simulator's account, by credential type, as the harness takes it. */
export function credentialsFor(sim: Simulator, overrides: IDataObject = {}) {
	return {
		libreBorApi: {
			environment: 'custom',
			baseUrl: sim.baseUrl,
			username: sim.credentials.username,
			password: sim.credentials.password,
			...overrides,
		},
	};
}
