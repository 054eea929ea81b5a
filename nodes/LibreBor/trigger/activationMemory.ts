import type { IPollFunctions } from 'n8n-workflow';

import type { PollState } from './pollState';

/**
 * What the trigger keeps in memory for the rest of one activation. n8n polls an active
 * workflow through one context object, so the context is the key; a new activation or a
 * restart starts afresh.
 */
export interface ActivationMemory {
	/**
	 * The state written by a poll when n8n had no stored state yet. n8n does not store what the
	 * first poll of an activation writes when it emits nothing (with durable poll cursors), and
	 * the next poll would otherwise take a new baseline and miss what arrived in between.
	 */
	unstoredState?: PollState;
	/** Set while a poll runs, so that a tick that starts before it ends does not emit twice. */
	polling: boolean;
}

const memories = new WeakMap<IPollFunctions, ActivationMemory>();

export function activationMemoryOf(context: IPollFunctions): ActivationMemory {
	let memory = memories.get(context);
	if (!memory) {
		memory = { polling: false };
		memories.set(context, memory);
	}
	return memory;
}
