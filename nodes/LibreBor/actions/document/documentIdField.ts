import type { INodeProperties } from 'n8n-workflow';

import { byVersion, documentLocator } from '../versionedFields';

export const documentIdFields = (operation: string): INodeProperties[] =>
	byVersion(
		{ resource: ['document'], operation: [operation] },
		{
			displayName: 'Document ID',
			name: 'documentId',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. {{ $json.document_id }}',
			description: 'The "document_id" returned by the Order operation',
		},
		documentLocator,
	);
