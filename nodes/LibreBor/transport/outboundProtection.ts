/**
 * What n8n's outbound protection (N8N_SSRF_PROTECTION_ENABLED) said when it refused a request, or
 * undefined for any other failure. Its errors are named `Ssrf…`; they are a decision, not a network
 * failure, so they are never retried.
 */
export function outboundProtectionRefusal(error: unknown): string | undefined {
	let current = error as
		| { name?: unknown; description?: unknown; message?: unknown; cause?: unknown }
		| undefined;
	for (let depth = 0; current && typeof current === 'object' && depth < 5; depth++) {
		if (typeof current.name === 'string' && current.name.startsWith('Ssrf')) {
			return String(current.description ?? current.message ?? '');
		}
		current = current.cause as typeof current;
	}
	return undefined;
}
