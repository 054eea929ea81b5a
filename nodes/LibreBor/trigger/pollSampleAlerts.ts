import { NodeOperationError, type INode, type INodeExecutionData } from 'n8n-workflow';

import { listUnreadAlerts } from '../api/alerts';
import { hasAlertFilter } from '../alerts/alertFilter';
import type { PollingFunctions } from '../run/nodeRun';
import { itemsForAlert, oldestFirst } from './alertItems';
import type { TriggerSettings } from './settings';

/** How many of the most recent alerts a test run shows. */
const SAMPLE_ALERT_COUNT = 3;

const NO_ALERTS_HINT =
	'The trigger fires when a company on the watch list appears in the BORME. Follow a company with the LibreBOR node (Watch List > Follow) and wait for its next bulletin entry, or point the credential at the sandbox environment to try the trigger with sample data. Alerts are a beta feature that needs an API subscription.';

/**
 * "Fetch Test Event": shows the most recent unread alerts as the trigger would shape them,
 * without reading or writing the trigger's memory and without marking anything as read,
 * so that the next production poll emits exactly what it would have emitted anyway.
 */
export async function pollSampleAlerts(
	this: PollingFunctions,
	settings: TriggerSettings,
): Promise<INodeExecutionData[][]> {
	const listing = await listUnreadAlerts.call(this, { run: settings.run });
	if (listing.length === 0) {
		throw new NodeOperationError(this.getNode(), 'There are no unread LibreBOR alerts to show', {
			description: NO_ALERTS_HINT,
		});
	}

	const sample = oldestFirst(
		listing
			.filter((alert) => itemsForAlert(alert, settings).length > 0)
			.slice(0, SAMPLE_ALERT_COUNT),
	);
	if (sample.length === 0) throw nothingToShow(this.getNode(), listing.length, settings);
	return [sample.flatMap((alert) => itemsForAlert(alert, settings))];
}

/** Which filters of Options left every listed alert out, in the words of the editor. */
function filtersText(settings: TriggerSettings): string {
	const { filter } = settings;
	if (filter.nif !== undefined || filter.createdAfterMs !== undefined)
		return 'passes the filters in Options';
	const labels = filter.labels.length > 0 ? `the labels "${settings.labelText}"` : undefined;
	const categories =
		filter.categories.length > 0 ? `the categories ${filter.categories.join(', ')}` : undefined;
	return `matches ${[labels, categories].filter(Boolean).join(' or ')}`;
}

function nothingToShow(node: INode, listed: number, settings: TriggerSettings): NodeOperationError {
	if (!hasAlertFilter(settings.filter)) {
		const what = settings.output === 'position' ? 'a person change' : 'a bulletin entry';
		return new NodeOperationError(
			node,
			`None of the ${listed} unread LibreBOR alerts has ${what} to show`,
			{ description: 'Set Output to One Item per Alert to see the alerts themselves.' },
		);
	}
	return new NodeOperationError(
		node,
		`None of the ${listed} unread LibreBOR alerts ${filtersText(settings)}`,
		{
			description:
				'Check the filters in Options: the spelling of the labels (accents and case do not matter), the categories, the company and Created After, or clear them to see every alert.',
		},
	);
}
