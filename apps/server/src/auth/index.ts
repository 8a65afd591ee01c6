/** Public surface of the auth module for the HTTP layer and the main entry. */
export { ALL_ENTITIES } from './auth-types.ts';
export type { AuthConfig, AuthResult, AuthScheme, AuthUser, AuthzResult, Principal } from './auth-types.ts';
export { AuthFileNotFoundError, formatAuthFile, loadAuthFile, parseAuthFile } from './auth-file.ts';
export { authorizeEntity, authorizeProject, createAuthenticator, defaultEntity } from './authenticator.ts';
export type { Authenticator } from './authenticator.ts';
export { generateApiKey, hashApiKey, isApiKeyHash } from './keys.ts';
export { ensureLocalAuth } from './local-key.ts';
export { addApiKey } from './add-key-command.ts';
export { addKeyCommand } from './cli.ts';
export type { CliIo } from './cli.ts';
