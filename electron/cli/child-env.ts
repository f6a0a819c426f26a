// The environment handed to a process that is not the engine (the browser that opens the shell's
// address, Electron's binary installer): never the API key.
export const SECRET_VARIABLES: readonly string[] = ['GIFTBATCH_API_KEY'];

export function withoutSecrets(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const copy = { ...env };
  for (const name of SECRET_VARIABLES) delete copy[name];
  return copy;
}
