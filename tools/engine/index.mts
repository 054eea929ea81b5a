export { binaryFilePath, readBinary, readBinaryStream } from './binary.mts';
export { testCredential } from './credentialTest.mts';
export { CredentialTypeRegistry, defaultCredentialTypes } from './credentialTypes.mts';
export type { CredentialsByType } from './credentialsHelper.mts';
export { HarnessCredentialsHelper } from './credentialsHelper.mts';
export { deduplicationStore, ensureEngine } from './engine.mts';
export type { HttpsTestServer, SeenRequest } from './httpsTestServer.mts';
export { startHttpsTestServer } from './httpsTestServer.mts';
export type { InputItems } from './inputNode.mts';
export { nodeTypeNameOf } from './nodeTypes.mts';
export type { CursorStorage, ExecutionFate } from './pollPersistence.mts';
export type { AlertPollSession, PollMode, PollSessionOptions } from './pollSession.mts';
export { createPollSession, PollSession } from './pollSession.mts';
export type { ActionResult, RunActionOptions } from './runAction.mts';
export { runAction } from './runAction.mts';
export type { RunListSearchOptions } from './runListSearch.mts';
export { runListSearch } from './runListSearch.mts';
export type { PollResult, RunPollOptions } from './runPoll.mts';
export { runPoll } from './runPoll.mts';
export { recordWarnings } from './loggedWarnings.mts';
export { credentialsFor } from './simulatorCredentials.mts';
export type { TriggerSessionOptions, TriggerVersion } from './triggerSession.mts';
export { TriggerNodeSession } from './triggerNodeSession.mts';
export {
	activatedSession,
	alertIdsOf,
	CURSOR_STORAGES,
	pollJsonOf,
	triggerSession,
} from './triggerSession.mts';
