import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ItemRequest } from '../../run/nodeRun';
import { normalizeNif } from '../../identifiers/nif';
import { findCompany } from '../companyNif';

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/** The registry's record of a watched company: by its slug, or by its NIF; none without either. */
async function registryRecordOf(
	this: IExecuteFunctions,
	entity: IDataObject,
	item: ItemRequest,
): Promise<IDataObject | undefined> {
	const slug = text(entity.slug);
	const nif = text(entity.nif);
	if (slug) return await findCompany.call(this, { slug }, item);
	if (nif) return await findCompany.call(this, { nif: normalizeNif(nif) }, item);
	return undefined;
}

/**
 * Each watched company with its `status` and `province` from the registry (null when the registry
 * does not find it): one look-up per company, all through the run's pacer.
 */
export async function withCompanyDetails(
	this: IExecuteFunctions,
	entities: IDataObject[],
	item: ItemRequest,
): Promise<IDataObject[]> {
	return await Promise.all(
		entities.map(async (entity) => {
			const company = await registryRecordOf.call(this, entity, item);
			return { ...entity, status: company?.status ?? null, province: company?.province ?? null };
		}),
	);
}
