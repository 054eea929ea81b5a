import { createRequire } from 'node:module';

// The Logger instance n8n-core hands to node contexts (`this.logger`), from the same modules it loads.
const require = createRequire(import.meta.url);
const { Container } = require('@n8n/di') as typeof import('@n8n/di');
const { Logger } = require('@n8n/backend-common') as typeof import('@n8n/backend-common');

/** Records the warnings nodes log through n8n's logger until `stop` is called. */
export function recordWarnings(): { messages: string[]; stop: () => void } {
	const logger = Container.get(Logger);
	const messages: string[] = [];
	const warn = logger.warn;
	logger.warn = (message: string) => {
		messages.push(message);
	};
	return { messages, stop: () => (logger.warn = warn) };
}
