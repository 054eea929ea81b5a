// A small, believable account for demos and the local sandbox: three watched companies, a few
// unread alerts (appointments, removals and a capital increase) and one finished document.
import type { SimulatorState } from './state.mts';

const HOUR_MS = 60 * 60 * 1000;

export function seedState(state: SimulatorState, now = Date.now()): void {
	const day = (daysAgo: number) => new Date(now - daysAgo * 24 * HOUR_MS);

	state.follow('A86212420', day(30));
	state.follow('B64717838', day(12));
	state.follow('J99216582', day(2));

	const at = (hoursAgo: number) => new Date(now - hoursAgo * HOUR_MS).toISOString();
	state.addAlert({ nif: 'A86212420', label: 'Nombramientos', created_at: at(50) });
	state.addAlert({
		nif: 'B64717838',
		labels: ['Revocaciones', 'Nombramientos'],
		created_at: at(26),
	});
	state.addAlert({ nif: 'J99216582', label: 'Ampliación de capital', created_at: at(3) });

	// The seeded document was paid for before the simulated balance was set.
	const balance = state.balance;
	const ordered = state.order(
		{
			nif: 'A86212420',
			year: new Date(now).getUTCFullYear() - 2,
			type: 'accounts',
			sendEmail: false,
		},
		now - HOUR_MS,
	);
	if (ordered.ok) state.finishDocument(ordered.document.id);
	state.balance = balance;
}
