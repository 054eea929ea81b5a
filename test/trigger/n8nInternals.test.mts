// The nodes' uses of what n8n does not offer nodes as an interface (run/n8nInternals.ts), held
// against the n8n-core the tests run: when n8n changes one of them, this file fails first.
import { PollContext, TriggerContext } from 'n8n-core';
import type { INodeExecutionData, IWorkflowExecuteAdditionalData } from 'n8n-workflow';
import {
	ManualExecutionCancelledError,
	TimeoutExecutionCancelledError,
	Workflow,
} from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import {
	interceptNextPollEmit,
	isTriggerContext,
	namesItsExecution,
	savedBeforeExecution,
} from '../../nodes/LibreBor/run/n8nInternals.ts';
import { LibreBorTrigger } from '../../nodes/LibreBor/LibreBorTrigger.node.ts';
import { HarnessNodeTypes } from '../../tools/engine/nodeTypes.mts';
import { buildNodeUnderTest } from '../../tools/engine/nodeUnderTest.mts';
import { triggerVersion } from '../../tools/engine/triggerSession.mts';

const node = buildNodeUnderTest({ nodeType: triggerVersion(1), parameters: {} });
const workflow = () =>
	new Workflow({
		id: 'workflow',
		nodes: [node],
		connections: {},
		active: true,
		nodeTypes: new HarnessNodeTypes().register(node.type, new LibreBorTrigger()),
		staticData: {},
	});
const additionalData = {} as IWorkflowExecuteAdditionalData;

describe("n8n's internals the nodes rely on", () => {
	it("finds the execution in n8n's error for one it cancelled, and in no other error", () => {
		expect(namesItsExecution(new ManualExecutionCancelledError('42'))).toBe(true);
		expect(namesItsExecution(new TimeoutExecutionCancelledError('42'))).toBe(true);
		expect(namesItsExecution(new Error('no execution'))).toBe(false);
		expect(namesItsExecution(undefined)).toBe(false);
	});

	it('tells a poll or trigger context by the emit function n8n gives it', () => {
		const poll = new PollContext(workflow(), node, additionalData, 'trigger', 'activate');
		const trigger = new TriggerContext(workflow(), node, additionalData, 'trigger', 'activate');
		expect([isTriggerContext(poll), isTriggerContext(trigger), isTriggerContext({})]).toEqual([
			true,
			true,
			false,
		]);
	});

	it("tells the workflow static data n8n saves by itself from a durable cursor's plain copy", () => {
		const staticData = workflow().getStaticData('node', node);
		expect(savedBeforeExecution(staticData)).toBe(true);
		expect(savedBeforeExecution(JSON.parse(JSON.stringify(staticData)))).toBe(false);
	});

	it("hands one emission to the interceptor and puts n8n's own __emit back", () => {
		const emitted: string[] = [];
		const emit = (data: INodeExecutionData[][]) => emitted.push(`n8n:${String(data[0][0].json.n)}`);
		const poll = new PollContext(workflow(), node, additionalData, 'trigger', 'activate', emit);
		interceptNextPollEmit(poll, (original, data) => {
			emitted.push('intercepted');
			original.call(poll, data);
		});
		// An interception n8n never called is replaced, not stacked.
		interceptNextPollEmit(poll, (original, data) => {
			emitted.push('intercepted again');
			original.call(poll, data);
		});
		poll.__emit([[{ json: { n: 1 } }]]);
		poll.__emit([[{ json: { n: 2 } }]]);
		expect(emitted).toEqual(['intercepted again', 'n8n:1', 'n8n:2']);
	});
});
