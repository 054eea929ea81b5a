import { runAction } from '../../test/harness/index.ts';
import { LibreBor } from '../../nodes/LibreBor/LibreBor.node.ts';
console.log(typeof runAction, typeof LibreBor);
