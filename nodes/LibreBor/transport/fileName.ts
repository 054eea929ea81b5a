const MAX_FILE_NAME_LENGTH = 200;

/**
 * A server's file name reduced to a safe base name: the part after the last path separator, without
 * control or format characters (a right-to-left override shows "fdp.exe" as "exe.pdf") or leading
 * dots, and short enough for any file system (extension kept).
 */
function safeFileName(name: string): string | undefined {
	const base = name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);
	const clean = base
		.replace(/[\p{Cc}\p{Cf}]/gu, '')
		.replace(/^[.\s]+/, '')
		.trim();
	if (!clean) return undefined;
	if (clean.length <= MAX_FILE_NAME_LENGTH) return clean;
	const dot = clean.lastIndexOf('.');
	const extension = dot > 0 && clean.length - dot <= 10 ? clean.slice(dot) : '';
	return clean.slice(0, MAX_FILE_NAME_LENGTH - extension.length) + extension;
}

/** RFC 8187's percent-encoded value in its charset (UTF-8 or ISO-8859-1); undefined when badly encoded. */
function decodeExtValue(charset: string, value: string): string | undefined {
	if (charset.toLowerCase() === 'iso-8859-1')
		return value.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) =>
			String.fromCharCode(parseInt(hex, 16)),
		);
	let decoded: string | undefined;
	try {
		decoded = decodeURIComponent(value);
	} catch {
		// Badly encoded: none.
	}
	return decoded;
}

/** The file name of a Content-Disposition header (RFC 6266 `filename*` first), as a safe base name. */
export function fileNameFromContentDisposition(header: string | undefined): string | undefined {
	if (!header) return undefined;
	// charset'language'value, the language optional; any letter case.
	const extended = /filename\*\s*=\s*(utf-8|iso-8859-1)'[^']*'([^;]+)/i.exec(header);
	if (extended) {
		const decoded = decodeExtValue(extended[1], extended[2].trim().replace(/^"|"$/g, ''));
		const safe = decoded === undefined ? undefined : safeFileName(decoded);
		if (safe) return safe;
	}
	// A quoted name may escape a quote or a backslash with a backslash.
	const plain = /filename\s*=\s*("((?:[^"\\]|\\.)*)"|[^;]+)/.exec(header);
	if (!plain) return undefined;
	const name = plain[2] === undefined ? plain[1] : plain[2].replace(/\\(.)/g, '$1');
	return safeFileName(name);
}
