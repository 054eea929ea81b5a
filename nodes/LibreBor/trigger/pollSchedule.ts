import {
	NodeHelpers,
	NodeOperationError,
	toCronExpression,
	type CronExpression,
	type INodeProperties,
	type ITriggerFunctions,
	type TriggerTime,
} from 'n8n-workflow';

/** Poll Times, as n8n adds them to its own polling nodes. */
export const pollTimesProperty: INodeProperties = {
	displayName: 'Poll Times',
	name: 'pollTimes',
	type: 'fixedCollection',
	typeOptions: { multipleValues: true, multipleValueButtonText: 'Add Poll Time' },
	default: { item: [{ mode: 'everyMinute' }] },
	description: 'Time at which polling should occur',
	placeholder: 'Add Poll Time',
	options: NodeHelpers.cronNodeOptions,
};

/** A cron expression with seconds (six fields) fires more than once a minute unless its seconds are one number. */
const firesEverySeconds = (expression: string) => {
	const fields = expression.trim().split(/\s+/);
	return fields.length === 6 && !/^\d+$/.test(fields[0]);
};

/** The node's Poll Times as cron expressions; like n8n's own poll triggers, no more than once a minute. */
export function readPollTimes(context: ITriggerFunctions): CronExpression[] {
	const pollTimes = context.getNodeParameter('pollTimes', {}) as { item?: TriggerTime[] };
	const expressions = (pollTimes.item ?? []).map(toCronExpression);
	if (expressions.some(firesEverySeconds))
		throw new NodeOperationError(
			context.getNode(),
			'The polling interval is too short. It has to be at least a minute.',
		);
	return expressions;
}

/** Starts `poll` at each of these times with n8n's cron helper, which n8n stops on deactivation. */
export function schedulePolls(
	context: ITriggerFunctions,
	expressions: CronExpression[],
	poll: () => Promise<void>,
): void {
	for (const expression of expressions) context.helpers.registerCron({ expression }, poll);
}
