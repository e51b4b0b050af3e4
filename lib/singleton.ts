/**
 * Process-wide objects: the database client, the logger, the delivery worker,
 * the shutdown flag. Each route of the built site is a bundle with its own copy
 * of our modules, and server.ts has another, yet all must share one of each;
 * Next's dev-mode reloads would otherwise make a new one on every edit. So they
 * live on globalThis, under one key per name, made on first use.
 */
import "server-only";

type Store = Map<string, unknown>;

const holder = globalThis as unknown as { __fieldcrewSingletons?: Store };

function store(): Store {
  holder.__fieldcrewSingletons ??= new Map();
  return holder.__fieldcrewSingletons;
}

/** The process's one `name`, made by `make` the first time it is asked for. */
export function singleton<T>(name: string, make: () => T): T {
  const values = store();
  if (!values.has(name)) values.set(name, make());
  return values.get(name) as T;
}

/** Forgets `name` (after closing it), so the next call to singleton() makes a new one; returns what it held. */
export function forgetSingleton<T>(name: string): T | undefined {
  const values = store();
  const value = values.get(name) as T | undefined;
  values.delete(name);
  return value;
}

/**
 * Forgets every one, as a new process would start (the unit tests run many files in one process:
 * vitest.config.ts). Closing what needs closing is the caller's, before.
 */
export function forgetAllSingletons(): void {
  store().clear();
}
