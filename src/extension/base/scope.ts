import { Disposable, toDisposable, type IDisposable } from './lifecycle';

/**
 * What lives as long as something else does (a session's record, an agent's connection, a
 * turn's questions): everything created for it registers here, and is let go when the scope is
 * disposed, once, newest first. A registration made after that runs at once, so a late async one
 * cannot outlive its owner.
 */
export class Scope extends Disposable {
  private readonly keys = new WeakSet<object>();

  override get isDisposed(): boolean {
    return super.isDisposed;
  }

  /**
   * Runs `fn` when the scope is disposed (at once if it is). Disposing the result unregisters it
   * without running it: for what ended on its own (an answered question, a released terminal).
   */
  onDispose(fn: () => void): IDisposable {
    const entry = toDisposable(fn);
    this._register(entry);
    return { dispose: () => this._unregister(entry) };
  }

  /** Like `onDispose`, at most once per key however often asked (a feature's bookkeeping of a session). */
  once(key: object, fn: () => void): void {
    if (this.keys.has(key)) return;
    this.keys.add(key);
    this.onDispose(fn);
  }
}

/** Runs `fn` once when the first of these scopes is disposed; disposing the result unregisters it from all. */
export function onAnyDispose(scopes: readonly (Scope | undefined)[], fn: () => void): IDisposable {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    registrations.forEach((r) => r.dispose());
    fn();
  };
  const registrations: IDisposable[] = [];
  for (const scope of scopes) {
    if (!scope) continue;
    registrations.push(scope.onDispose(once));
    if (done) break;
  }
  return { dispose: () => registrations.forEach((r) => r.dispose()) };
}
