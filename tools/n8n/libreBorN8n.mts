import type { INodeParameters } from 'n8n-workflow';

import { packageName } from '../packageName.mts';
import type { Simulator } from '../simulator/index.mts';
import { noOp, workflow, type WorkflowNode } from './workflowBuilder.mts';

export const libreBorNodeType = `${packageName}.libreBor`;
export const libreBorTriggerNodeType = `${packageName}.libreBorTrigger`;

/** The credential id and name the workflows in examples/ refer to. */
export const libreBorCredentialRef = { id: 'librebor-credential', name: 'LibreBOR API' };

/** A LibreBOR API credential for `n8n import:credentials`, pointing at a simulator. */
export function libreBorCredential(
	sim: Pick<Simulator, 'baseUrl' | 'credentials'>,
	ref: { id: string; name: string } = libreBorCredentialRef,
): object {
	return {
		...ref,
		type: 'libreBorApi',
		data: {
			environment: 'custom',
			baseUrl: sim.baseUrl,
			username: sim.credentials.username,
			password: sim.credentials.password,
		},
	};
}

/** The ways the password could show: as itself, or inside a Basic authorization header. */
export function passwordForms(sim: Simulator): string[] {
	const { username, password } = sim.credentials;
	return [password, Buffer.from(`${username}:${password}`).toString('base64')];
}

type Credential = { id: string; name: string };

/** A LibreBOR action node using the test credential. */
export function libreBor(
	name: string,
	parameters: INodeParameters,
	settings: Pick<WorkflowNode, 'executeOnce' | 'onError'> & { credential?: Credential } = {},
): WorkflowNode {
	const { credential = libreBorCredentialRef, ...nodeSettings } = settings;
	return {
		name,
		type: libreBorNodeType,
		typeVersion: 1,
		parameters,
		credentials: { libreBorApi: credential },
		...nodeSettings,
	};
}

/**
 * Poll Times at seconds 0, 20 and 40 of each minute: each fires once a minute, as n8n asks of a
 * poll time, so that a scheduled poll comes every 20 s for the tests that wait for one.
 */
const POLL_EVERY_20_SECONDS = {
	item: [0, 20, 40].map((second) => ({ mode: 'custom', cronExpression: `${second} * * * * *` })),
};

/** A LibreBOR Trigger polling every minute (the shortest interval n8n allows), unless told otherwise. */
export function libreBorTrigger(
	name: string,
	parameters: INodeParameters,
	credential = libreBorCredentialRef,
	typeVersion = 2,
): WorkflowNode {
	return {
		name,
		type: libreBorTriggerNodeType,
		typeVersion,
		parameters: { pollTimes: { item: [{ mode: 'everyMinute' }] }, ...parameters },
		credentials: { libreBorApi: credential },
	};
}

/** A LibreBOR Trigger (polling every 20 s) into a No Op, in a workflow of its own credential. */
export const triggerWorkflow = (
	target: { workflowId: string; credential: { id: string; name: string } },
	parameters: INodeParameters,
	trigger = 'New Alert',
) =>
	workflow(
		target.workflowId,
		`LibreBOR Trigger ${target.workflowId}`,
		[
			libreBorTrigger(
				trigger,
				{ pollTimes: POLL_EVERY_20_SECONDS, ...parameters },
				target.credential,
			),
			noOp('Received'),
		],
		[[trigger, 'Received']],
	);
