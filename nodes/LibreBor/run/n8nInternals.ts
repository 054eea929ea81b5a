import type { IDataObject, IPollFunctions } from 'n8n-workflow';

/**
 * Every use the nodes make of what n8n does not offer nodes as an interface, in one place, each
 * pinned by test/trigger/n8nInternals.test.mts against the n8n the tests run: a change of n8n
 * that breaks one fails that test first.
 */

type Emit = IPollFunctions['__emit'];

/** What n8n settles once the execution of an emission is created and finished, or not created. */
export type EmissionDone = NonNullable<Parameters<Emit>[2]>;

const INTERCEPTED = Symbol('librebor.interceptedEmit');

type InterceptedEmit = Emit & { [INTERCEPTED]?: Emit };

/** Whether a node context is a trigger's (a poll node's or a trigger node's), by what n8n gives it. */
export function isTriggerContext(context: object): boolean {
	return '__emit' in context || 'emit' in context;
}

/**
 * Whether n8n saves this static data before it creates the execution of what a poll emits (its
 * workflow static data, an object it watches for changes), rather than committing it in that
 * execution's transaction (a durable poll cursor, handed to the node as a plain copy).
 */
export function savedBeforeExecution(staticData: IDataObject): boolean {
	return '__dataChanged' in staticData;
}

/**
 * Whether an error n8n rejects an emission's done promise with names the execution it created (an
 * execution cancelled, or ended before its end was awaited): n8n's own errors keep its id in `extra`.
 */
export function namesItsExecution(error: unknown): boolean {
	return (error as { extra?: IDataObject | null } | undefined)?.extra?.executionId !== undefined;
}

/**
 * Hands the next emission of a poll to `intercept` before n8n's own `__emit`, once: the first call
 * puts n8n's back. An interception left by an emission n8n dropped is replaced, never stacked.
 */
export function interceptNextPollEmit(
	context: IPollFunctions,
	intercept: (original: Emit, ...args: Parameters<Emit>) => void,
): void {
	const current = context.__emit as InterceptedEmit;
	const original = current[INTERCEPTED] ?? current;
	const wrapper: InterceptedEmit = (...args) => {
		context.__emit = original;
		intercept(original, ...args);
	};
	wrapper[INTERCEPTED] = original;
	context.__emit = wrapper;
}
