import type { ICredentialType, INodeProperties } from 'n8n-workflow';
import { NodeHelpers, UnexpectedError } from 'n8n-workflow';

import { LibreBorApi } from '../../credentials/LibreBorApi.credentials.ts';

/** The package's own credential types, known to every run unless a test passes others. */
export const defaultCredentialTypes = (): ICredentialType[] => [new LibreBorApi()];

/** The credential types an engine run knows about, looked up by name as n8n does. */
export class CredentialTypeRegistry {
	private readonly byName = new Map<string, ICredentialType>();

	constructor(credentialTypes: ICredentialType[]) {
		for (const credentialType of credentialTypes)
			this.byName.set(credentialType.name, credentialType);
	}

	getByName(name: string): ICredentialType {
		const credentialType = this.byName.get(name);
		if (!credentialType) {
			throw new UnexpectedError(`Unknown credential type "${name}"`, {
				tags: { credentialType: name },
			});
		}
		return credentialType;
	}

	getParentTypes(name: string): string[] {
		const parents = this.byName.get(name)?.extends ?? [];
		return parents.flatMap((parent) => [parent, ...this.getParentTypes(parent)]);
	}

	/** The properties of a type including the ones it inherits, parents first, as n8n merges them. */
	getProperties(name: string): INodeProperties[] {
		const credentialType = this.getByName(name);
		if (!credentialType.extends) return credentialType.properties;

		const combined: INodeProperties[] = [];
		for (const parent of credentialType.extends) {
			NodeHelpers.mergeNodeProperties(combined, this.getProperties(parent));
		}
		NodeHelpers.mergeNodeProperties(combined, credentialType.properties);
		return combined;
	}
}
