import type { IPollFunctions } from 'n8n-workflow';

import type { PollState } from './pollState';

/** What the trigger keeps in this process's memory between polls, beside what n8n stores. */
export interface ActivationMemory {
	/**
	 * The state written by a poll when n8n had no stored state yet. n8n does not store what the
	 * first poll of an activation writes when it emits nothing (with durable poll cursors), nor,
	 * under its durable scheduler without them, what any poll writes that emits nothing; the next
	 * poll would otherwise take a new baseline and miss what arrived in between.
	 */
	unstoredState?: PollState;
	/** Set while a poll runs, so that a tick that starts before it ends does not emit twice. */
	polling: boolean;
}

/** Per context: n8n polls an active workflow through one context, unless its scheduler runs it. */
const polls = new WeakMap<IPollFunctions, { polling: boolean }>();
/** Per workflow and node: n8n's durable scheduler gives every poll a new context. */
const unstoredStates = new Map<string, PollState>();

export function activationMemoryOf(context: IPollFunctions): ActivationMemory {
	let poll = polls.get(context);
	if (!poll) {
		poll = { polling: false };
		polls.set(context, poll);
	}
	const triggerKey = `${String(context.getWorkflow().id ?? '')}#${context.getNode().id}`;
	const pollFlag = poll;
	return {
		get polling() {
			return pollFlag.polling;
		},
		set polling(value: boolean) {
			pollFlag.polling = value;
		},
		get unstoredState() {
			return unstoredStates.get(triggerKey);
		},
		set unstoredState(state: PollState | undefined) {
			if (state) unstoredStates.set(triggerKey, state);
			else unstoredStates.delete(triggerKey);
		},
	};
}
