// `node scripts/bench/executionsAtOnceInN8n.mts [--quick] [--main | --queue]`: four executions of one
// account at once in a real n8n, in one main process and in queue mode with 2 workers (section 2g of
// `npm run bench`; see n8n/executionsAtOnceInN8n.mts), alone, printed as Markdown; about 15 minutes
// (`--quick`: DRF's 20/s and the spent quota only; `--main` or `--queue`: that set-up only). Builds
// and packs the package first. Needs NODE_EXTRA_CA_CERTS like `npm run bench`.
import { executionsAtOnceInN8nSection } from './executionsAtOnceReport.mts';
import { measureExecutionsAtOnceInN8n, type N8nSetUp } from './n8n/executionsAtOnceInN8n.mts';
import { runN8nSection } from './n8nSection.mts';

const only: N8nSetUp[] | undefined = process.argv.includes('--main')
	? ['one main process']
	: process.argv.includes('--queue')
		? ['queue mode, 2 workers']
		: undefined;

runN8nSection(
	'executionsAtOnceInN8n',
	async (tarball, quick) => await measureExecutionsAtOnceInN8n(tarball, { quick, setUps: only }),
	executionsAtOnceInN8nSection,
);
