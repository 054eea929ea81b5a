// Alerts kept oldest first (by created_at, then arrival), each serialised once, so that listing
// thousands of unread alerts newest first is a single backwards walk and a string join.
import type { Alert } from './types.mts';

interface StoredAlert {
	alert: Alert;
	json: string;
	sortKey: number;
	read: boolean;
}

export class AlertStore {
	private readonly ordered: StoredAlert[] = [];
	private readonly byId = new Map<string, StoredAlert>();
	private unread = 0;

	get unreadCount(): number {
		return this.unread;
	}

	get totalCount(): number {
		return this.ordered.length;
	}

	add(alert: Alert): void {
		const parsed = Date.parse(alert.created_at);
		const stored: StoredAlert = {
			alert,
			json: JSON.stringify(alert),
			sortKey: Number.isNaN(parsed) ? Number.MAX_SAFE_INTEGER : parsed,
			read: false,
		};
		// Usually appended; a back-dated alert is slotted in place.
		let index = this.ordered.length;
		while (index > 0 && this.ordered[index - 1].sortKey > stored.sortKey) index--;
		this.ordered.splice(index, 0, stored);
		const previous = this.byId.get(alert.id);
		if (previous && !previous.read) {
			previous.read = true;
			this.unread--;
		}
		this.byId.set(alert.id, stored);
		this.unread++;
	}

	/** Unread alerts, newest first, at most `limit`. */
	unreadNewestFirst(limit = Infinity): Alert[] {
		return this.collectUnread(limit).map((stored) => stored.alert);
	}

	/** The JSON array GET /alerts/ answers. */
	unreadJson(limit = Infinity): string {
		return `[${this.collectUnread(limit)
			.map((stored) => stored.json)
			.join(',')}]`;
	}

	has(id: string): boolean {
		return this.byId.has(id);
	}

	isUnread(id: string): boolean {
		return this.byId.get(id)?.read === false;
	}

	/** Marks one alert read; false when the id is unknown. */
	markRead(id: string): boolean {
		const stored = this.byId.get(id);
		if (!stored) return false;
		if (!stored.read) {
			stored.read = true;
			this.unread--;
		}
		return true;
	}

	markAllRead(): number {
		const marked = this.unread;
		for (const stored of this.ordered) stored.read = true;
		this.unread = 0;
		return marked;
	}

	private collectUnread(limit: number): StoredAlert[] {
		const result: StoredAlert[] = [];
		for (
			let i = this.ordered.length - 1;
			i >= 0 && result.length < limit && result.length < this.unread;
			i--
		) {
			if (!this.ordered[i].read) result.push(this.ordered[i]);
		}
		return result;
	}
}
