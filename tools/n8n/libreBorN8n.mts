import type { Simulator } from '../simulator/index.mts';

export const libreBorPackageName = 'n8n-nodes-librebor';
export const libreBorNodeType = `${libreBorPackageName}.libreBor`;
export const libreBorTriggerNodeType = `${libreBorPackageName}.libreBorTrigger`;

/** The credential id and name the workflows in examples/ refer to. */
export const libreBorCredentialRef = { id: 'librebor-credential', name: 'LibreBOR API' };

/** A LibreBOR API credential for `n8n import:credentials`, pointing at a simulator. */
export function libreBorCredential(
	sim: Simulator,
	ref: { id: string; name: string } = libreBorCredentialRef,
): object {
	return {
		...ref,
		type: 'libreBorApi',
		data: {
			environment: 'custom',
			baseUrl: sim.baseUrl,
			username: sim.credentials.username,
			password: sim.credentials.password,
		},
	};
}

/** The ways the password could show: as itself, or inside a Basic authorization header. */
export function passwordForms(sim: Simulator): string[] {
	const { username, password } = sim.credentials;
	return [password, Buffer.from(`${username}:${password}`).toString('base64')];
}
