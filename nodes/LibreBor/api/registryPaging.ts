/** LibreBOR lists at most this many results of a search, whatever its total. */
export const SEARCH_CAP = 200;

/**
 * The page a search's `next_page` points to, or undefined when there is none. LibreBOR's
 * definition does not show whether it holds a page number or a whole URL, nor what it holds on
 * the last page: both forms are read (a URL only for its `page`, so that no request ever goes
 * where LibreBOR's answer points), and anything that does not move forward ends the search.
 */
export function nextPageOf(nextPage: unknown, currentPage: number): number | undefined {
	let raw: string | undefined;
	if (typeof nextPage === 'number') raw = String(nextPage);
	else if (typeof nextPage === 'string' && nextPage.trim() !== '') {
		const text = nextPage.trim();
		raw = /^\d+$/.test(text) ? text : pageOfUrl(text);
	}
	const page = raw === undefined ? NaN : Number(raw);
	return Number.isSafeInteger(page) && page > currentPage ? page : undefined;
}

function pageOfUrl(text: string): string | undefined {
	try {
		return new URL(text).searchParams.get('page') ?? undefined;
	} catch {
		return undefined;
	}
}
