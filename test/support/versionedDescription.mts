import type { INodeProperties, INodeTypeDescription } from 'n8n-workflow';

type VersionRule =
	| number
	| { _cnd: Record<string, number | [number, number] | { from: number; to: number }> };

/** Whether one value of a `@version` display rule admits the version, as n8n reads it. */
function ruleAdmits(rule: VersionRule, version: number): boolean {
	if (typeof rule === 'number') return rule === version;
	return Object.entries(rule._cnd).every(([condition, value]) => {
		if (Array.isArray(value)) return version >= value[0] && version <= value[1];
		if (typeof value === 'object') return version >= value.from && version <= value.to;
		if (condition === 'eq') return version === value;
		if (condition === 'not') return version !== value;
		if (condition === 'gte') return version >= value;
		if (condition === 'gt') return version > value;
		if (condition === 'lte') return version <= value;
		if (condition === 'lt') return version < value;
		throw new Error(`Unknown @version condition ${condition}`);
	});
}

/** What is left of a display rule once its `@version` part is settled; null when it hides the property. */
function settle(
	property: INodeProperties,
	version: number,
): INodeProperties['displayOptions'] | null {
	const { show, hide, ...rest } = property.displayOptions ?? {};
	const shownRules = show?.['@version'] as VersionRule[] | undefined;
	const hiddenRules = hide?.['@version'] as VersionRule[] | undefined;
	if (shownRules && !shownRules.some((rule) => ruleAdmits(rule, version))) return null;
	if (hiddenRules?.some((rule) => ruleAdmits(rule, version))) return null;
	const without = (rules?: Record<string, unknown>) => {
		if (!rules) return undefined;
		const { '@version': _settled, ...others } = rules;
		return Object.keys(others).length > 0 ? others : undefined;
	};
	const settled = { ...rest, show: without(show), hide: without(hide) };
	const kept = Object.fromEntries(
		Object.entries(settled).filter(([, value]) => value !== undefined),
	);
	return Object.keys(kept).length > 0 ? (kept as INodeProperties['displayOptions']) : undefined;
}

function propertiesOf(properties: INodeProperties[], version: number): INodeProperties[] {
	return properties.flatMap((property) => {
		const displayOptions = settle(property, version);
		if (displayOptions === null) return [];
		const { displayOptions: _rule, ...rest } = property;
		const shown: INodeProperties = displayOptions ? { ...rest, displayOptions } : { ...rest };
		if (property.type === 'collection' && Array.isArray(property.options))
			shown.options = propertiesOf(property.options as INodeProperties[], version);
		return [shown];
	});
}

/**
 * The node's description as a node of one type version sees it: the properties shown for that
 * version (with their `@version` rules settled), everything else as it is. Two descriptions that
 * give the same for a version look and behave the same for its saved workflows.
 */
export function descriptionForVersion(
	description: INodeTypeDescription,
	version: number,
): INodeTypeDescription {
	return JSON.parse(
		JSON.stringify({ ...description, properties: propertiesOf(description.properties, version) }),
	) as INodeTypeDescription;
}
