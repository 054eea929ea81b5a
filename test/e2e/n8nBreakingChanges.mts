import type { N8nRestClient } from '../../tools/n8n/n8nRestClient.mts';

/** One rule of n8n's breaking-changes report that found something. */
export interface BreakingChangeFinding {
	ruleId: string;
	ruleTitle: string;
	/** Instance rules: what they found in n8n's settings or in how it runs. */
	instanceIssues?: Array<{ title: string; description: string; level: string }>;
	/** Workflow rules: how many workflows they flag. */
	nbAffectedWorkflows?: number;
}

/** n8n's report of what its next major version breaks on this instance, as its settings page shows it. */
export interface BreakingChangesReport {
	targetVersion: string;
	currentVersion: string;
	instanceResults: BreakingChangeFinding[];
	workflowResults: BreakingChangeFinding[];
	/** How many workflows the workflow rules read: every workflow of the instance. */
	totalWorkflows: number;
}

/**
 * Instance rules of the v3 report that are about n8n itself, whatever is installed or set: n8n 3 drops
 * "Import from URL" from the editor (raised on every instance), and runs only from its Docker image
 * (raised on every instance outside a container, such as the one these tests install from npm).
 */
export const findingsAboutN8nItself = [
	'workflow-import-url-removed-v3',
	'docker-only-deployment-v3',
];

/**
 * Runs n8n's breaking-changes report for n8n 3 (module `breaking-changes`, on by default in n8n 2.41,
 * no license needed; the owner has the `breakingChanges:list` scope it asks for).
 */
export async function n8n3BreakingChanges(rest: N8nRestClient): Promise<BreakingChangesReport> {
	const { report, totalWorkflows } = await rest.request<{
		report: Omit<BreakingChangesReport, 'totalWorkflows'>;
		totalWorkflows: number;
	}>('GET', '/rest/breaking-changes/report?version=v3');
	return { ...report, totalWorkflows };
}

/** The findings left once those about n8n itself are set aside: about the set-up, the packages or the workflows. */
export function findingsAboutTheInstance(report: BreakingChangesReport): BreakingChangeFinding[] {
	return [
		...report.instanceResults.filter((finding) => !findingsAboutN8nItself.includes(finding.ruleId)),
		...report.workflowResults,
	];
}
