import { NodeOperationError, type IExecuteFunctions, type INode } from 'n8n-workflow';

export interface ToggleRule {
	/** The option's name as the user sees it in the editor. */
	label: string;
	/** Used when the option is not set, or an expression gives nothing. */
	fallback: boolean;
	/** What happens to the run when the value is refused, e.g. "Nothing was read." */
	consequence: string;
}

/**
 * An on/off option as the editor would have allowed it. An expression can give a text instead (a
 * webhook's query value, say): "true" and "false" are read as such, and anything else is refused
 * with a message that names the option; never taken for off, so that a Dry Run set to "true"
 * changes nothing.
 */
export function readToggle(
	node: INode,
	raw: unknown,
	rule: ToggleRule,
	itemIndex?: number,
): boolean {
	if (raw === undefined || raw === null) return rule.fallback;
	if (typeof raw === 'boolean') return raw;
	const text = typeof raw === 'string' ? raw.trim().toLowerCase() : '';
	if (text === 'true' || text === 'false') return text === 'true';
	throw new NodeOperationError(
		node,
		`"${rule.label}" must be true or false, not "${String(raw).slice(0, 40)}"`,
		{
			itemIndex,
			description: `${rule.consequence} Turn "${rule.label}" on or off in the node, or fix the expression that sets it so that it gives true or false.`,
		},
	);
}

/** An on/off parameter of the action node, by its path (`options.dryRun`), read as `readToggle` reads it. */
export function readToggleParameter(
	context: IExecuteFunctions,
	path: string,
	rule: ToggleRule,
	itemIndex = 0,
): boolean {
	const raw = context.getNodeParameter(path, itemIndex, rule.fallback);
	return readToggle(context.getNode(), raw, rule, itemIndex);
}
