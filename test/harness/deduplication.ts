import type {
	DeduplicationItemTypes,
	DeduplicationScope,
	ICheckProcessedContextData,
	ICheckProcessedOptions,
	IDataDeduplicator,
	IDeduplicationOutput,
} from 'n8n-workflow';

/**
 * n8n's deduplication store (packages/cli/src/deduplication: the `processed_data` table) for the
 * "entries" mode, kept in this test process: per workflow and scope, the newest `maxEntries`
 * values, written at once. A node's helpers.checkProcessedAndRecord and removeProcessed reach it
 * through n8n-core's DataDeduplicationService, as in n8n.
 */
export class InMemoryDeduplicator implements IDataDeduplicator {
	private readonly stores = new Map<string, string[]>();

	private storeOf(scope: DeduplicationScope, contextData: ICheckProcessedContextData): string[] {
		const key = `${contextData.workflow.id}|${scope === 'node' ? `n:${contextData.node?.id}` : ''}`;
		let store = this.stores.get(key);
		if (!store) this.stores.set(key, (store = []));
		return store;
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
		const store = this.storeOf(scope, contextData);
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
		return output;
	}

	async removeProcessed(
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
	): Promise<void> {
		InMemoryDeduplicator.entriesOnly(options);
		const store = this.storeOf(scope, contextData);
		const removed = new Set(items.map(String));
		store.splice(0, store.length, ...store.filter((value) => !removed.has(value)));
	}

	async clearAllProcessedItems(scope: DeduplicationScope, contextData: ICheckProcessedContextData): Promise<void> {
		this.storeOf(scope, contextData).length = 0;
	}

	async getProcessedDataCount(scope: DeduplicationScope, contextData: ICheckProcessedContextData): Promise<number> {
		return this.storeOf(scope, contextData).length;
	}
}
