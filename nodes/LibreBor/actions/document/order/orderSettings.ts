import type { IExecuteFunctions } from 'n8n-workflow';

import { readNif } from '../../../parameters/identifierParameters';
import { asNodeError } from '../../../run/nodeErrors';
import type { ItemRequest, RunSettings } from '../../../run/nodeRun';
import { readNumericOption } from '../../../parameters/numericOption';
import { readToggleParameter } from '../../../parameters/toggleOption';
import { validateCompanyNif, validateYear } from '../../../parameters/validation';
import { readNifsAhead } from '../../companyNif';
import {
	readBinaryPropertyName,
	readMaxDownloadBytes,
	readWaitSettings,
	type FileSettings,
	type WaitSettings,
} from '../documentOptions';

export const DEFAULT_ORDER_MEMORY_HOURS = 24;

/** The document an order is for: one company's annual accounts of one year. */
export interface OrderInput {
	nif: string;
	year: number;
}

/** What an order does once placed: wait until the document is ready, and maybe download it. */
export interface CompletionSettings {
	wait: WaitSettings;
	/** Absent: the item outputs the finished document's status and link, without the file. */
	file?: FileSettings;
}

/** Everything an item's parameters say about its order, read for every item before any is sent. */
export interface ItemOrder {
	input: OrderInput;
	sendEmail: boolean;
	/** Absent: the item outputs LibreBOR's answer to the order at once. */
	completion?: CompletionSettings;
}

/** One item's order as the node runs it: what the item asks for, and its run and index. */
export interface OrderJob extends ItemOrder {
	item: ItemRequest;
}

/**
 * The item's company NIF: read ahead (a company picked by name, version 3), or from its `nif`
 * field; a person's NIF is refused before anything is paid for.
 */
function nifOf(context: IExecuteFunctions, itemIndex: number, nifs?: Array<string | Error>) {
	const given = nifs?.[itemIndex];
	if (given instanceof Error) throw given;
	return validateCompanyNif(
		context.getNode(),
		given ?? readNif(context, itemIndex),
		itemIndex,
		'accounts',
	);
}

/** Every item's order, read before any is sent so that a bad value costs nothing. */
export async function readItemOrders(
	context: IExecuteFunctions,
	settings: RunSettings,
): Promise<Array<ItemOrder | Error>> {
	const nifs = await readNifsAhead.call(context, settings);
	return context.getInputData().map((_, itemIndex) => {
		try {
			const input = {
				nif: nifOf(context, itemIndex, nifs),
				year: validateYear(
					context.getNode(),
					context.getNodeParameter('year', itemIndex),
					itemIndex,
				),
			};
			const completion = readCompletionSettings(context, itemIndex);
			const sendEmail = readOrderToggle(context, 'sendEmail', 'Send Email', itemIndex);
			return { input, sendEmail, completion };
		} catch (error) {
			// Also n8n's expression errors: with Continue On Fail, the item fails alone.
			return asNodeError(context.getNode(), error, itemIndex);
		}
	});
}

/** A limit set by an expression must still be a number: a typo must never lift it. */
export function readOrderLimit(
	context: IExecuteFunctions,
	parameter: string,
	label: string,
	fallback: number,
	minimum: number,
): number {
	return readNumericOption(context.getNode(), context.getNodeParameter(parameter, 0, fallback), {
		label,
		fallback,
		minimum,
		consequence: 'No order was sent.',
	});
}

/** An on/off option of an item's order, read before anything is paid for. */
function readOrderToggle(
	context: IExecuteFunctions,
	option: string,
	label: string,
	itemIndex: number,
): boolean {
	return readToggleParameter(
		context,
		`options.${option}`,
		{ label, fallback: false, consequence: 'No order was sent.' },
		itemIndex,
	);
}

/** What to do once an order is placed: wait for it, download it. */
function readCompletionSettings(
	context: IExecuteFunctions,
	itemIndex: number,
): CompletionSettings | undefined {
	const download = readOrderToggle(context, 'download', 'Download', itemIndex);
	const waits =
		download || readOrderToggle(context, 'waitForCompletion', 'Wait for Completion', itemIndex);
	const wait = waits ? readWaitSettings(context, itemIndex) : undefined;
	const maxBytes = download ? readMaxDownloadBytes(context, itemIndex) : 0;
	if (!wait) return undefined;
	if (!download) return { wait };
	const binaryPropertyName = readBinaryPropertyName(
		context,
		'options.binaryPropertyName',
		itemIndex,
	);
	return { wait, file: { maxBytes, binaryPropertyName } };
}
