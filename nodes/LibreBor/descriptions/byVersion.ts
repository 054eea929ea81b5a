import type { DisplayCondition, INodeProperties } from 'n8n-workflow';

/**
 * One parameter, two definitions: version 1 of the node keeps what its saved workflows rely on
 * (plain-string identifiers, and its defaults: n8n leaves a parameter at its default out of the saved
 * workflow, so changing a default would change those workflows); version 2 has the resource locators
 * and the safer defaults. Same name, so the value is read the same way in both.
 */
export const byVersion = (
	version1: INodeProperties,
	version2: INodeProperties,
): INodeProperties[] => [
	{ ...version1, displayOptions: { show: { '@version': [1] } } },
	{ ...version2, displayOptions: { show: { '@version': [{ _cnd: { gte: 2 } }] } } },
];

/** A parameter or option that only version 2 of the node shows: version 1's saved workflows run on its default. */
export const fromVersion2 = (property: INodeProperties): INodeProperties => ({
	...property,
	displayOptions: { show: { '@version': [{ _cnd: { gte: 2 } }] } },
});

/**
 * Version 3 rules as `hide` rules, so that they hold whatever `show` rules an operation merges in
 * (an operation's own `@version` would otherwise replace them).
 */
const hiddenFor = (property: INodeProperties, rule: DisplayCondition): INodeProperties => ({
	...property,
	displayOptions: {
		...property.displayOptions,
		hide: { ...property.displayOptions?.hide, '@version': [rule] },
	},
});

/** Parameters that only version 3 of the node shows (the registry look-ups and what uses them). */
export const fromVersion3 = (properties: INodeProperties[]): INodeProperties[] =>
	properties.map((property) => hiddenFor(property, { _cnd: { lt: 3 } }));

/** Parameters that version 3 replaces: versions 1 and 2 keep them exactly as they were. */
export const beforeVersion3 = (properties: INodeProperties[]): INodeProperties[] =>
	properties.map((property) => hiddenFor(property, { _cnd: { gte: 3 } }));
