import { NodeOperationError, type INode } from 'n8n-workflow';

interface NumericOptionRule {
	/** The option's name as the user sees it in the editor. */
	label: string;
	/** Used when the option is not set. */
	fallback: number;
	minimum: number;
	/** Values above it are lowered to it (the editor's own maximum). */
	maximum?: number;
	/** What happens to the run when the value is refused, e.g. "Nothing was sent." */
	consequence?: string;
}

/**
 * A number option as the editor would have allowed it. The editor enforces the minimum, but an
 * expression can give anything: an empty string, "abc", 0 or -5 would otherwise turn into NaN or a
 * timeout of zero, which silently lifts a limit. Such values are refused with a message that names
 * the option; values above the maximum are lowered to it.
 */
export function readNumericOption(
	node: INode,
	raw: unknown,
	rule: NumericOptionRule,
	itemIndex?: number,
): number {
	if (raw === undefined || raw === null) return rule.fallback;
	const value =
		typeof raw === 'number'
			? raw
			: typeof raw === 'string' && raw.trim() !== ''
				? Number(raw)
				: NaN;
	if (!Number.isFinite(value) || value < rule.minimum) {
		const consequence = rule.consequence ?? 'Nothing was sent.';
		throw new NodeOperationError(
			node,
			`"${rule.label}" must be a number of at least ${rule.minimum}, not "${String(raw).slice(0, 40)}"`,
			{
				itemIndex,
				description: `${consequence} Set "${rule.label}" in the node options to a number of at least ${rule.minimum} (default ${rule.fallback}), or fix the expression that sets it.`,
			},
		);
	}
	return rule.maximum === undefined ? value : Math.min(rule.maximum, value);
}

/** The longest delay a timer holds (about 24.8 days): Node fires a longer one at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Seconds from an option as a delay that timers accept: whole milliseconds, at most MAX_TIMER_MS. */
export function secondsToTimerMs(seconds: number): number {
	return Math.min(MAX_TIMER_MS, Math.max(1, Math.round(seconds * 1000)));
}
