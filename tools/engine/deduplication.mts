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

/** A record call held at each step until the test lets it go on. */
export interface PausedRecord {
	/** Resolves once the call has read its row. */
	read: Promise<void>;
	/** Lets it write the row back; resolves once written. */
	write(): Promise<void>;
	/** Lets it answer the node. */
	answer(): void;
}

interface Pause {
	read: () => void;
	writing: Promise<void>;
	written: () => void;
	answering: Promise<void>;
}

interface Row {
	values: string[];
	/** Whether the row existed when it was read: n8n then updates it, else inserts it. */
	existed: boolean;
}

/**
 * n8n's deduplication store (packages/cli/src/deduplication: the `processed_data` table) for the
 * "entries" mode, kept in this test process: per workflow and scope, the newest `maxEntries`
 * values, written at once. As n8n's DeduplicationHelper does, every call reads the row, then
 * writes it back whole, without a lock: two calls at the same moment can lose one's entries.
 * A row that was missing is inserted, and the insert fails if another call inserted it
 * meanwhile (the table's primary key). A node's helpers.checkProcessedAndRecord and
 * removeProcessed reach it through n8n-core's DataDeduplicationService, as in n8n.
 */
export class InMemoryDeduplicator implements IDataDeduplicator {
	private readonly stores = new Map<string, string[]>();
	private together?: { reads: number; allRead: Promise<void>; release: () => void };
	private paused?: Pause;

	/**
	 * The next `reads` calls all read their row before any of them writes it back: the
	 * interleaving in which n8n's store loses entries.
	 */
	readTogether(reads: number): void {
		let release = () => {};
		const allRead = new Promise<void>((resolve) => (release = resolve));
		this.together = { reads, allRead, release };
	}

	/**
	 * The next checkProcessedAndRecord call, step by step: a worker or database that is slow
	 * between reading the row and writing it back, or in answering after the write.
	 */
	pauseNextRecord(): PausedRecord {
		const gate = () => {
			let open = () => {};
			return { opened: new Promise<void>((resolve) => (open = resolve)), open: () => open() };
		};
		const [read, writing, written, answering] = [gate(), gate(), gate(), gate()];
		this.paused = {
			read: read.open,
			writing: writing.opened,
			written: written.open,
			answering: answering.opened,
		};
		return {
			read: read.opened,
			write: async () => {
				writing.open();
				await written.opened;
			},
			answer: answering.open,
		};
	}

	/** Every value the store holds for a workflow, in all its rows, as n8n's table keeps them. */
	valuesOfWorkflow(workflowId: string): string[] {
		return [...this.stores]
			.filter(([row]) => row.startsWith(`${workflowId}|`))
			.flatMap(([, values]) => values);
	}

	private static rowOf(scope: DeduplicationScope, contextData: ICheckProcessedContextData): string {
		return `${contextData.workflow.id}|${scope === 'node' ? `n:${contextData.node?.id}` : ''}`;
	}

	private async read(
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
	): Promise<Row> {
		const stored = this.stores.get(InMemoryDeduplicator.rowOf(scope, contextData));
		const row = { values: [...(stored ?? [])], existed: stored !== undefined };
		await roundTrip();
		const together = this.together;
		if (together) {
			if (--together.reads === 0) {
				this.together = undefined;
				together.release();
			}
			await together.allRead;
		}
		return row;
	}

	private async write(
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
		row: Row,
	) {
		await roundTrip();
		const key = InMemoryDeduplicator.rowOf(scope, contextData);
		if (!row.existed && this.stores.has(key)) {
			throw new Error('duplicate key value violates unique constraint "PK_processed_data"');
		}
		this.stores.set(key, row.values);
	}

	private static entriesOnly(options: ICheckProcessedOptions) {
		if (options.mode !== 'entries')
			throw new Error(`The test store keeps entries only, not ${options.mode}`);
	}

	async checkProcessedAndRecord(
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
	): Promise<IDeduplicationOutput> {
		InMemoryDeduplicator.entriesOnly(options);
		const paused = this.paused;
		this.paused = undefined;
		const row = await this.read(scope, contextData);
		paused?.read();
		await paused?.writing;
		const store = row.values;
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
		try {
			await this.write(scope, contextData, row);
		} finally {
			paused?.written();
		}
		await paused?.answering;
		return output;
	}

	async removeProcessed(
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
	): Promise<void> {
		InMemoryDeduplicator.entriesOnly(options);
		const row = await this.read(scope, contextData);
		// n8n leaves a missing row missing.
		if (!row.existed) return;
		const removed = new Set(items.map(String));
		await this.write(scope, contextData, {
			...row,
			values: row.values.filter((value) => !removed.has(value)),
		});
	}

	async clearAllProcessedItems(
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
	): Promise<void> {
		this.stores.delete(InMemoryDeduplicator.rowOf(scope, contextData));
	}

	async getProcessedDataCount(
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
	): Promise<number> {
		return (await this.read(scope, contextData)).values.length;
	}
}
