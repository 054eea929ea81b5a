type Cause = Record<string, unknown>;

/** The error and the errors it wraps through `cause`, outermost first, at most five deep. */
export function causesOf(error: unknown): Cause[] {
	const causes: Cause[] = [];
	let current = error;
	while (current && typeof current === 'object' && causes.length < 5) {
		causes.push(current as Cause);
		current = (current as Cause).cause;
	}
	return causes;
}

/** The Node error code (ECONNRESET, CERT_HAS_EXPIRED…) of a failure or of an error it wraps. */
export function findErrorCode(error: unknown): string | undefined {
	const isCode = (code: unknown): code is string =>
		typeof code === 'string' && /^[A-Z][A-Z0-9_]+$/.test(code);
	return causesOf(error)
		.map((cause) => cause.code)
		.find(isCode);
}
