/**
 * Versions up to 0.1.0 keyed the orders of an account by its base URL and user in clear text
 * (`<base URL>|<user>#<nif>/<year>`), in the workflow's static data, an execution's flow context
 * and n8n's deduplication store. Orders are now keyed by the hashed account (transport/account.ts);
 * what those versions stored is still read, so that an order placed before the upgrade is never
 * paid for again within its Order Memory window. Everything here can go once no such key can be
 * younger than two of the longest windows.
 */
export function legacyAccountKey({ baseUrl, username }: { baseUrl: string; username: string }) {
	return `${baseUrl}|${username}`;
}

/**
 * Moves the orders an older version kept under the account in clear text to its hashed key, the
 * newer order winning where both hold one, so that the clear text leaves the stored memory.
 */
export function adoptLegacyOrders(
	orders: Record<string, { orderedAt?: unknown } | null | undefined>,
	legacyAccount: string,
	account: string,
) {
	const prefix = `${legacyAccount}#`;
	for (const [key, order] of Object.entries(orders)) {
		if (!key.startsWith(prefix)) continue;
		delete orders[key];
		const hashedKey = `${account}#${key.slice(prefix.length)}`;
		const known = orders[hashedKey];
		if (known === undefined || Number(order?.orderedAt) > Number(known?.orderedAt))
			orders[hashedKey] = order;
	}
}
