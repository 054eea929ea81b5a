import { causesOf } from './errorCauses';

/**
 * What n8n's outbound protection (N8N_SSRF_PROTECTION_ENABLED) said when it refused a request, or
 * undefined for any other failure. Its errors are named `Ssrf…`; they are a decision, not a network
 * failure, so they are never retried.
 */
export function outboundProtectionRefusal(error: unknown): string | undefined {
	const refusal = causesOf(error).find(
		(cause) => typeof cause.name === 'string' && cause.name.startsWith('Ssrf'),
	);
	return refusal && String(refusal.description ?? refusal.message ?? '');
}
