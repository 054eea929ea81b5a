const MAX_FILE_NAME_LENGTH = 200;

/**
 * A server's file name reduced to a safe base name: the part after the last path separator, without
 * control characters or leading dots, and short enough for any file system (extension kept).
 */
function safeFileName(name: string): string | undefined {
	const base = name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);
	const clean = base
		.replace(/\p{Cc}/gu, '')
		.replace(/^[.\s]+/, '')
		.trim();
	if (!clean) return undefined;
	if (clean.length <= MAX_FILE_NAME_LENGTH) return clean;
	const dot = clean.lastIndexOf('.');
	const extension = dot > 0 && clean.length - dot <= 10 ? clean.slice(dot) : '';
	return clean.slice(0, MAX_FILE_NAME_LENGTH - extension.length) + extension;
}

/** The file name of a Content-Disposition header (RFC 6266 `filename*` first), as a safe base name. */
export function fileNameFromContentDisposition(header: string | undefined): string | undefined {
	if (!header) return undefined;
	const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
	if (extended) {
		try {
			const decoded = safeFileName(decodeURIComponent(extended[1].trim().replace(/^"|"$/g, '')));
			if (decoded) return decoded;
		} catch {
			// Badly encoded: fall back to the plain parameter.
		}
	}
	const plain = /filename\s*=\s*("([^"]*)"|[^;]+)/.exec(header);
	return plain ? safeFileName((plain[2] ?? plain[1]).trim()) : undefined;
}
