export * from './alertFilterFields';
export * from './alertOutputOptions';
export * from './byVersion';
export * from './identifierFields';
export * from './listFields';
export * from './requestOptions';
