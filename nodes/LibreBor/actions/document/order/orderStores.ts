import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

export interface OrderOutcome {
	json: IDataObject;
	binary?: INodeExecutionData['binary'];
}

interface Ledger {
	/** Orders sent to LibreBOR in this workflow execution, by every run of the node. */
	sent: number;
	/** The outcome of each NIF and year ordered in this execution. */
	outcomes: Map<string, Promise<OrderOutcome>>;
	touchedAt: number;
}

const LEDGER_LIFETIME_MS = 24 * 60 * 60 * 1000;
const MAX_LEDGERS = 1000;
const ledgers = new Map<string, Ledger>();

function forget(now: number) {
	for (const [executionId, ledger] of ledgers) {
		if (ledgers.size <= MAX_LEDGERS && now - ledger.touchedAt < LEDGER_LIFETIME_MS) break;
		ledgers.delete(executionId);
	}
}

/**
 * What this workflow execution has ordered so far. It is kept per execution, not per node
 * run, so that a loop that runs the node again and again shares one order cap and never
 * orders the same document twice.
 */
export function orderLedger(executionId: string | undefined): Ledger {
	const now = Date.now();
	if (executionId === undefined) return { sent: 0, outcomes: new Map(), touchedAt: now };
	forget(now);
	let ledger = ledgers.get(executionId);
	if (ledger) ledgers.delete(executionId);
	ledger ??= { sent: 0, outcomes: new Map(), touchedAt: now };
	ledger.touchedAt = now;
	ledgers.set(executionId, ledger);
	return ledger;
}

export function orderKey(nif: string, year: number): string {
	return `${nif}/${year}`;
}
