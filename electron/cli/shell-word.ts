// How the CLI writes a command line back for a person to run.

/** An argument as a shell reads it back: quoted when it holds anything but plain characters. */
export function shellWord(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", `'\\''`)}'`;
}
