import { normalizeLabel } from './alert';

/** What a BORME act is about, for routing alerts without knowing the registry's labels. */
export const ACT_CATEGORIES = [
	'officers',
	'ownership',
	'capital',
	'identity',
	'restructuring',
	'distress',
	'other',
] as const;

export type ActCategory = (typeof ACT_CATEGORIES)[number];

/**
 * The act labels of the BORME parser LibreBOR grew from (bormeparser, `acto.py`), as it spells
 * them, each under its category; docs/act-categories.md shows the same table with the reasons.
 * Any label not listed here is `other`: LibreBOR may send labels nobody has listed yet.
 */
const CATEGORY_LABELS: Record<Exclude<ActCategory, 'other'>, readonly string[]> = {
	officers: [
		'Nombramientos',
		'Reelecciones',
		'Revocaciones',
		'Ceses/Dimisiones',
		'Cancelaciones de oficio de nombramientos',
		'Modificación de poderes',
	],
	ownership: [
		'Declaración de unipersonalidad',
		'Sociedad unipersonal',
		'Pérdida del caracter de unipersonalidad',
		'Cambio de identidad del socio único',
		'Socio único',
	],
	capital: [
		'Ampliación de capital',
		'Reducción de capital',
		'Desembolso de dividendos pasivos',
		'Emisión de obligaciones',
		'Acuerdo de ampliación de capital social sin ejecutar. Importe del acuerdo',
	],
	identity: [
		'Cambio de denominación social',
		'Cambio de domicilio social',
		'Cambio de objeto social',
		'Ampliacion del objeto social',
		'Modificaciones estatutarias',
		'Modificación de duración',
		'Página web de la sociedad',
		'Adaptación Ley 2/95',
		'Adaptada segun D.T. 2 apartado 2 Ley 2/95',
		'Adaptación Ley 44/2015',
		'Adaptación de sociedad',
	],
	restructuring: [
		'Constitución',
		'Primera inscripcion (O.M. 10/6/1.997)',
		'Fusión por absorción',
		'Fusión por unión',
		'Escisión parcial',
		'Escisión total',
		'Segregación',
		'Cesión global de activo y pasivo',
		'Transformación de sociedad',
		'Primera sucursal de sociedad extranjera',
		'Apertura de sucursal',
		'Sucursal',
		'Cierre de Sucursal',
	],
	distress: [
		'Situación concursal',
		'Suspensión de pagos',
		'Quiebra',
		'Disolución',
		'Extinción',
		'Crédito incobrable',
		'Anotación preventiva. Declaración de deudor fallido',
		'Cierre provisional hoja registral por baja en el índice de Entidades Jurídicas',
		'Cierre provisional de la hoja registral por revocación del NIF',
		'Cierre provisional hoja registral por revocación del NIFde Entidades Jurídicas',
		'Cierre provisional hoja registral art. 137.2 Ley 43/1995 Impuesto de Sociedades',
		// The end of a closure or a dissolution: whoever acted on those needs to hear it ended.
		'Reapertura hoja registral',
		'Reactivación de la sociedad (Art. 242 del Reglamento del Registro Mercantil)',
	],
};

const categoryByLabel = new Map<string, ActCategory>(
	Object.entries(CATEGORY_LABELS).flatMap(([category, labels]) =>
		labels.map((label) => [normalizeLabel(label), category as ActCategory] as const),
	),
);

/** The category of an act label, case and accents ignored; `other` for any label not known. */
export function categoryOf(label: unknown): ActCategory {
	return (typeof label === 'string' && categoryByLabel.get(normalizeLabel(label))) || 'other';
}

/** What an officers' act did to the people it lists. */
export type PositionChange = 'appointed' | 'reelected' | 'removed' | 'other';

const changeByLabel = new Map<string, PositionChange>([
	[normalizeLabel('Nombramientos'), 'appointed'],
	[normalizeLabel('Reelecciones'), 'reelected'],
	[normalizeLabel('Revocaciones'), 'removed'],
	[normalizeLabel('Ceses/Dimisiones'), 'removed'],
	[normalizeLabel('Cancelaciones de oficio de nombramientos'), 'removed'],
]);

export function positionChangeOf(label: unknown): PositionChange {
	return (typeof label === 'string' && changeByLabel.get(normalizeLabel(label))) || 'other';
}
