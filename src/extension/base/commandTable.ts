/** Commands by id, each with the arguments VS Code (a menu, a keybinding, a test) passes it. */
export type CommandTable = Record<string, (...args: unknown[]) => unknown>;
