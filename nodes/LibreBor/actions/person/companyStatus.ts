import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ItemRequest } from '../../run/nodeRun';
import { findCompany } from '../companyNif';

const POSITION_LISTS = ['active_positions', 'inactive_positions'] as const;

const positionsOf = (person: IDataObject): IDataObject[] =>
	POSITION_LISTS.flatMap((list) =>
		Array.isArray(person[list])
			? (person[list] as unknown[]).filter(
					(position): position is IDataObject => !!position && typeof position === 'object',
				)
			: [],
	);

/** A company's status; null for one LibreBOR no longer finds by that slug. */
async function statusOf(this: IExecuteFunctions, slug: string, item: ItemRequest) {
	const company = await findCompany.call(this, { slug }, item);
	return typeof company?.status === 'string' ? company.status : null;
}

/**
 * The person with each post's `company_status`: one look-up per distinct company, all through
 * the run's pacer. A post that names no company gets null.
 */
export async function withCompanyStatus(
	this: IExecuteFunctions,
	person: IDataObject,
	item: ItemRequest,
): Promise<IDataObject> {
	const slugs = new Set<string>();
	for (const position of positionsOf(person))
		if (typeof position.slug_company === 'string') slugs.add(position.slug_company);
	const statuses = new Map(
		await Promise.all(
			[...slugs].map(async (slug) => [slug, await statusOf.call(this, slug, item)] as const),
		),
	);
	const withStatus = (position: unknown) => {
		if (!position || typeof position !== 'object') return position;
		const slug = (position as IDataObject).slug_company;
		return { ...position, company_status: typeof slug === 'string' ? statuses.get(slug) : null };
	};
	const result: IDataObject = { ...person };
	for (const list of POSITION_LISTS)
		if (Array.isArray(person[list])) result[list] = (person[list] as unknown[]).map(withStatus);
	return result;
}
