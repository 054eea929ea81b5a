// `node scripts/bench/registryLookups.mts [--quick]`: registry look-ups of 200 companies under each
// shape of limit, 20 requests a second (section 2f of `npm run bench`), alone, printed as Markdown;
// about 3 minutes (`--quick`: 20 companies, DRF's sliding log only). Builds the package first.
// Needs NODE_EXTRA_CA_CERTS like `npm run bench`.
import type { RegistryLookupRun } from './engine/registryLookups.measure.mts';
import { runEngineSection } from './engineSection.mts';
import { registryLookupsSection } from './registryLookupsReport.mts';

runEngineSection<RegistryLookupRun[]>('registryLookups', registryLookupsSection);
