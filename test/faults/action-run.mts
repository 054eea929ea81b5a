import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { LibreBor } from '../../nodes/LibreBor/LibreBor.node.ts';
import { runAction, type ActionResult } from '../../tools/engine/index.mts';
import type { Simulator } from '../../tools/simulator/index.mts';
import { credentialsFor, visibleText } from '../support/libreBor.mts';
import { duplicateOrderProblems, errorText, secretProblems } from './checks.mts';
import type { Problem } from './fault-case.mts';

export interface ActionInput {
	parameters: INodeParameters;
	items?: IDataObject[];
	continueOnFail?: boolean;
}

export async function runLibreBorAction(sim: Simulator, input: ActionInput): Promise<ActionResult> {
	return await runAction({
		nodeType: new LibreBor(),
		parameters: input.parameters,
		credentials: credentialsFor(sim),
		items: input.items,
		continueOnFail: input.continueOnFail,
	});
}

/** The error the run failed with, or the first error item when "continue on fail" kept it going. */
export const firstError = (result: ActionResult): unknown =>
	result.error ?? result.items.find((item) => item.error)?.error;

/** What holds for every case, whatever the fault: no password anywhere, no order sent twice. */
export function invariantProblems(sim: Simulator, result: ActionResult): Problem[] {
	const text = visibleText(result) + errorText(result.engineError);
	return [...secretProblems(text, sim.credentials.password), ...duplicateOrderProblems(sim)];
}
