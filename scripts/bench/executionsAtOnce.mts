// `node scripts/bench/executionsAtOnce.mts [--quick]`: several executions of one account at once
// under each shape of limit (section 2e of `npm run bench`), alone, printed as Markdown; about 5
// minutes (`--quick`: DRF's 20/s only). Builds the package first. Needs NODE_EXTRA_CA_CERTS like
// `npm run bench`.
import type { ExecutionsAtOnceRun } from './engine/executionsAtOnce.measure.mts';
import { runEngineSection } from './engineSection.mts';
import { executionsAtOnceSection } from './executionsAtOnceReport.mts';

runEngineSection<ExecutionsAtOnceRun[]>('executionsAtOnce', executionsAtOnceSection);
