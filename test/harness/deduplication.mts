import type {
	DeduplicationItemTypes,
	DeduplicationScope,
	ICheckProcessedContextData,
	ICheckProcessedOptions,
	IDataDeduplicator,
	IDeduplicationOutput,
} from 'n8n-workflow';

/** One database round trip: other callers may run meanwhile, as against Postgres. */
const roundTrip = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * n8n's deduplication store (packages/cli/src/deduplication: the `processed_data` table) for the
 * "entries" mode, kept in this test process: per workflow and scope, the newest `maxEntries`
 * values, written at once. As n8n's DeduplicationHelper does, every call reads the row, then
 * writes it back whole, without a lock: two calls at the same moment can lose one's entries.
 * A node's helpers.checkProcessedAndRecord and removeProcessed reach it through n8n-core's
 * DataDeduplicationService, as in n8n.
 */
export class InMemoryDeduplicator implements IDataDeduplicator {
	private readonly stores = new Map<string, string[]>();

	private static rowOf(scope: DeduplicationScope, contextData: ICheckProcessedContextData): string {
		return `${contextData.workflow.id}|${scope === 'node' ? `n:${contextData.node?.id}` : ''}`;
	}

	private async read(scope: DeduplicationScope, contextData: ICheckProcessedContextData): Promise<string[]> {
		const row = [...(this.stores.get(InMemoryDeduplicator.rowOf(scope, contextData)) ?? [])];
		await roundTrip();
		return row;
	}

	private async write(scope: DeduplicationScope, contextData: ICheckProcessedContextData, row: string[]) {
		await roundTrip();
		this.stores.set(InMemoryDeduplicator.rowOf(scope, contextData), row);
	}

	private static entriesOnly(options: ICheckProcessedOptions) {
		if (options.mode !== 'entries') throw new Error(`The test store keeps entries only, not ${options.mode}`);
	}

	async checkProcessedAndRecord(
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
	): Promise<IDeduplicationOutput> {
		InMemoryDeduplicator.entriesOnly(options);
		const store = await this.read(scope, contextData);
		const output: IDeduplicationOutput = { new: [], processed: [] };
		for (const item of items) {
			if (store.includes(String(item))) {
				output.processed.push(item);
			} else {
				output.new.push(item);
				store.push(String(item));
			}
		}
		if (options.maxEntries) store.splice(0, Math.max(0, store.length - options.maxEntries));
		await this.write(scope, contextData, store);
		return output;
	}

	async removeProcessed(
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
	): Promise<void> {
		InMemoryDeduplicator.entriesOnly(options);
		const store = await this.read(scope, contextData);
		const removed = new Set(items.map(String));
		await this.write(scope, contextData, store.filter((value) => !removed.has(value)));
	}

	async clearAllProcessedItems(scope: DeduplicationScope, contextData: ICheckProcessedContextData): Promise<void> {
		this.stores.delete(InMemoryDeduplicator.rowOf(scope, contextData));
	}

	async getProcessedDataCount(scope: DeduplicationScope, contextData: ICheckProcessedContextData): Promise<number> {
		return (await this.read(scope, contextData)).length;
	}
}
