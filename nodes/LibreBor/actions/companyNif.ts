import { NodeOperationError, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';

import { getCompanyByNif, getCompanyBySlug, isNotFound } from '../api/registry';
import { mapWithConcurrency } from '../run/concurrency';
import {
	readCompanyReference,
	readNif,
	type CompanyReference,
} from '../parameters/identifierParameters';
import {
	endNodeRun,
	startNodeRun,
	type ItemRequest,
	type NodeRun,
	type RunSettings,
} from '../run/nodeRun';
import { asNodeError, type NodeError } from '../run/nodeErrors';
import { validateNif } from '../parameters/validation';

export type ItemError = NodeError;

/** A company picked by name or slug: its NIF, as LibreBOR's registry gives it. */
async function nifOfSlug(this: IExecuteFunctions, slug: string, item: ItemRequest) {
	const company = await getCompanyBySlug.call(this, slug, item);
	const nif = typeof company.nif === 'string' ? company.nif.trim() : '';
	if (nif === '') {
		const name = typeof company.name === 'string' ? company.name : slug;
		throw new NodeOperationError(this.getNode(), `LibreBOR knows no NIF for ${name}`, {
			itemIndex: item.itemIndex,
			description: `LibreBOR knows this company ("${slug}") only from the bulletin, without its tax identifier, and the watch list and orders take a NIF: nothing was sent for it. If you know its NIF, enter it By NIF.`,
		});
	}
	return validateNif(this.getNode(), nif, item.itemIndex);
}

/**
 * The NIF of an item's company, checked and normalised: from the `nif` field (versions 1 and
 * 2), or the `company` field (version 3), where a company picked by name or slug is looked up.
 */
export async function readItemNif(this: IExecuteFunctions, item: ItemRequest): Promise<string> {
	if (this.getNode().typeVersion < 3) return readNif(this, item.itemIndex);
	const company = readCompanyReference(this, item.itemIndex);
	return 'nif' in company ? company.nif : await nifOfSlug.call(this, company.slug, item);
}

/**
 * Every item's NIF before anything is sent (Sync, Order): the look-ups of companies picked by
 * name or slug go out in parallel through the run's pacer; an item's failure is kept as its error.
 */
export async function readItemNifs(
	this: IExecuteFunctions,
	run: NodeRun,
): Promise<Array<string | ItemError>> {
	return await mapWithConcurrency(
		this.getInputData().length,
		run.pacer.settings.ceiling,
		async (itemIndex) =>
			await readItemNif
				.call(this, { run, itemIndex })
				.catch((error: unknown) => asNodeError(this.getNode(), error, itemIndex)),
	);
}

/**
 * For Order: version 3's NIFs, read ahead of every order in a run of their own (its look-ups spend
 * nothing), so that a company picked by name is known before anything is paid for. Undefined
 * before version 3, whose `nif` field each order reads itself.
 */
export async function readNifsAhead(
	this: IExecuteFunctions,
	settings: RunSettings,
): Promise<Array<string | ItemError> | undefined> {
	if (this.getNode().typeVersion < 3) return undefined;
	const run = startNodeRun(this, settings, this.getInputData().length);
	try {
		return await readItemNifs.call(this, run);
	} finally {
		endNodeRun(run);
	}
}

/** A company's registry record by NIF or slug; undefined when LibreBOR does not find it (404). */
export async function findCompany(
	this: IExecuteFunctions,
	company: CompanyReference,
	item: ItemRequest,
): Promise<IDataObject | undefined> {
	const found =
		'slug' in company
			? getCompanyBySlug.call(this, company.slug, item)
			: getCompanyByNif.call(this, company.nif, item);
	return await found.catch((error: unknown) => {
		if (isNotFound(error)) return undefined;
		throw error;
	});
}
