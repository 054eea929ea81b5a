// The string literals Stryker leaves alone: the text a person reads (an error's message and
// description, a warning, a label in a list), which the tests check where a user reads it. Every
// other string is mutated like any other code: a status or kind compared or returned ('stored',
// 'send', 'retry'), a parameter's name, a path, a header, a separator that a key or a hash is
// built with. Registered in stryker.config.mjs as the ignorer `message-strings`.
import { declareValuePlugin, PluginKind } from '@stryker-mutator/api/plugin';

/** What the ignorer reads of Babel's node paths (the instrumenter hands it @babel/traverse's). */
interface SyntaxNode {
	type: string;
	value?: unknown;
	operator?: string;
	quasis?: Array<{ value: { raw: string; cooked?: string | null } }>;
	callee?: SyntaxNode;
	property?: SyntaxNode;
	key?: SyntaxNode;
	name?: string;
}
interface SyntaxPath {
	node: SyntaxNode;
	parentPath: SyntaxPath | null;
}

/** The literal text of a string or template literal (without what its `${}` parts give). */
function literalText(node: SyntaxNode): string | undefined {
	if (node.type === 'StringLiteral') return String(node.value);
	if (node.type === 'TemplateLiteral')
		return node.quasis?.map((quasi) => quasi.value.cooked ?? quasi.value.raw).join('');
	return undefined;
}

/** Words with spaces between them: prose, not a key, a kind, a path or a separator. */
export function isProse(node: SyntaxNode): boolean {
	const text = literalText(node);
	return text !== undefined && /\s/.test(text) && /\p{L}/u.test(text);
}

const isJoin = (node: SyntaxNode) =>
	node.type === 'CallExpression' &&
	node.callee?.type === 'MemberExpression' &&
	node.callee.property?.name === 'join';

/** The expressions that put one text together from parts: a part of a message is message too. */
const buildsText = (node: SyntaxNode) =>
	node.type === 'TemplateLiteral' ||
	(node.type === 'BinaryExpression' && node.operator === '+') ||
	node.type === 'ConditionalExpression' ||
	node.type === 'LogicalExpression' ||
	node.type === 'ParenthesizedExpression' ||
	isJoin(node);

const COMPARISONS = new Set(['===', '!==', '==', '!=', 'in']);

const SEARCHES = new Set(['includes', 'startsWith', 'endsWith']);

/** A literal compared with a value, searched for, or a switch's case decides what runs, prose or not. */
function decides({ parentPath }: SyntaxPath): boolean {
	const parent = parentPath?.node;
	if (!parent) return false;
	if (parent.type === 'BinaryExpression') return COMPARISONS.has(parent.operator ?? '');
	if (parent.type === 'CallExpression' || parent.type === 'OptionalCallExpression') {
		const { callee } = parent;
		return SEARCHES.has(callee?.property?.name ?? '');
	}
	return parent.type === 'SwitchCase';
}

/** The literals directly inside a text-building expression. */
function partsOf(node: SyntaxNode): SyntaxNode[] {
	return Object.values(node).filter(
		(value): value is SyntaxNode =>
			typeof value === 'object' && value !== null && literalText(value as SyntaxNode) !== undefined,
	);
}

/**
 * Whether a string or template literal is message text: prose itself, or a part (a separator, an
 * empty fallback) of a text that holds prose.
 */
export function isMessageText(path: SyntaxPath): boolean {
	if (literalText(path.node) === undefined || decides(path)) return false;
	if (isProse(path.node)) return true;
	let outer = path.parentPath;
	for (; outer && buildsText(outer.node); outer = outer.parentPath) {
		if (isProse(outer.node) || partsOf(outer.node).some(isProse)) return true;
	}
	return outer !== null && isMessageSink(outer.node);
}

const nameOf = (node: SyntaxNode | undefined) => node?.name ?? node?.property?.name ?? '';

/** Where a text goes to be read: an error built from it, a message or description field. */
function isMessageSink(node: SyntaxNode): boolean {
	if (node.type === 'NewExpression' || node.type === 'CallExpression')
		return /Error$/i.test(nameOf(node.callee));
	return node.type === 'ObjectProperty' && /^(message|description)$/.test(nameOf(node.key));
}

export const strykerPlugins = [
	declareValuePlugin(PluginKind.Ignore, 'message-strings', {
		shouldIgnore: (path: unknown) =>
			isMessageText(path as SyntaxPath)
				? 'Message text: checked where a user reads it (scripts/mutation/messageStrings.mts)'
				: undefined,
	}),
];
