/** LibreBOR lists at most this many results of a search, whatever its total. */
export const SEARCH_CAP = 200;

/**
 * The page a search's `next_page` points to, or undefined when there is none. LibreBOR's
 * definition does not show whether it holds a page number or a whole URL, nor what it holds on
 * the last page: both forms are read (a URL only for its `page`, so that no request ever goes
 * where LibreBOR's answer points), and anything that does not move forward ends the search.
 */
export function nextPageOf(nextPage: unknown, currentPage: number): number | undefined {
	const text = typeof nextPage === 'string' ? nextPage.trim() : String(nextPage);
	const page = Number(/^\d+$/.test(text) ? text : pageOfUrl(text));
	return Number.isSafeInteger(page) && page > currentPage ? page : undefined;
}

function pageOfUrl(text: string): string | undefined {
	return URL.canParse(text) ? (new URL(text).searchParams.get('page') ?? undefined) : undefined;
}
