export * from './alertFilterFields';
export * from './alertOutputField';
export * from './byVersion';
export * from './identifierFields';
export * from './listFields';
export * from './requestOptions';
export * from './registryFields';
