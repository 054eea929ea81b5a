import Module, { createRequire } from 'node:module';
import path from 'node:path';

import type { INode, INodeParameters, INodeProperties, INodeType, INodeTypes } from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { libreBorNodeType } from '../../tools/n8n/libreBorN8n.mts';
import { packageName } from '../../tools/packageName.mts';
import { createN8nWithLibreBor } from './n8nWithLibreBor.mts';
import type { N8nUserFolder } from '../../tools/n8n/n8nUserFolder.mts';

const setupTimeoutMs = 600_000;

const toolNodeType = `${libreBorNodeType}Tool`;

interface N8nCode {
	/** n8n's node registry: turns a node with `usableAsTool` into its `...Tool` twin on demand. */
	nodeTypes: INodeTypes;
	/** n8n-workflow's Workflow, which fills in the parameters' defaults as every execution does. */
	Workflow: new (parameters: {
		id: string;
		nodes: INode[];
		connections: object;
		active: boolean;
		nodeTypes: INodeTypes;
	}) => {
		getNode(name: string): INode | null;
	};
	/** n8n-core's createNodeAsTool: the tool the AI Agent hands to its model and the MCP Server Trigger lists. */
	createNodeAsTool(options: {
		node: INode;
		nodeType: INodeType;
		handleToolInvocation: () => Promise<unknown>;
	}): {
		response: { name: string; description: string };
	};
}

/**
 * n8n's own modules, from the installed n8n, loading the packed package from the user folder as
 * n8n loads a community package. Only the registry of loaded packages is reduced to this one.
 */
async function loadN8nCode(folder: N8nUserFolder): Promise<N8nCode> {
	const n8nRequire = createRequire(
		path.join(folder.installation.home, 'node_modules', 'n8n', 'package.json'),
	);
	// As n8n does when it starts, so that a community package's `n8n-workflow` is n8n's own.
	process.env.NODE_PATH = n8nRequire.resolve.paths('n8n-workflow')?.join(path.delimiter);
	(Module as unknown as { _initPaths(): void })._initPaths();
	const { PackageDirectoryLoader } = n8nRequire('n8n-core');
	const { NodeTypes } = n8nRequire('./dist/node-types.js');
	const { createNodeAsTool } = n8nRequire(
		'n8n-core/dist/execution-engine/node-execution-context/utils/create-node-as-tool.js',
	);
	const { Workflow } = n8nRequire('n8n-workflow');

	const loader = new PackageDirectoryLoader(
		path.join(folder.nodesFolder, 'node_modules', packageName),
	);
	await loader.loadAll();
	const ofThisPackage = (fullType: string) => {
		const [ofPackage, nodeType] = fullType.split('.');
		return ofPackage === packageName ? nodeType : undefined;
	};
	const loadNodesAndCredentials = {
		loadedNodes: {},
		recognizesNode: (fullType: string) => (ofThisPackage(fullType) ?? '') in loader.known.nodes,
		getNode: (fullType: string) => loader.getNode(ofThisPackage(fullType)),
	};
	const logger = { warn: () => undefined };
	return { nodeTypes: new NodeTypes(logger, loadNodesAndCredentials), Workflow, createNodeAsTool };
}

/** What a model reads about a LibreBOR tool node with these parameters, built by n8n. */
function toolDescriptionOf(n8n: N8nCode, typeVersion: number, parameters: INodeParameters): string {
	const node: INode = {
		id: 'c0ffee00-0000-4000-8000-000000000001',
		name: 'LibreBOR',
		type: toolNodeType,
		typeVersion,
		position: [0, 0],
		parameters,
	};
	const workflow = new n8n.Workflow({
		id: 'toolDescriptions',
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: n8n.nodeTypes,
	});
	const withDefaults = workflow.getNode(node.name);
	if (!withDefaults) throw new Error('The workflow lost its node');
	const tool = n8n.createNodeAsTool({
		node: withDefaults,
		nodeType: n8n.nodeTypes.getByNameAndVersion(toolNodeType, typeVersion),
		handleToolInvocation: async () => '',
	});
	return tool.response.description;
}

/** Every resource and operation version 2 of the node offers, read from its description as n8n loaded it. */
function everyOperation(n8n: N8nCode): Array<{ resource: string; operation: string }> {
	const { properties } = n8n.nodeTypes.getByNameAndVersion(libreBorNodeType, 2).description;
	const forVersion2 = (property: INodeProperties) =>
		!property.displayOptions?.show?.['@version']?.includes(1);
	const values = (property?: INodeProperties) =>
		(property?.options ?? []).map((option) => String((option as { value: unknown }).value));
	return values(properties.find((property) => property.name === 'resource')).flatMap((resource) =>
		values(
			properties.find(
				(property) =>
					property.name === 'operation' &&
					property.displayOptions?.show?.resource?.includes(resource) &&
					forVersion2(property),
			),
		).map((operation) => ({ resource, operation })),
	);
}

/** Each description speaks of what its resource is about, so that no operation gets another's text. */
const aboutResource: Record<string, RegExp> = {
	alert: /alerts?\b/,
	watchlist: /watch list/,
	document: /document_id/,
	company: /compan(y|ies)\b.*registry|registry.*compan(y|ies)\b/,
	person: /\b(person|people)\b/,
	nif: /\bNIF\b/,
};

describe('what a model reads about each LibreBOR tool (n8n 2.41.1 builds it, for the AI Agent and the MCP Server Trigger)', () => {
	let folder: N8nUserFolder;
	let n8n: N8nCode;

	beforeAll(async () => {
		folder = await createN8nWithLibreBor();
		n8n = await loadN8nCode(folder);
	}, setupTimeoutMs);

	afterAll(async () => {
		await folder?.remove();
	});

	it('the order tool says it spends the prepaid balance and that the same NIF and year ordered again is not paid again', () => {
		for (const typeVersion of [1, 2, 3]) {
			const description = toolDescriptionOf(n8n, typeVersion, {
				resource: 'document',
				operation: 'order',
			});

			expect(description).toMatch(/^Spends money/);
			expect(description).toMatch(/prepaid balance/);
			expect(description).toMatch(/same NIF and year .* is not paid again/);
		}
	});

	it('every other tool says what it does and that it does not spend the balance', () => {
		const operations = everyOperation(n8n);
		expect(operations).toHaveLength(10);
		expect(operations).toContainEqual({ resource: 'watchlist', operation: 'sync' });
		for (const { resource, operation } of operations.filter(
			({ operation }) => operation !== 'order',
		)) {
			const description = toolDescriptionOf(n8n, 2, { resource, operation });

			// n8n's automatic description, "<action> in LibreBOR", is what a node without its own gets.
			expect(description, `${resource} ${operation}`).not.toMatch(/ in LibreBOR$/);
			expect(description, `${resource} ${operation}`).toMatch(aboutResource[resource]);
			expect(description, `${resource} ${operation}`).toMatch(/does not spend the prepaid balance/);
		}
	});

	it('the registry look-ups of version 3 each say what they read, that they change nothing and spend nothing; version 2 has none', () => {
		const lookUps = [
			{ resource: 'company', operation: 'search' },
			{ resource: 'company', operation: 'get' },
			{ resource: 'company', operation: 'getIncorporation' },
			{ resource: 'person', operation: 'search' },
			{ resource: 'person', operation: 'get' },
			{ resource: 'nif', operation: 'getInfo' },
		];
		for (const { resource, operation } of lookUps) {
			const description = toolDescriptionOf(n8n, 3, { resource, operation });

			expect(description, `${resource} ${operation}`).toMatch(aboutResource[resource]);
			expect(description, `${resource} ${operation}`).toMatch(
				/Read-only: it changes nothing\. It does not spend the prepaid balance\.$/,
			);
		}
		expect(everyOperation(n8n).map(({ resource }) => resource)).not.toContain('company');
	});

	it('Follow, Unfollow, Sync and Order of version 3 say a company is given by NIF or slug; version 2 keeps its text', () => {
		for (const [resource, operation] of [
			['watchlist', 'follow'],
			['watchlist', 'unfollow'],
			['watchlist', 'sync'],
			['document', 'order'],
		]) {
			const version3 = toolDescriptionOf(n8n, 3, { resource, operation });
			const version2 = toolDescriptionOf(n8n, 2, { resource, operation });

			expect(version3, `${resource} ${operation}`).toMatch(/its NIF .* or its slug/);
			expect(version3, `${resource} ${operation}`).toMatch(/knows no NIF for is refused/);
			expect(version2, `${resource} ${operation}`).not.toMatch(/slug/);
		}
	});

	it('the alert Get Many tool of version 2 tells of act categories and person changes, and Sync of its safeguards; version 1 keeps its own text', () => {
		const getMany = { resource: 'alert', operation: 'getMany' };
		const version2 = toolDescriptionOf(n8n, 2, getMany);
		const version1 = toolDescriptionOf(n8n, 1, getMany);

		expect(version2).toMatch(/its category \(officers, .*distress or other\)/);
		expect(version2).toMatch(/one item per person change/);
		expect(version1).not.toMatch(/categor/);
		expect(version1).toMatch(/^Lists the unread LibreBOR alerts/);
		expect(toolDescriptionOf(n8n, 2, { resource: 'watchlist', operation: 'sync' })).toMatch(
			/only with Unfollow Others on.*Max Unfollows.*Dry Run/,
		);
	});

	it('a description the user wrote replaces the default', () => {
		const written = 'Orders the accounts of our suppliers only.';

		expect(
			toolDescriptionOf(n8n, 2, {
				resource: 'document',
				operation: 'order',
				toolDescription: written,
			}),
		).toBe(written);
	});

	it('the node outside an AI tool has no Description parameter', () => {
		const workflow = new n8n.Workflow({
			id: 'plainNode',
			nodes: [
				{
					id: 'n',
					name: 'LibreBOR',
					type: libreBorNodeType,
					typeVersion: 2,
					position: [0, 0],
					parameters: { resource: 'document', operation: 'order' },
				},
			],
			connections: {},
			active: false,
			nodeTypes: n8n.nodeTypes,
		});

		expect(workflow.getNode('LibreBOR')?.parameters).not.toHaveProperty('toolDescription');
	});
});
