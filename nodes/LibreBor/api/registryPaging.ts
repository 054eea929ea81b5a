/** LibreBOR lists at most this many results of a search, whatever its total. */
export const SEARCH_CAP = 200;

/**
 * The page a search's `next_page` points to, or undefined when there is none. LibreBOR's
 * definition does not show whether it holds a page number or a URL (whole, or its path), nor what
 * it holds on the last page: every form is read (a URL only for its `page`, so that no request
 * ever goes where LibreBOR's answer points), and anything that does not move forward ends the search.
 */
export function nextPageOf(nextPage: unknown, currentPage: number): number | undefined {
	const text = typeof nextPage === 'string' ? nextPage.trim() : String(nextPage);
	const page = Number(/^\d+$/.test(text) ? text : pageOfUrl(text));
	return Number.isSafeInteger(page) && page > currentPage ? page : undefined;
}

/** Only to read a path's query: nothing is ever sent to it. */
const ANY_HOST = 'https://librebor.invalid/';

function pageOfUrl(text: string): string | undefined {
	if (!URL.canParse(text, ANY_HOST)) return undefined;
	return new URL(text, ANY_HOST).searchParams.get('page') ?? undefined;
}
